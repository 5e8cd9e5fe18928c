/*
 * stale_detector_control (aarch64): the verifier's negative control. Every
 * CPU reads the test pages (its TLB now holds them), the BSP remaps them to
 * the other frame pool with no invalidation at all, and every CPU reads
 * again. A stale read proves the verifier can see a translation a CPU kept;
 * SUCCESS needs at least one. None is not an error of the machine (the
 * architecture allows, never requires, an entry to stay): the experiment is
 * then SKIP, inconclusive, and the other experiments' zero stale reads prove
 * less. QEMU's per-vCPU softmmu TLB keeps every entry until a TLBI, so under
 * QEMU every read is stale; on hardware expect some.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"

#define CONTROL_PAGES 64

void exp_stale_control(struct arm64_run *run, struct experiment_record *e)
{
    uint64_t stale;
    unsigned cpus[MAX_CPUS], k = a64_others(cpus);
    struct result_point *p;
    if (!run->region_ok) {
        record_set_status(e, RESULT_ERROR, "no test region (see run.errors)");
        return;
    }
    region_reset();
    region_warm(run, cpus, k, 0, CONTROL_PAGES);
    region_remap(0, CONTROL_PAGES, 1); /* and nothing else: no TLBI, no DSB ISH */
    stale = region_verify(run, e, 0, CONTROL_PAGES, 1);
    region_reset();
    p = a64_point_add(e);
    point_param_num(p, "pages", CONTROL_PAGES);
    point_value(p, "stale_reads", (int64_t)stale * 1000);
    point_value(p, "checks", (int64_t)e->verification.checks * 1000);
    if (stale == 0)
        record_set_status(e, RESULT_SKIP,
                    "no stale read after a remap without invalidation: the CPUs dropped the entries; the verifier "
                    "could not be shown to work here (inconclusive)");
    record_note(e, "%u pages read by %u CPUs, remapped with no TLBI, read again", CONTROL_PAGES, k + 1);
}
