/*
 * stale_detector_control (aarch64): the verifier's negative control, as
 * break-before-make's first half without its invalidation. Every CPU reads
 * the test pages (its TLB now holds them), the BSP makes their descriptors
 * invalid and issues DSB ISHST and no TLBI at all (a64_exp.h region_unmap:
 * Linux's ptep_get_and_clear() with no flush after it), and every CPU reads
 * again inside an abort window (asm/abort.h). A CPU that still holds the
 * old entry reads pool A's tag: a stale read. One that holds none walks the
 * invalid descriptor and takes a translation fault, which the handler
 * recovers from (a secondary's is counted and the CPU goes on, not parked;
 * the BSP takes our vectors for the window): the right answer without a
 * TLB entry. Any other value is neither (a TLB conflict or an amalgamated
 * entry: a64_verify.h), counted apart and a FAILURE. A stale read proves the
 * verifier can see a translation a CPU kept; SUCCESS needs at least one.
 * None is not an error of the machine (the architecture allows, never
 * requires, an entry to stay): the experiment is then SKIP, inconclusive,
 * and the other experiments' zero stale reads prove less. QEMU's per-vCPU
 * softmmu TLB keeps an entry until a TLBI or until another page's evicts
 * it, so under QEMU nearly every read is stale; on hardware expect some
 * stale reads and some faults. CONTROL_COLD_PAGES more pages, read by no
 * CPU since region_reset's flush, are unmapped and read too: with no entry
 * to keep, their reads fault, so the recoverable abort runs on every CPU of
 * every run. The point's values: stale_reads, faults (reads with no entry
 * left) and conflicts, of `checks` reads.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"

#define CONTROL_PAGES 64      /* read by every CPU before the unmap: the entries that may stay */
#define CONTROL_COLD_PAGES 16 /* the next ones, read by no CPU since region_reset's flush: no
                               * entry to keep, so their reads take the recoverable fault (the
                               * abort path runs on every CPU each run; speculation may still
                               * have filled some: then a stale read) */

void exp_stale_control(struct arm64_run *run, struct experiment_record *e)
{
    uint64_t stale, conflicts, faults, tpl = 0;
    unsigned cpus[MAX_CPUS], k = a64_others(cpus);
    struct result_point *p;
    if (!run->region_ok) {
        record_set_status(e, RESULT_ERROR, "no test region (see run.errors)");
        return;
    }
    /* its one sample at TPL_HIGH_LEVEL, as every paced point (a64_pace_point): no firmware
     * callback runs while the descriptors are invalid and the BSP reads through the abort
     * window; nothing in it calls the firmware */
    if (run->irq_mask)
        tpl = run->irq_mask();
    region_reset();
    region_warm(run, cpus, k, 0, CONTROL_PAGES);
    region_unmap(0, CONTROL_PAGES + CONTROL_COLD_PAGES); /* and nothing else: no TLBI, no DSB ISH */
    stale = region_verify_unmapped(run, e, 0, CONTROL_PAGES + CONTROL_COLD_PAGES, 0);
    region_reset();
    if (run->irq_mask && run->irq_restore)
        run->irq_restore(tpl);
    a64_misreads(&conflicts, &faults);
    p = a64_point_add(e);
    point_param_num(p, "pages", CONTROL_PAGES);
    point_param_num(p, "cold_pages", CONTROL_COLD_PAGES);
    point_value(p, "stale_reads", (int64_t)stale * 1000);
    point_value(p, "faults", (int64_t)faults * 1000);
    point_value(p, "conflicts", (int64_t)conflicts * 1000);
    point_value(p, "checks", (int64_t)e->verification.checks * 1000);
    if (stale == 0 && conflicts == 0)
        record_set_status(e, RESULT_SKIP,
                    "no stale read after an unmap without invalidation: the CPUs dropped the entries; the verifier "
                    "could not be shown to work here (inconclusive)");
    record_note(e, "%u pages read by %u CPUs and %u not, their descriptors made invalid with no TLBI, all read "
                "again: %llu stale (the old frame), %llu translation faults (no entry left, recovered), %llu of "
                "neither", CONTROL_PAGES, k + 1, CONTROL_COLD_PAGES, (unsigned long long)stale,
                (unsigned long long)faults, (unsigned long long)conflicts);
}
