/* The aarch64 experiments' shared record keeping and test-region operations: see a64_exp.h. */
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/experiments.h"

#include <stdarg.h>

#include "asm/barrier.h"
#include "asm/gic.h"
#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "asm/tlbi.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/mutant.h"

void a64_exp_begin(struct arm64_run *run, struct experiment_record *e, bool verifies)
{
    (void)run;
    e->verification.applicable = verifies;
    /* before any measurement: the points' room is reserved, as x86's runner does */
    if (!point_list_reserve(&e->results, A64_MAX_POINTS) || !point_list_reserve(&e->summary, A64_MAX_SUMMARY))
        record_set_status(e, RESULT_ERROR, "no memory for the experiment's points");
}

void a64_exp_end(struct arm64_run *run, struct experiment_record *e, uint64_t t0)
{
    (void)run;
    e->duration_ms = ticks_to_ms(ticks() - t0);
    if (e->verification.stale_reads && str_cmp(e->id, "stale_detector_control") != 0 &&
        e->status != RESULT_FAILURE)
        record_set_status(e, RESULT_FAILURE,
                          "%llu stale reads after a shootdown that completed: a CPU kept a translation",
                          (unsigned long long)e->verification.stale_reads);
    if (e->partial && e->status == RESULT_SUCCESS)
        record_set_status(e, RESULT_ERROR, "incomplete: a CPU stopped answering (see topology) or the points ran out");
}

struct result_point *a64_point_add(struct experiment_record *e)
{
    struct result_point *p = point_list_add(&e->results);
    if (!p)
        e->partial = true;
    return p;
}

void a64_latency(struct result_point *p, uint64_t *samples, uint32_t n)
{
    struct stats st;
    stats_from_array(samples, n, &st);
    point_metric(p, "latency", &st);
}

unsigned a64_others(unsigned *out)
{
    unsigned c, k = 0;
    for (c = 1; c < ncpus; c++)
        if (percpu_usable(c))
            out[k++] = c;
    return k;
}

void a64_serve_pings(struct percpu *pc, void (*answer)(struct percpu *pc, uint64_t ping))
{
    uint64_t foreign = 0, i;
    __atomic_store_n(&pc->result[1], 1, __ATOMIC_RELEASE); /* ready */
    for (i = 0; i < pc->arg[0];) {
        uint32_t irq = gic_ack();
        if (irq >= 1020) {
            if (__atomic_load_n(&pc->arg[3], __ATOMIC_ACQUIRE)) /* the BSP gave up */
                break;
            continue;
        }
        gic_eoi(irq);
        if (irq != SGI_PING) {
            foreign++;
            continue;
        }
        answer(pc, ++i);
    }
    pc->result[0] = foreign;
}

unsigned a64_target_counts(unsigned others, unsigned *out)
{
    unsigned m = 0;
    if (others >= 1)
        out[m++] = 1;
    if (others / 2 > 1 && others / 2 < others)
        out[m++] = others / 2;
    if (others > 1)
        out[m++] = others;
    return m;
}

uint64_t a64_timeout_ticks(const struct arm64_run *run)
{
    return tick_freq() / 1000 * run->timeout_ms;
}

void region_reset(void)
{
    unsigned i;
    for (i = 0; i < REGION_PAGES; i++)
        region_set_pte(i, 0);
    dsb_ishst();
    tlbi_all_is();
    dsb_ish();
    isb();
}

void region_remap(unsigned first, unsigned n, unsigned pool)
{
    unsigned i;
    for (i = first; i < first + n; i++)
        region_set_pte(i, pool);
    /* the stores visible to every walker before the TLBIs that follow: one that takes effect
     * first would let a walk refill the old descriptor (the mutant leaves that to their DSB) */
    if (!MUTANT(a64_remap_no_dsb_ishst))
        dsb_ishst();
}

/* reads through this CPU's TLB: returns the wrong tags; the first in *bad_at, *seen */
static uint64_t read_pages(unsigned first, unsigned n, unsigned pool, unsigned *bad_at, uint64_t *seen)
{
    uint64_t bad = 0;
    unsigned i;
    for (i = first; i < first + n; i++) {
        uint64_t v = test_read((const volatile uint64_t *)region_page_va(i));
        if (v != frame_tag(pool, i) && !bad++) {
            *bad_at = i;
            *seen = v;
        }
    }
    return bad;
}

void a64_fn_read(struct percpu *pc)
{
    unsigned at = 0;
    uint64_t seen = 0;
    pc->result[0] = read_pages((unsigned)pc->arg[0], (unsigned)pc->arg[1], (unsigned)pc->arg[2], &at, &seen);
    pc->result[1] = at;
    pc->result[2] = seen;
}

bool region_warm(struct arm64_run *run, const unsigned *cpus, unsigned k, unsigned first, unsigned n)
{
    unsigned i, at;
    uint64_t seen;
    bool ok = true;
    for (i = 0; i < k; i++)
        smp_post(cpus[i], a64_fn_read, first, n, 0);
    read_pages(first, n, 0, &at, &seen);
    for (i = 0; i < k; i++)
        if (smp_wait(cpus[i], a64_timeout_ticks(run)) != 0) {
            a64_cpu_lost(run, cpus[i], "warming the test pages");
            ok = false;
        }
    return ok;
}

/* `bad` stale reads of one CPU, the first at page `at` (seen instead of pool's tag) */
static void tally_stale(struct experiment_record *e, unsigned cpu, uint64_t bad, unsigned at, uint64_t seen,
                        unsigned pool)
{
    if (!bad)
        return;
    record_stale(e, cpu, region_page_va(at), frame_tag(pool, at), seen); /* counts one */
    e->verification.stale_reads += bad - 1;
}

uint64_t region_verify(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n, unsigned pool)
{
    unsigned cpus[MAX_CPUS], k = a64_others(cpus);
    return region_verify_cpus(run, e, first, n, pool, cpus, k);
}

uint64_t region_verify_cpus(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n,
                            unsigned pool, const unsigned *cpus, unsigned k)
{
    unsigned i, at = 0;
    uint64_t seen = 0, bad, before = e->verification.stale_reads;
    for (i = 0; i < k; i++)
        smp_post(cpus[i], a64_fn_read, first, n, pool);
    bad = read_pages(first, n, pool, &at, &seen);
    e->verification.checks += n;
    tally_stale(e, 0, bad, at, seen, pool);
    for (i = 0; i < k; i++) {
        struct percpu *pc = &percpu[cpus[i]];
        if (smp_wait(cpus[i], a64_timeout_ticks(run)) != 0) {
            a64_cpu_lost(run, cpus[i], "verifying the test pages");
            e->partial = true;
            continue;
        }
        e->verification.checks += n;
        tally_stale(e, cpus[i], pc->result[0], (unsigned)pc->result[1], pc->result[2], pool);
    }
    return e->verification.stale_reads - before;
}
