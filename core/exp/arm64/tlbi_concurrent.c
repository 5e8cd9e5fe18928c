/*
 * tlbi_concurrent: m initiators (1, 2, 4 .. every CPU) each shoot down their
 * own pages (8, fewer on machines past 64 CPUs: concurrent_plan.h) with broadcast TLBIs at the same moment (tlbi_flush.c:
 * TLBI VAE1IS per page, DSB ISH, ISB). Broadcast invalidations of different
 * CPUs meet in the interconnect (and, under QEMU, in every vCPU's TLB
 * flush work): the slowdown of one initiator's DSB ISH as m grows is the
 * cost of that. A sample: every CPU reads all m x PAGES pages; the
 * initiators wait on a start flag, then each remaps its own pages by
 * break-before-make (a64_exp.h region_remap, Linux's ptep_clear_flush() and
 * set_pte_at()): its PTEs invalid and DSB ISHST (not timed), its shootdown
 * timed on its own CNTVCT_EL0 (TLBIs, DSB ISH, ISB: flush_tlb_page()'s window
 * after its leading dsb(ishst)), then its new PTEs, DSB ISHST, ISB (not
 * timed); then every CPU verifies every page. A point's samples are every
 * initiator's.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"
#include "core/exp/arm64/concurrent_plan.h"
#include "core/exp/arm64/tlbi_flush.h"
#include "core/lib/mem.h"

/* the start flag, alone in its line: every initiator polls it */
static struct {
    volatile uint32_t go;
} start __attribute__((aligned(128)));

/* one initiator's pages: the timed broadcast shootdown between break and make */
struct own_pages {
    unsigned first, n;
};

static uint64_t timed_flush(void *ctx)
{
    const struct own_pages *o = ctx;
    uint64_t t = ticks();
    tlbi_flush_broadcast(region_page_va(o->first), o->n);
    t = ticks() - t;
    return t ? t : 1;
}

/* initiator's share: remap [first, first+n) to pool 1 by break-before-make, its shootdown timed */
static uint64_t own_shootdown(unsigned first, unsigned n)
{
    struct own_pages o = { first, n };
    return region_remap(first, n, 1, timed_flush, &o);
}

/* arg0 first page, arg1 pages, arg2 how long to wait for the start, in ticks: a duration,
 * never the BSP's deadline, since no two CPUs' counters are assumed to agree */
static void fn_initiator(struct percpu *pc)
{
    uint64_t end = ticks() + pc->arg[2];
    while (!__atomic_load_n(&start.go, __ATOMIC_ACQUIRE))
        if (ticks() > end)
            return; /* result[0] stays 0: no sample */
    pc->result[0] = own_shootdown((unsigned)pc->arg[0], (unsigned)pc->arg[1]);
}

void exp_tlbi_concurrent(struct arm64_run *run, struct experiment_record *e)
{
    uint64_t base_p50 = 0;
    unsigned others[MAX_CPUS], k = a64_others(others), counts[CONCURRENT_MAX_COUNTS], c, i, j;
    const unsigned cpus = k + 1, pages = concurrent_pages(cpus, REGION_PAGES); /* every point's, per initiator */
    unsigned ncounts = concurrent_counts(cpus, counts);
    struct a64_pace pace;
    if (!run->region_ok) {
        record_set_status(e, RESULT_ERROR, "no test region (see run.errors)");
        ncounts = 0;
    } else if (k == 0) {
        record_set_status(e, RESULT_SKIP, "one CPU: no concurrent initiators");
        ncounts = 0;
    } else if (!a64_pace_begin(run, e, &pace, ncounts, k + 1)) {
        ncounts = 0;
    }
    for (c = 0; c < ncounts; c++) {
        unsigned m = counts[c], got = 0;
        bool short_of_cpus = false;
        struct result_point *p;
        a64_pace_point(&pace);
        for (i = 0; a64_pace_more(&pace, i); i++) {
            k = a64_others(others);
            if (m > k + 1) {
                e->partial = true;
                short_of_cpus = true;
                break;
            }
            region_reset();
            if (!region_warm(run, others, k, 0, m * pages))
                e->partial = true;
            __atomic_store_n(&start.go, 0, __ATOMIC_RELEASE);
            for (j = 1; j < m; j++)
                smp_post(others[j - 1], fn_initiator, j * pages, pages, a64_timeout_ticks(run));
            __atomic_store_n(&start.go, 1, __ATOMIC_RELEASE);
            pace.buf[got++] = own_shootdown(0, pages);
            for (j = 1; j < m; j++) {
                if (smp_wait(others[j - 1], a64_timeout_ticks(run)) != 0) {
                    a64_cpu_lost(run, others[j - 1], "tlbi_concurrent");
                    e->partial = true;
                } else if (percpu[others[j - 1]].result[0]) {
                    pace.buf[got++] = percpu[others[j - 1]].result[0];
                }
            }
            region_verify(run, e, 0, m * pages, 1);
        }
        a64_pace_point_done(&pace, i, !short_of_cpus);
        p = a64_point_add(e);
        if (!p)
            break;
        point_param_num(p, "initiators", m);
        point_param_num(p, "pages", pages);
        a64_latency(p, pace.buf, got);
        if (c == 0)
            base_p50 = point_find_metric(p, "latency")->p50;
        if (base_p50)
            point_value(p, "slowdown_p50", (int64_t)(point_find_metric(p, "latency")->p50 * 1000 / base_p50));
    }
    region_reset();
    if (ncounts)
        a64_pace_end(run, e, &pace);
    record_note(e, "%u pages per initiator; a sample is one shootdown of each initiator, each on its own counter",
             pages);
    if (pages < CONCURRENT_PAGES)
        record_note(e, "%u pages per initiator, not %u: the %u CPUs' pages must fit the test region's %u (one "
                    "level-3 table), the same at every point so that the points compare",
                    pages, CONCURRENT_PAGES, cpus, (unsigned)REGION_PAGES);
}
