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
 * A sample: every page of the test region back to pool A and invalidated
 * (nG as the mode needs: region_set_ng, the flip itself by invalid + TLBI +
 * DSB); the BSP and every other CPU read all REGION_PAGES pages (their TLBs
 * hold the working set: the region stands for the process's memory); then
 * break-before-make of the first p PTEs (a64_exp.h region_remap, Linux's
 * ptep_clear_flush() and set_pte_at()): invalid and DSB ISHST (not timed:
 * ptep_get_and_clear() and the barrier Linux's flush opens with), the timed
 * flush (its TLBIs, DSB ISH and ISB), then the PTEs to pool B, DSB ISHST,
 * ISB (set_pte_at(), not timed); then the refill: the BSP reads all
 * REGION_PAGES pages again, a DSB NSH (its loads complete) before the
 * counter. A full flush refills every page, per page only the p remapped
 * ones. A point's metrics, from the same samples, with x86's names:
 * `latency` the flush alone (x86 shootdown points' `latency`),
 * `initiator_refill` the initiator's refill of its working set, and
 * `with_refill` the sum of the two (the curve the crossover is found on;
 * the store of the p new PTEs between them is the same in both modes and
 * in neither window). Then the verifier: every CPU reads
 * every remapped page and must see pool B.
 * Where one flush spans fewer ticks than the counter resolves well (a64_reps.h:
 * real Arm servers tick at 10-40 ns), `latency` times R of them back to back
 * in the window, the PTEs invalid throughout, its sample the total over R
 * (values.reps_per_sample, values.mean_per_op): the first drops the entries,
 * the others find them gone, as a repeated flush of the same pages does. The
 * refill is single-shot: once after the R flushes, which leave the TLB as one
 * does (a second refill would find the entries back and time hits); it reads
 * the whole working set, hundreds of loads. `with_refill` is the sample's
 * flush (the total over R) plus that refill.
 * The two modes of one p are measured in the same iterations, alternating
 * which goes first (neither always meets the state the other left): their
 * `with_refill` samples are pairs (core/run/record.h, kept samples).
 *
 * Grid: p = 1, 2, 4 .. REGION_PAGES (method.test_pages, 512: the region has
 * no more). Summary: the crossover p* of `with_refill` (core/run/crossover.h:
 * the smallest p from which the full flush's median stays below the
 * single-page path's; absent when it never does) with its 95% paired-
 * bootstrap interval and confidence as on x86, p* of the flush alone
 * (`p_star_flush`, no interval), and Linux's ceiling for this CPU.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/barrier.h"
#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "asm/tlbi.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"
#include "core/exp/arm64/a64_reps.h"
#include "core/exp/arm64/tlbi_flush.h"
#include "core/run/bootstrap.h"
#include "core/run/crossover.h"
#include "core/mutant.h"

#define MAX_COUNTS 10 /* 1, 2, 4 .. 512 */
/* Linux's limits (arch/arm64/include/asm/tlbflush.h), 4 KiB pages */
#define LINUX_MAX_DVM_OPS 512u
#define LINUX_MAX_TLBI_RANGE_PAGES (1u << 21)

enum mode { SINGLE, FULL, MODES };

struct fc_setup {
    bool range;        /* FEAT_TLBIRANGE: the single-page path is RVAE1IS */
    int asid;          /* EL1: the ASID full_asid flushes; -1 at EL2 (full_all) */
    const char *name[MODES];
    uint32_t linux_ceiling; /* the smallest p Linux flushes with flush_tlb_mm */
};

/* one mode's samples at one page count, in iteration order (the pace's room: a64_pace.h) */
struct fc_samples {
    uint64_t *flush, *refill, *both;
};

/* the curves the summary crosses (a the single-page path, b the full flush) */
struct fc_curves {
    struct curve_point with_refill[MAX_COUNTS], flush[MAX_COUNTS];
    uint32_t n;
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

/* one flush of mode m at n pages (an a64_reps_op's operation: a sample times R of them) */
struct fc_flush {
    const struct fc_setup *s;
    enum mode m;
    unsigned n;
};

static void flush_once(void *ctx)
{
    const struct fc_flush *f = ctx;
    if (f->m == SINGLE && f->s->range)
        tlbi_flush_range(rgn.va, f->n);
    else if (f->m == SINGLE)
        tlbi_flush_broadcast(rgn.va, f->n);
    else if (f->s->asid >= 0)
        tlbi_flush_asid((uint16_t)f->s->asid);
    else
        tlbi_flush_all();
}

/* Sample i of `m` at n pages into *out, its flush R = acc->reps times in the window (the
 * sample their total over R, a64_reps.h); false when a CPU was lost. */
static bool sample(struct arm64_run *run, struct experiment_record *e, const struct fc_setup *s, enum mode m,
                   unsigned n, struct a64_reps *acc, struct fc_samples *out, unsigned i)
{
    unsigned others[MAX_CPUS], k = a64_others(others);
    struct fc_flush f = { s, m, n };
    /* the mutant times one flush whatever R is, and still divides by R */
    struct a64_reps_op op = { flush_once, &f, MUTANT(fc_reps_one_timed) ? 1 : acc->reps };
    uint64_t flush, t1, t2;
    bool ok;
    region_set_ng(m == FULL && s->asid >= 0); /* every page back to pool A, nG as the mode needs */
    ok = region_warm(run, others, k, 0, REGION_PAGES);
    flush = a64_reps_sample(acc, region_remap(0, n, 1, a64_reps_window, &op));
    t1 = ticks();
    refill();
    t2 = ticks();
    region_verify(run, e, 0, n, 1);
    out->flush[i] = flush;
    out->refill[i] = t2 - t1 ? t2 - t1 : 1;
    /* one flush (the total over R) and the refill; the new PTEs' store between the two is neither's */
    out->both[i] = flush + out->refill[i];
    return ok;
}

static void metric(struct result_point *p, const char *name, uint64_t *samples, unsigned n)
{
    struct stats st;
    stats_from_array(samples, n, &st);
    point_metric(p, name, &st);
}

/* The two points of page count n (kept with_refill samples paired, each its R); their medians
 * onto the curves. */
static void add_points(struct experiment_record *e, const struct fc_setup *s, struct fc_samples smp[MODES],
                       const struct a64_reps reps[MODES], unsigned n, unsigned nsamples, struct fc_curves *c)
{
    uint32_t run = record_paired_run(e), m, at = c->n;
    unsigned others[MAX_CPUS];
    for (m = 0; m < MODES; m++) {
        struct result_point *p = a64_point_add(e);
        const struct stats *both, *flush;
        if (!p)
            return;
        /* iteration order, before the sorts: the pairs of the crossover's interval */
        point_keep_samples(e, p, smp[m].both, nsamples, run);
        point_param_str(p, "mode", s->name[m]);
        point_param_num(p, "pages", n);
        /* the other CPUs the broadcast reaches (each holds the pages and verifies): x86's targets */
        point_param_num(p, "targets", a64_others(others));
        metric(p, "latency", smp[m].flush, nsamples);
        metric(p, "initiator_refill", smp[m].refill, nsamples);
        metric(p, "with_refill", smp[m].both, nsamples);
        a64_reps_record(p, &reps[m]);
        both = point_find_metric(p, "with_refill");
        flush = point_find_metric(p, "latency");
        if (m == SINGLE) {
            c->with_refill[at] = (struct curve_point){ .p = n, .a25 = both->p50, .a50 = both->p50,
                                                       .a75 = both->p50, .a_kept = p->kept, .nkept = p->nkept };
            c->flush[at] = (struct curve_point){ .p = n, .a25 = flush->p50, .a50 = flush->p50, .a75 = flush->p50 };
        } else {
            c->with_refill[at].b25 = c->with_refill[at].b50 = c->with_refill[at].b75 = both->p50;
            c->with_refill[at].b_kept = p->kept;
            c->flush[at].b25 = c->flush[at].b50 = c->flush[at].b75 = flush->p50;
        }
    }
    c->n++;
}

/* p* of with_refill with its interval and confidence, p* of the flush alone, Linux's ceiling */
static void summarise(struct arm64_run *run, struct experiment_record *e, const struct fc_setup *s,
                      struct fc_curves *c, unsigned nsamples)
{
    struct boot_work w = { 0 };
    struct crossover x, xf;
    struct result_point *p;
    bool enough = c->n >= 3, boot = boot_work_init(&w, nsamples);
    crossover_find(c->with_refill, c->n, boot ? &w : 0, run->order_seed, crossover_stream(0, REGION_PAGES, 0, 1),
                   &x);
    crossover_find(c->flush, c->n, 0, 0, 0, &xf);
    boot_work_release(&w);
    p = point_list_add(&e->summary);
    if (!p)
        return;
    point_param_str(p, "mode", s->name[SINGLE]);
    point_param_str(p, "full", s->name[FULL]);
    point_param_num(p, "working_set", REGION_PAGES);
    point_param_str(p, "confidence", confidence_name(enough ? x.conf : CONF_NONE));
    point_value(p, "pages_measured", (int64_t)c->n * 1000);
    if (enough && x.found)
        point_value(p, "p_star", (int64_t)x.p_star * 1000);
    /* its 95% interval; an end that is "no crossing" is left out, as on x86 */
    if (enough && x.has_interval && x.p_low != BOOT_NONE)
        point_value(p, "p_star_low", x.p_low * 1000);
    if (enough && x.has_interval && x.p_high != BOOT_NONE)
        point_value(p, "p_star_high", x.p_high * 1000);
    if (enough)
        point_value(p, "monotonic", x.monotonic ? 1000 : 0);
    if (enough && xf.found)
        point_value(p, "p_star_flush", (int64_t)xf.p_star * 1000);
    point_value(p, "linux_ceiling", (int64_t)s->linux_ceiling * 1000);
    if (enough && x.found)
        record_note(e, "with_refill: the full flush cheaper from %u pages on (%s confidence); Linux's flush_tlb_mm from %u "
                    "pages (%s)", x.p_star, confidence_name(x.conf), s->linux_ceiling,
                 s->range ? "above MAX_TLBI_RANGE_PAGES" : "MAX_DVM_OPS, no range TLBI");
    else
        record_note(e, "with_refill: the full flush never cheaper up to %u pages; Linux's flush_tlb_mm from %u pages (%s)",
                 c->n ? c->with_refill[c->n - 1].p : 0, s->linux_ceiling,
                 s->range ? "above MAX_TLBI_RANGE_PAGES" : "MAX_DVM_OPS, no range TLBI");
}

void exp_flush_ceiling(struct arm64_run *run, struct experiment_record *e)
{
    static struct fc_samples smp[MODES];
    static struct fc_curves curves;
    struct fc_setup s = { .range = run->cpu.tlbi_range, .asid = pt_current_asid() };
    struct a64_pace pace;
    bool paced = false;
    unsigned n, i, m;
    s.name[SINGLE] = s.range ? "range" : "per_page";
    s.name[FULL] = s.asid >= 0 ? "full_asid" : "full_all";
    s.linux_ceiling = s.range ? LINUX_MAX_TLBI_RANGE_PAGES + 1 : LINUX_MAX_DVM_OPS;
    curves.n = 0;
    if (!run->region_ok)
        record_set_status(e, RESULT_ERROR, "no test region (see run.errors)");
    else if ((paced = a64_pace_begin(run, e, &pace, MAX_COUNTS, 3 * MODES))) {
        for (m = 0; m < MODES; m++) { /* three metrics of two modes: six rows of the pace's room */
            smp[m].flush = pace.buf + (3 * m + 0) * (size_t)pace.configured;
            smp[m].refill = pace.buf + (3 * m + 1) * (size_t)pace.configured;
            smp[m].both = pace.buf + (3 * m + 2) * (size_t)pace.configured;
        }
        if (!record_reserve_kept(e, MAX_COUNTS * MODES, pace.configured))
            record_note(e, "no memory for the points' kept samples: p* has no interval");
    }
    /* a page count is one paced point: its two modes measured in the same iterations */
    for (n = 1; paced && n <= REGION_PAGES && curves.n < MAX_COUNTS; n *= 2) {
        struct a64_reps reps[MODES];
        for (m = 0; m < MODES; m++) { /* each mode's R from a trial of its flush (a64_reps.h) */
            struct fc_flush f = { &s, (enum mode)m, n };
            struct a64_reps_op op = { flush_once, &f, 1 };
            reps[m] = (struct a64_reps){ a64_reps_choose(a64_reps_trial, &op), 0, 0 };
        }
        a64_pace_point(&pace);
        for (i = 0; a64_pace_more(&pace, i); i++)
            for (m = 0; m < MODES; m++) {
                enum mode which = (enum mode)((m + i) % MODES); /* alternate which goes first */
                if (!sample(run, e, &s, which, n, &reps[which], &smp[which], i))
                    e->partial = true;
            }
        a64_pace_point_done(&pace, i, true);
        add_points(e, &s, smp, reps, n, i, &curves);
    }
    region_set_ng(false);
    record_note(e, "%s: TLBI %s + DSB ISH + ISB; each sample verified by every CPU", s.name[SINGLE], s.range ? "RVAE1IS ranges (FEAT_TLBIRANGE)" : "VAE1IS per page");
    if (s.asid >= 0)
        record_note(e, "full_asid: the test pages non-global under ASID %d, one TLBI ASIDE1IS + DSB ISH + ISB (Linux's "
                    "flush_tlb_mm)", s.asid);
    else
        record_note(e, "full_all: at EL2 (no ASIDs) the test pages stay global, one TLBI ALLE2IS + DSB ISH + ISB (drops "
                    "every EL2 entry)");
    record_note(e, "initiator_refill: the initiator then reads all %u region pages (its working set); with_refill: both",
             (unsigned)REGION_PAGES);
    record_note(e, "latency: R (up to %u, values.reps_per_sample, each mode and page count its own) flushes back to "
                "back per sample where one spans under %u ticks (a tick: %llu ps), the PTEs invalid throughout, "
                "latency their total over R; values.mean_per_op to a thousandth of a tick; initiator_refill "
                "single-shot, once after them (a second would find the entries back and time hits); with_refill the two",
                A64_REPS_MAX, A64_REPS_MIN_TICKS,
                (unsigned long long)(run->counter_hz ? 1000000000000ull / run->counter_hz : 0));
    if (paced) {
        summarise(run, e, &s, &curves, pace.max);
        a64_pace_end(run, e, &pace);
    }
}
