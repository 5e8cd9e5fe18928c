/*
 * flush_ceiling: from how many pages one full flush is cheaper than
 * flushing page by page (Linux tlb_single_page_flush_ceiling, 33 since
 * 2014, chosen by Dave Hansen from this comparison on one Intel machine).
 *
 * Method. A flush is paid twice: the invalidation itself, and the TLB
 * misses afterwards to refill what it threw away. So every sample remaps
 * p test pages (testmem_flip) and then times
 *   invlpg        p x INVLPG (the single-page path, whatever p is)
 *   full_cr3      one full flush as Linux does it without INVPCID: a CR3
 *                 write of the current PCID (flush_tlb_local())
 *   full_invpcid  INVPCID single-context, where CPUID and the probe say
 *                 INVPCID works (its own variant)
 * and the refill: reading one word of each of W working-set pages
 * (testmem.h: their own VAs, non-global like user mappings, so a full
 * flush drops them and INVLPG of the test pages does not). Each iteration
 * takes one sample of every mode, in an order drawn per iteration from the
 * run's order seed (exp_variant_order(): no mode always first, so drift
 * and the state one mode leaves favour none), so each sees the same
 * machine and the samples of an iteration are pairs; the points keep those
 * of their curve's metric (core/run/record.h: `latency` on local points,
 * `with_refill` on shootdown points) and say in `ran_first` how many
 * iterations they began. Three kinds:
 *   local      the initiator alone (targets 0), on its TSC: `latency` =
 *              flush + refill;
 *   shootdown  to k = 1 target (the nearest in topology order) and to all
 *              other CPUs, concurrent order (Linux >= 5.13). Each target
 *              flushes, acknowledges, then refills its W pages, as in Linux,
 *              where the handler acknowledges and the process refills
 *              later: `latency` is the initiator's, PTE change to the last
 *              acknowledgement (what a Linux initiator waits for);
 *              `target_refill` the slowest target's refill, timed on that
 *              target's own TSC and read after the window (two CPUs' clocks
 *              are never subtracted); `with_refill` = latency + target_refill
 *              per sample (durations added), the shootdown's whole cost,
 *              on which its crossover is found.
 * Working sets W: 64 and 512 pages, and the second-level TLB's size for
 * 4 KiB pages from CPUID (cpu.l2_tlb: leaf 2 / 0x18 on Intel, 8000_0006
 * on AMD; at most TEST_WS_PAGES), each contiguous, and W = 512 (the
 * working set the recommendation reads, recommend.h) also scattered and
 * cold (`working_set_form`):
 *   contiguous      consecutive VAs on consecutive frames of a 1 MiB pool,
 *                   page tables and data left in the caches: walks hit
 *                   cached page tables, and Zen's PTE coalescing may merge
 *                   entries: the lower bound of the refill cost, which
 *                   pushes p* down;
 *   scattered_cold  every page on its own frame, scattered over 16 MiB (no
 *                   two adjacent), and the page tables cold: before each
 *                   sample the initiator flushes the lines of the working
 *                   set's page-table entries (every level) out of every
 *                   CPU's caches with CLFLUSH (testmem_ws_chill()): the page
 *                   tables are shared, so one CPU's flush makes every
 *                   refill's walks go to memory, while the pages' data stay
 *                   cached (the refill pays cold walks, not data misses).
 *                   Not by reading a buffer larger than the last-level
 *                   cache: every refilling CPU would have to (private
 *                   caches), some 50 MiB per CPU per sample, which is 80
 *                   times the experiment's time under QEMU and more than
 *                   its share of run_budget_s on a large machine. The other
 *                   bound. Without memory for it the form is not measured
 *                   (a note says so).
 * Page counts p: 1..512, dense around 16-64 where Linux's 33 sits. Each
 * point records latency and its p25/p75 (values p25, p75; on shootdown
 * points also with_refill_p25, with_refill_p75); the summary gives, per
 * kind, targets, working set, form and full mode, the crossover p*
 * (core/run/crossover.h: the smallest p from which the full flush's median
 * stays below INVLPG's; on `latency` for local, `with_refill` for
 * shootdowns) with its 95% paired-bootstrap interval (values p_star_low,
 * p_star_high: the iterations of every page count resampled, p* found
 * again in each replicate), the p25-p75 noise band around it and a
 * confidence that follows from the interval. The recommendation
 * (core/run/recommend.c) weighs the local and the shootdown curves of the
 * contiguous form, with the same intervals, and names the cold form's
 * local p*.
 *
 * Samples: a twentieth of the profile's (10 to 50), warm-up a twentieth of
 * its warm-up: 22 page counts x 4 (working set, form) x 3 kinds x 2-3
 * modes is the largest grid of the run (on hardware seconds; the p25-p75
 * band needs no more). Planned (run_budget_s, core/run/plan.h): the samples are at
 * or below the floor already, so a plan that must shrink keeps every kind,
 * form and working set and measures every 2nd, 4th... page count (1 and
 * 512 always), but every count from two thirds to one and a half times the
 * configured ceiling (24 to 48 at 33: where p* lies, so its resolution is
 * never what a stride leaves), a range that narrows to 32, 33, 34 before a
 * single page count is all that fits; the pilot times a shootdown to every other
 * CPU at the fewest and at the most pages with the largest working set,
 * contiguous, and at the most pages scattered and cold, and every point is
 * costed as that (local points cost less: an upper bound). The quick
 * profile measures p = 1, 16, 32, 33, 34, 64, 512 and W = 64, 512 only,
 * whatever the CPU, so its points are the same on every machine
 * (tests/qemu/shape.jq).
 *
 * Verification: before a point the initiator and the targets read the p
 * pages; after every sample the initiator (and, after its refill, each
 * target) reads them again: an old signature is FAILURE. Needs non-global
 * test pages (global_pages=on is SKIP: a "full flush" of kernel mappings
 * is a different instruction).
 */
#include "asm/cpu.h"
#include "asm/features.h"
#include "core/lib/atomic.h"
#include "core/run/bootstrap.h"
#include "core/run/crossover.h"
#include "core/exp/common.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

static const uint32_t pages_default[] = { 1,  2,  4,  8,  12, 16, 20, 24,  28,  30,  32,
                                          33, 34, 36, 40, 48, 64, 96, 128, 256, 384, 512 };
static const uint32_t pages_quick[] = { 1, 16, 32, 33, 34, 64, 512 };
#define MAX_P (sizeof(pages_default) / sizeof(pages_default[0]))
#define MAX_W 3
#define MAX_KINDS 3
#define NMODES 3
#define NFORMS 2

static const char *const mode_names[NMODES] = { "invlpg", "full_cr3", "full_invpcid" };
/* indexed by enum ws_form: the scattered form is measured cold */
static const char *const form_names[NFORMS] = { "contiguous", "scattered_cold" };
/* the cold form's one working set: RECOMMEND_TYPICAL_WS, the one the recommendation reads */
#define COLD_WS 512u

struct fc_state {
    struct shootdown sd;
    struct target_set ts;
    uint32_t *order, norder;
    const uint32_t *pages;
    uint32_t npages;
    uint32_t ws[MAX_W], nws;
    struct fc_set {
        enum ws_form form;
        uint32_t w;
    } sets[MAX_W + 1]; /* every working set contiguous, then COLD_WS scattered and cold */
    uint32_t nsets;
    uint32_t kinds[MAX_KINDS], nkinds; /* target counts; 0 = local */
    uint32_t nmodes;                   /* 2, or 3 with INVPCID */
    uint32_t samples, warmup;
    uint64_t *lat[NMODES], *refill[NMODES], *with[NMODES];
    uint32_t first[NMODES];                      /* iterations each mode ran first */
    struct boot_work boot;                       /* p*'s interval (core/run/bootstrap.h) */
    const struct runner *r;                      /* the order seed */
    struct curve_point curve[NMODES - 1][MAX_P]; /* per full mode, against invlpg */
    struct plan plan;                            /* which page counts run_budget_s leaves */
};

static uint32_t flush_ceiling_samples(uint32_t samples)
{
    uint32_t s = samples / 20;
    return s < 10 ? 10 : s > 50 ? 50 : s;
}

static bool fc_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    *emulated = false;
    if (!runner_need_test_region(r, reason, cap) || !runner_need_user_mappings(r, reason, cap))
        return false;
    if (!r->mem->has_ws) {
        fmt_into(reason, cap, "no memory for the %u working-set pages", TEST_WS_PAGES);
        return false;
    }
    return true;
}

static void add_ws(struct fc_state *st, uint32_t w)
{
    uint32_t i;
    if (w > TEST_WS_PAGES)
        w = TEST_WS_PAGES;
    for (i = 0; i < st->nws; i++)
        if (st->ws[i] == w)
            return;
    for (i = st->nws; i > 0 && st->ws[i - 1] > w; i--)
        st->ws[i] = st->ws[i - 1];
    st->ws[i] = w;
    st->nws++;
}

static bool fc_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct fc_state *st = mem_zalloc(sizeof(*st));
    const struct l2_tlb_info *l2 = &r->run->cpu.l2_tlb;
    bool quick = r->run->cfg.profile == PROFILE_QUICK;
    uint32_t m, others, rows;
    if (!st)
        return false;
    *state = st;
    st->r = r;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    st->sd.ceiling = TEST_PAGES; /* the invlpg mode flushes page by page whatever p is */
    st->order = mem_alloc(r->smp->count * sizeof(uint32_t));
    if (!st->order)
        return false;
    st->norder = runner_targets_in_topology_order(r, 0, st->order, r->smp->count);
    st->pages = quick ? pages_quick : pages_default;
    st->npages = quick ? (uint32_t)(sizeof(pages_quick) / sizeof(pages_quick[0])) : MAX_P;
    add_ws(st, 64);
    add_ws(st, 512);
    if (!quick && l2->entries_4k)
        add_ws(st, l2->entries_4k);
    if (l2->entries_4k)
        record_note(rec, "second-level TLB: %u entries for 4 KiB pages (%s)%s", l2->entries_4k,
                    l2->source,
                    quick ? "; the quick profile measures working sets 64 and 512 only"
                    : l2->entries_4k > TEST_WS_PAGES ? "; its working set is capped" : "");
    else
        record_note(rec, "second-level TLB size not reported by CPUID (%s): working sets 64 and "
                         "512 only",
                    r->run->cpu.vendor);
    st->kinds[st->nkinds++] = 0;
    others = st->norder;
    if (others >= 1)
        st->kinds[st->nkinds++] = 1;
    if (others > 1)
        st->kinds[st->nkinds++] = others;
    for (m = 0; m < st->nws; m++)
        st->sets[st->nsets++] = (struct fc_set){ WS_CONTIGUOUS, st->ws[m] };
    if (r->mem->has_ws_scattered)
        st->sets[st->nsets++] = (struct fc_set){ WS_SCATTERED, COLD_WS };
    else
        record_note(rec, "no memory for the scattered working set (%u frames): the "
                         "scattered_cold form is not measured",
                    TEST_WS_POOL_FRAMES);
    /* natively only: an emulated INVPCID (emulate=invpcid) would time the emulator */
    st->nmodes = r->run->method.invpcid_probe_ok ? 3 : 2;
    if (st->nmodes == 2)
        record_note(rec, "no INVPCID (CPUID.(07H,0):EBX[10] = %u, EBX = 0x%08x%s): the "
                         "full_invpcid mode is not measured",
                    arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID) ? 1u : 0u,
                    r->run->cpu.evidence.leaf7_ebx,
                    arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID)
                        ? ", but it is not usable (probe or --no-invpcid)"
                        : "");
    st->samples = flush_ceiling_samples(runner_samples(r));
    st->warmup = runner_warmup(r) / 20;
    for (m = 0; m < st->nmodes; m++) {
        st->lat[m] = mem_alloc(st->samples * sizeof(uint64_t));
        st->refill[m] = mem_alloc(st->samples * sizeof(uint64_t));
        st->with[m] = mem_alloc(st->samples * sizeof(uint64_t));
        if (!st->lat[m] || !st->refill[m] || !st->with[m])
            return false;
    }
    rows = st->nkinds * st->nsets;
    /* the summaries' bootstrap runs in the measurement window: its workspace is taken here */
    return point_list_reserve(&rec->results, rows * st->npages * st->nmodes) &&
           point_list_reserve(&rec->summary, rows * (st->nmodes - 1)) &&
           record_reserve_kept(rec, rows * st->npages * st->nmodes, st->samples) &&
           boot_work_init(&st->boot, st->samples);
}

/* Which curve a point is on: kind (targets, 0 local), working-set form, working set. */
struct fc_where {
    uint32_t k;
    enum ws_form form;
    uint32_t w;
};

/*
 * One sample of one mode: flush p pages (or everything), refill W, verify.
 * *t: the initiator's latency; *refill: the slowest target's refill (0 for
 * local). False: a CPU was lost.
 */
static bool sample(struct fc_state *st, uint32_t mode, uint32_t p, const struct fc_where *at,
                   uint64_t *t, uint64_t *refill)
{
    struct shootdown *sd = &st->sd;
    uint32_t flags = mode ? FLUSH_ALL : 0;
    uint64_t t0;
    sd->full_uses_invpcid = mode == 2;
    if (MUTANT(remap_after_flush) && mode && st->ts.n == 0)
        sd->mutant_late_remap = p; /* shootdown_flush remaps after the local full flush */
    else
        testmem_flip(sd->tm, 0, p);
    *refill = 0;
    if (st->ts.n == 0)
        this_percpu()->touch_sink += testmem_touch_ws_form(sd->tm, at->form, at->w);
    /* the scattered form's page tables out of every CPU's caches (they are shared) */
    testmem_ws_chill(sd->tm, at->form, at->w);
    if (st->ts.n == 0) {
        t0 = tsc_now();
        if (!shootdown_flush(sd, NULL, 0, ORDER_CONCURRENT, 0, p, flags))
            return false;
        this_percpu()->touch_sink += testmem_touch_ws_form(sd->tm, at->form, at->w);
        *t = tsc_now() - t0;
        shootdown_verify_self(sd, this_percpu(), 0, p, false);
        *t = *t ? *t : 1;
        return true;
    }
    /* the targets refill after acknowledging, then touch the working set again at verification */
    *t = shootdown_flush(sd, st->ts.cpus, st->ts.n, ORDER_CONCURRENT, 0, p, flags | FLUSH_VERIFY);
    if (!*t || !shootdown_wait_verified(sd))
        return false;
    *refill = sd->max_refill_ticks;
    return true;
}

static bool run_point(struct runner *r, struct fc_state *st, uint32_t p, const struct fc_where *at)
{
    uint64_t salt = (uint64_t)st->ts.n << 40 | (uint64_t)at->form << 36 | (uint64_t)at->w << 20 | p;
    uint32_t i, j, m, ord[NMODES];
    for (m = 0; m < NMODES; m++)
        st->first[m] = 0;
    for (i = 0; i < st->warmup + st->samples; i++) {
        if (load_acquire(&r->smp->aborting))
            return false;
        exp_variant_order(r, salt, i, st->nmodes, ord);
        if (i >= st->warmup)
            st->first[ord[0]]++;
        for (j = 0; j < st->nmodes; j++) {
            uint64_t t, refill;
            m = ord[j];
            if (!sample(st, m, p, at, &t, &refill))
                return false;
            if (i >= st->warmup) {
                st->lat[m][i - st->warmup] = t;
                st->refill[m][i - st->warmup] = refill;
                st->with[m][i - st->warmup] = t + refill;
            }
        }
    }
    return true;
}

/* The shootdown side of a point: the targets refill the working set of the point's form. */
static void targets_refill(struct fc_state *st, const struct fc_where *at)
{
    st->sd.touch_pages = at->k ? at->w : 0;
    st->sd.touch_form = at->form;
}

/* p25, p50, p75 of one sample array (sorted in place), into a curve's side */
static void quartiles(uint64_t *v, uint32_t n, struct stats *s, uint64_t *p25, uint64_t *p75)
{
    stats_from_array(v, n, s); /* sorts */
    *p25 = percentile_sorted(v, n, 250);
    *p75 = percentile_sorted(v, n, 750);
}

static void add_points(struct fc_state *st, struct experiment_record *rec,
                       const struct fc_where *at, uint32_t pi)
{
    uint32_t m, run = record_paired_run(rec);
    for (m = 0; m < st->nmodes; m++) {
        struct result_point *pt;
        struct stats lat, refill, with;
        uint64_t p25, p75, w25 = 0, w75 = 0;
        uint32_t index = rec->results.count;
        struct curve_point *c;
        pt = point_list_add(&rec->results);
        /* the curve's samples in iteration order, before the sorts: pairs with the other modes' */
        point_keep_samples(rec, pt, at->k ? st->with[m] : st->lat[m], st->samples, run);
        quartiles(st->lat[m], st->samples, &lat, &p25, &p75);
        if (at->k)
            quartiles(st->with[m], st->samples, &with, &w25, &w75);
        stats_from_array(st->refill[m], st->samples, &refill);
        if (!pt)
            return;
        point_param_str(pt, "kind", at->k ? "shootdown" : "local");
        point_param_num(pt, "targets", at->k);
        point_param_num(pt, "working_set", at->w);
        point_param_str(pt, "working_set_form", form_names[at->form]);
        point_param_num(pt, "pages", st->pages[pi]);
        point_param_str(pt, "mode", mode_names[m]);
        point_metric(pt, "latency", &lat);
        point_value(pt, "p25", (int64_t)p25 * 1000);
        point_value(pt, "p75", (int64_t)p75 * 1000);
        if (at->k) {
            point_metric(pt, "target_refill", &refill);
            point_metric(pt, "with_refill", &with);
            point_value(pt, "with_refill_p25", (int64_t)w25 * 1000);
            point_value(pt, "with_refill_p75", (int64_t)w75 * 1000);
            lat.p50 = with.p50; /* a shootdown's curve is its whole cost */
            p25 = w25;
            p75 = w75;
        }
        exp_value_ran_first(pt, st->first[m]);
        if (m == 0) {
            uint32_t f;
            for (f = 0; f + 1 < st->nmodes; f++) {
                c = &st->curve[f][pi];
                c->p = st->pages[pi];
                c->a25 = p25;
                c->a50 = lat.p50;
                c->a75 = p75;
                c->a_index = index;
                c->a_kept = pt->kept;
                c->nkept = pt->nkept;
            }
        } else {
            c = &st->curve[m - 1][pi];
            c->b25 = p25;
            c->b50 = lat.p50;
            c->b75 = p75;
            c->b_index = index;
            c->b_kept = pt->kept;
        }
    }
}

static void add_summary(struct fc_state *st, struct experiment_record *rec,
                        const struct fc_where *at, uint32_t measured)
{
    uint32_t f;
    for (f = 0; f + 1 < st->nmodes; f++) {
        struct crossover c;
        struct result_point *sum;
        crossover_find(st->curve[f], measured, &st->boot, st->r->run->method.order_seed,
                       crossover_stream(at->k, at->w, at->form, f + 1), &c);
        if (MUTANT(crossover_off_by_one) && c.found)
            c.p_star = c.p_before; /* test-only: the count before the crossing */
        sum = point_list_add(&rec->summary);
        if (!sum)
            return;
        point_param_str(sum, "kind", at->k ? "shootdown" : "local");
        point_param_num(sum, "targets", at->k);
        point_param_num(sum, "working_set", at->w);
        point_param_str(sum, "working_set_form", form_names[at->form]);
        point_param_str(sum, "full", mode_names[f + 1]);
        point_param_str(sum, "confidence", confidence_name(c.conf));
        if (c.found)
            point_value(sum, "p_star", (int64_t)c.p_star * 1000);
        /* its 95% interval; an end that is "no crossing" is left out (reports/SCHEMA.md) */
        if (c.has_interval && c.p_low != BOOT_NONE)
            point_value(sum, "p_star_low", c.p_low * 1000);
        if (c.has_interval && c.p_high != BOOT_NONE)
            point_value(sum, "p_star_high", c.p_high * 1000);
        if (c.overlap) {
            point_value(sum, "band_low", (int64_t)c.band_low * 1000);
            point_value(sum, "band_high", (int64_t)c.band_high * 1000);
        }
        point_value(sum, "monotonic", c.monotonic ? 1000 : 0);
    }
}

/*
 * The pilot's cost model: a shootdown to every other CPU, linear in the
 * pages; the cold form adds what its cold walks cost at the most pages.
 */
struct fc_pilot {
    const struct fc_state *st;
    uint64_t fewest, most, most_cold; /* ticks per iteration (every mode once) */
};

static uint64_t fc_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct fc_pilot *pl = ctx;
    uint32_t p0 = pl->st->pages[0], pn = pl->st->pages[pl->st->npages - 1];
    uint64_t c;
    if (pl->most <= pl->fewest || pn == p0)
        c = pl->most > pl->fewest ? pl->most : pl->fewest;
    else
        c = pl->fewest + (pl->most - pl->fewest) * (pl->st->pages[col] - p0) / (pn - p0);
    /* rows: kind major, then (working set, form) */
    if (pl->st->sets[row % pl->st->nsets].form == WS_SCATTERED && pl->most_cold > pl->most)
        c += pl->most_cold - pl->most;
    return c;
}

struct fc_pilot_point {
    struct fc_state *st;
    uint32_t pages;
    enum ws_form form;
};

static bool fc_body(struct runner *r, void *ctx)
{
    struct fc_pilot_point *pp = ctx;
    struct fc_state *st = pp->st;
    struct fc_where at = { st->ts.n, pp->form,
                           pp->form == WS_SCATTERED ? COLD_WS : st->ws[st->nws - 1] };
    uint32_t samples = st->samples, warmup = st->warmup;
    bool ok;
    /* runner_pilot_begin(): one sample, the rest warm-up; never recorded as a point */
    st->samples = runner_samples(r);
    st->warmup = runner_warmup(r);
    targets_refill(st, &at);
    ok = run_point(r, st, pp->pages, &at);
    st->samples = samples;
    st->warmup = warmup;
    st->sd.touch_pages = 0;
    return ok;
}

static bool fc_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct fc_pilot_point *pp = ctx;
    return exp_pilot_all_others(r, &pp->st->sd, &pp->st->ts, pp->pages, iterations, fc_body, pp,
                                ticks);
}

static bool fc_plan(struct runner *r, struct experiment_record *rec, struct fc_state *st)
{
    struct fc_pilot pilot = { st, 0, 0, 0 };
    struct plan_request q;
    uint64_t fixed[3] = { 0, 0, 0 };
    uint64_t *out[3] = { &pilot.fewest, &pilot.most, &pilot.most_cold };
    uint32_t i;
    mem_zero(&q, sizeof(q));
    for (i = 0; i < 2 + (st->sets[st->nsets - 1].form == WS_SCATTERED) && r->plan_share_ticks;
         i++) {
        struct fc_pilot_point pp = { st, st->pages[i ? st->npages - 1 : 0],
                                     i == 2 ? WS_SCATTERED : WS_CONTIGUOUS };
        if (!runner_pilot(r, fc_time, &pp, out[i], &fixed[i])) {
            rec->partial = true;
            return false;
        }
        q.point_ticks = fixed[i] > q.point_ticks ? fixed[i] : q.point_ticks;
    }
    q.samples = st->samples; /* a twentieth of the profile's: at or below the floor */
    q.warmup = st->warmup;
    q.nrows = st->nkinds * st->nsets;
    q.ncols = st->npages;
    q.thin_cols = true;
    /* the counts around the ceiling, where p* should lie, survive every stride */
    plan_dense_range(st->pages, st->npages, r->run->cfg.ceiling * 2 / 3,
                     r->run->cfg.ceiling * 3 / 2, &q.dense_lo, &q.dense_hi);
    q.iter_ticks = fc_cost;
    q.ctx = &pilot;
    if (!runner_plan(r, rec, &q, "kinds x working sets", "page counts", st->nmodes,
                     &st->plan))
        return false;
    st->samples = st->plan.samples ? st->plan.samples : st->samples;
    st->warmup = st->plan.samples ? st->plan.warmup : st->warmup;
    return true;
}

/* One (kind, form, working set): its page counts, then its crossover summary. */
static bool run_curve(struct runner *r, struct experiment_record *rec, struct fc_state *st,
                      const struct fc_where *at, uint32_t *done, uint32_t planned)
{
    uint32_t pi, i, measured = 0;
    for (pi = 0; pi < st->npages; pi++) {
        uint32_t p = st->pages[pi], n = 0;
        bool ok;
        if (!plan_col_kept(&st->plan, st->npages, pi))
            continue;
        if (!runner_budget_ok(r))
            return false;
        runner_progress(r, (*done)++, planned);
        for (i = 0; i < st->norder && n < at->k; i++)
            if (smp_usable(r->smp, st->order[i]))
                st->ts.cpus[n++] = st->order[i];
        if (n < at->k) {
            rec->partial = true;
            continue;
        }
        st->ts.n = n;
        if (!shootdown_sync_all(&st->sd)) {
            rec->partial = true;
            continue;
        }
        targets_refill(st, at);
        target_set_start(r, &st->ts);
        /* load the p pages into every TLB taking part (the flush must have work), and the
         * working set into the targets' (their verification touches it) */
        ok = shootdown_verify_cpus(&st->sd, st->ts.cpus, st->ts.n, 0, p, false) &&
             run_point(r, st, p, at);
        target_set_stop(r, &st->ts);
        st->sd.touch_pages = 0;
        if (!ok) {
            rec->partial = true;
            continue;
        }
        add_points(st, rec, at, pi);
        if (measured != pi) { /* keep the curve dense when a point was lost */
            uint32_t f;
            for (f = 0; f + 1 < st->nmodes; f++)
                st->curve[f][measured] = st->curve[f][pi];
        }
        measured++;
    }
    add_summary(st, rec, at, measured);
    return true;
}

static void fc_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct fc_state *st = state;
    uint32_t kk, si, done = 0;
    uint32_t planned = st->nkinds * st->nsets * st->npages;
    if (!fc_plan(r, rec, st))
        goto out;
    planned = st->nkinds * st->nsets *
              plan_kept_dense_count(st->npages, st->plan.col_stride, st->plan.dense_lo,
                                    st->plan.dense_hi);
    for (kk = 0; kk < st->nkinds; kk++)
        for (si = 0; si < st->nsets; si++) {
            struct fc_where at = { st->kinds[kk], st->sets[si].form, st->sets[si].w };
            if (!run_curve(r, rec, st, &at, &done, planned))
                goto out;
        }
out:
    st->sd.touch_pages = 0;
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, planned * st->nmodes, "points");
}

static void fc_cleanup(struct runner *r, void *state)
{
    struct fc_state *st = state;
    uint32_t m;
    (void)r;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    mem_free(st->order);
    for (m = 0; m < NMODES; m++) {
        mem_free(st->lat[m]);
        mem_free(st->refill[m]);
        mem_free(st->with[m]);
    }
    boot_work_release(&st->boot);
    mem_free(st);
}

const struct experiment exp_flush_ceiling = {
    .id = "flush_ceiling",
    .title = "Flush ceiling: p single-page flushes vs one full flush, each with the refills after",
    .x_axis = "pages",
    .series = "mode",
    .supported = fc_supported,
    .prepare = fc_prepare,
    .run = fc_run,
    .cleanup = fc_cleanup,
};
