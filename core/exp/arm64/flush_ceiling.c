/*
 * flush_ceiling (aarch64): x86's question (core/exp/flush_ceiling.c) on
 * Arm. From how many pages is one full flush cheaper than invalidating
 * page by page, once the TLB misses that refill what it threw away are
 * counted?
 *
 * What Linux does (arch/arm64/include/asm/tlbflush.h): flush_tlb_range()
 * -> __flush_tlb_range() asks __flush_tlb_range_limit_excess() whether the
 * range is too long; if not, __flush_tlb_range_op() issues one broadcast
 * TLBI per page (VAE1IS; VALE1IS for leaf-only flushes, flush_tlb_page()),
 * or, where ID_AA64ISAR0_EL1.TLB says FEAT_TLBIRANGE, range operations
 * (RVAE1IS), then DSB ISH; if it is, flush_tlb_mm() issues one TLBI
 * ASIDE1IS of the process's ASID (and __tlbi_user's for KPTI's), then
 * DSB ISH. The switch: without range TLBI from MAX_DVM_OPS pages
 * (PTRS_PER_PTE = 512 with 4 KiB pages); with it only above
 * MAX_TLBI_RANGE_PAGES (2^21 pages: the largest range one RVAE1IS names),
 * so on such a CPU Linux never takes the full flush for a range it can name.
 * That page count is the summary's `linux_ceiling`.
 *
 * The modes, each timed on the BSP's CNTVCT_EL0 from the first TLBI to the
 * end of the ISB after DSB ISH (tlbi_flush.c, the code the model runs):
 *   per_page   TLBI VAE1IS per page (no FEAT_TLBIRANGE), or
 *   range      TLBI RVAE1IS ranges and a VAE1IS for an odd page (with it):
 *              the single-page path Linux takes on this CPU; the test pages
 *              global, which a by-VA TLBI of ASID 0 matches (Linux's carry
 *              the process's ASID to its non-global entries: one TLBI a page
 *              either way);
 *   full_asid  EL1: the test pages non-global (nG) under the current ASID,
 *              and one TLBI ASIDE1IS of it (flush_tlb_mm without KPTI's
 *              second one); an ASID flush leaves global entries alone, so a
 *              global mapping would need VMALLE1IS;
 *   full_all   EL2 (its regime has no ASIDs without HCR_EL2.E2H): the pages
 *              stay global and the full flush is TLBI ALLE2IS (tlbi_flush_all,
 *              VMALLE1IS's EL2 form), which drops the firmware's and our own
 *              code's entries too: a refill pays for those as well.
 * A sample: every page of the test region back to pool A and invalidated;
 * the BSP and every other CPU read all REGION_PAGES pages (their TLBs hold
 * the working set: the region stands for the process's memory); the BSP
 * rewrites the first p PTEs to pool B (DSB ISHST, not timed); the timed
 * flush; then the refill: the BSP reads all REGION_PAGES pages again, a DSB
 * NSH (its loads complete) before the counter. A full flush refills every
 * page, per page only the p remapped ones. Two points per (p, mode) from
 * the same samples: variant `flush` (the flush alone, x86 shootdown's
 * `latency`) and variant `with_refill` (the flush and the initiator's
 * refill of its working set, on its own counter). Then the verifier: every
 * CPU reads every remapped page and must see pool B.
 * The two modes of one p alternate which goes first per sample (neither
 * always meets the state the other left).
 *
 * Grid: p = 1, 2, 4 .. REGION_PAGES (method.test_pages, 512: the region has
 * no more). Summary, per variant: the crossover p* (core/run/crossover.h: the
 * smallest p from which the full flush's median stays below the per-page
 * one's; absent when it never does) and Linux's ceiling for this CPU. No
 * interval for p* yet: the points keep no per-sample pairs here.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/barrier.h"
#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "asm/tlbi.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/tlbi_flush.h"
#include "core/lib/mem.h"
#include "core/run/crossover.h"

#define MAX_SAMPLES 32
#define MAX_COUNTS 10 /* 1, 2, 4 .. 512 */
/* Linux's limits (arch/arm64/include/asm/tlbflush.h), 4 KiB pages */
#define LINUX_MAX_DVM_OPS 512u
#define LINUX_MAX_TLBI_RANGE_PAGES (1u << 21)

enum mode { SINGLE, FULL, MODES };
enum variant { FLUSH, WITH_REFILL, VARIANTS };

static const char *const variant_name[VARIANTS] = { "flush", "with_refill" };

struct fc_setup {
    bool range;        /* FEAT_TLBIRANGE: the single-page path is RVAE1IS */
    int asid;          /* EL1: the ASID full_asid flushes; -1 at EL2 (full_all) */
    const char *name[MODES];
    uint32_t linux_ceiling; /* the smallest p Linux flushes with flush_tlb_mm */
};

/* the BSP reads every page of the region through its TLB; the loads complete before it returns */
static void refill(void)
{
    uint64_t sink = 0;
    unsigned i;
    for (i = 0; i < REGION_PAGES; i++)
        sink += test_read((const volatile uint64_t *)region_page_va(i));
    dsb_nsh();
    __asm__ volatile("" ::"r"(sink));
}

/* One sample of `m` at n pages: flush ticks and flush + refill ticks; false when a CPU was lost. */
static bool sample(struct arm64_run *run, struct a64_exp *e, const struct fc_setup *s, enum mode m, unsigned n,
                   uint64_t *flush, uint64_t *with_refill)
{
    unsigned others[MAX_CPUS], k = a64_others(others);
    uint64_t t0, t1, t2;
    bool ok;
    rgn.ng = m == FULL && s->asid >= 0 ? PTE_NG : 0;
    region_reset();
    ok = region_warm(run, others, k, 0, REGION_PAGES);
    region_remap(0, n, 1);
    t0 = ticks();
    if (m == SINGLE && s->range)
        tlbi_flush_range(rgn.va, n);
    else if (m == SINGLE)
        tlbi_flush_broadcast(rgn.va, n);
    else if (s->asid >= 0)
        tlbi_flush_asid((uint16_t)s->asid);
    else
        tlbi_flush_all();
    t1 = ticks();
    refill();
    t2 = ticks();
    region_verify(run, e, 0, n, 1);
    *flush = t1 - t0 ? t1 - t0 : 1;
    *with_refill = t2 - t0 ? t2 - t0 : 1;
    return ok;
}

static struct a64_point *summary_add(struct a64_exp *e)
{
    struct a64_point *p;
    if (e->nsummary >= A64_MAX_SUMMARY)
        return 0;
    p = &e->summary[e->nsummary++];
    mem_zero(p, sizeof(*p));
    return p;
}

/* per variant: p* of the full flush against the single-page path, and Linux's ceiling */
static void summarise(struct a64_exp *e, const struct fc_setup *s, struct curve_point pts[VARIANTS][MAX_COUNTS],
                      unsigned n)
{
    unsigned v;
    for (v = 0; v < VARIANTS; v++) {
        struct crossover c;
        struct a64_point *p = summary_add(e);
        crossover_find(pts[v], n, 0, 0, 0, &c);
        if (!p)
            return;
        a64_param_str(p, "mode", s->name[SINGLE]);
        a64_param_str(p, "full", s->name[FULL]);
        a64_param_str(p, "variant", variant_name[v]);
        if (c.found && n >= 3)
            a64_value(p, "p_star", (int64_t)c.p_star * 1000);
        a64_value(p, "linux_ceiling", (int64_t)s->linux_ceiling * 1000);
        if (v != WITH_REFILL)
            continue;
        if (c.found && n >= 3)
            a64_note(e, "with_refill: the full flush cheaper from %u pages on%s; Linux's flush_tlb_mm from %u (%s)",
                     c.p_star, c.monotonic ? "" : " (the curves cross more than once)", s->linux_ceiling,
                     s->range ? "above MAX_TLBI_RANGE_PAGES" : "MAX_DVM_OPS, no range TLBI");
        else
            a64_note(e, "with_refill: the full flush never cheaper up to %u pages; Linux's flush_tlb_mm from %u (%s)",
                     (unsigned)REGION_PAGES, s->linux_ceiling,
                     s->range ? "above MAX_TLBI_RANGE_PAGES" : "MAX_DVM_OPS, no range TLBI");
    }
}

void exp_flush_ceiling(struct arm64_run *run)
{
    static uint64_t samples[MODES][VARIANTS][MAX_SAMPLES];
    static struct curve_point pts[VARIANTS][MAX_COUNTS];
    uint64_t t0 = ticks();
    struct a64_exp *e = a64_exp_begin(run, "flush_ceiling",
                                      "Flush ceiling: p per-page TLBIs vs one full flush, each with the refill after",
                                      "pages", "mode", true);
    struct fc_setup s = { .range = run->cpu.tlbi_range, .asid = pt_current_asid() };
    unsigned nsamples = run->samples < MAX_SAMPLES ? run->samples : MAX_SAMPLES, npts = 0, n, i, m, v;
    s.name[SINGLE] = s.range ? "range" : "per_page";
    s.name[FULL] = s.asid >= 0 ? "full_asid" : "full_all";
    s.linux_ceiling = s.range ? LINUX_MAX_TLBI_RANGE_PAGES + 1 : LINUX_MAX_DVM_OPS;
    if (!run->region_ok)
        a64_exp_set(e, RESULT_ERROR, "no test region (see run.errors)");
    for (n = 1; run->region_ok && n <= REGION_PAGES && npts < MAX_COUNTS; n *= 2) {
        for (i = 0; i < nsamples; i++)
            for (m = 0; m < MODES; m++) {
                enum mode which = (enum mode)((m + i) % MODES); /* alternate which goes first */
                if (!sample(run, e, &s, which, n, &samples[which][FLUSH][i], &samples[which][WITH_REFILL][i]))
                    e->partial = true;
            }
        for (m = 0; m < MODES; m++)
            for (v = 0; v < VARIANTS; v++) {
                struct a64_point *p = a64_point_add(e);
                if (!p)
                    break;
                a64_param_str(p, "mode", s.name[m]);
                a64_param(p, "pages", n);
                a64_param_str(p, "variant", variant_name[v]);
                a64_latency(p, samples[m][v], nsamples);
                /* the curves the summary crosses: a the single-page path, b the full flush */
                pts[v][npts].p = n;
                if (m == SINGLE)
                    pts[v][npts].a25 = pts[v][npts].a50 = pts[v][npts].a75 = p->latency.p50;
                else
                    pts[v][npts].b25 = pts[v][npts].b50 = pts[v][npts].b75 = p->latency.p50;
            }
        npts++;
    }
    rgn.ng = 0;
    region_reset();
    a64_note(e, "%u samples per point; %s: TLBI %s + DSB ISH + ISB; each verified by every CPU", nsamples,
             s.name[SINGLE], s.range ? "RVAE1IS ranges (FEAT_TLBIRANGE)" : "VAE1IS per page");
    if (s.asid >= 0)
        a64_note(e, "full_asid: the test pages non-global under ASID %d, one TLBI ASIDE1IS + DSB ISH + ISB (Linux's "
                    "flush_tlb_mm)", s.asid);
    else
        a64_note(e, "full_all: at EL2 (no ASIDs) the test pages stay global, one TLBI ALLE2IS + DSB ISH + ISB (drops "
                    "every EL2 entry)");
    a64_note(e, "with_refill: then the initiator reads all %u region pages (its working set); flush: the flush alone",
             (unsigned)REGION_PAGES);
    if (run->region_ok)
        summarise(e, &s, pts, npts);
    a64_exp_end(run, e, t0);
}
