/*
 * shootdown_seq_vs_conc: sequential versus concurrent TLB shootdown.
 *
 * Method. For k targets (1, 2, 4, ... N-1, in topology order from the
 * initiator: SMT sibling, same package, then remote) and p pages (1 .. 32,
 * the ceiling, 64, 512), each sample remaps p test pages to fresh frames and
 * runs one shootdown (core/machine/shootdown.h):
 *   seq   local flush, then the IPIs, then wait for every ack (Linux < 5.13);
 *   conc  IPIs, then the local flush, then wait (Linux >= 5.13, 4ce94eabac16).
 * Above the ceiling every CPU does one full flush instead of p INVLPGs:
 * Linux's flush_tlb_local(), a CR3 write (flush=cr3_reload), and where the
 * CPU has INVPCID also the variant INVPCID single-context as its own points
 * (flush=invpcid_single_context); at or below it flush=invlpg.
 * The variants of a (k, p) are measured together: each iteration runs one
 * sample of each order, and above the ceiling of each order with each
 * flush method, in an order drawn per iteration from the run's order seed
 * (exp_variant_order(): no variant always goes first, so drift and a cache
 * one of them warms favour none). All see the same machine state, and the
 * samples of an iteration are pairs: the points keep them (core/run/record.h)
 * for the paired bootstrap of the shootdown_order recommendation, and
 * record in `ran_first` how many of their iterations they began.
 * Time: from just after the PTE change to the last ack, on the initiator's
 * TSC. remote_handler is the slowest target's handler (its own TSC: entry to
 * ack). The baseline is the same protocol with nothing to invalidate (the
 * IPI and acknowledgement floor). The summary gives conc/seq per (k, p).
 * Where the time goes, per sample (core/exp/shootdown_breakdown.h), each
 * part on one CPU's clock: send (request slots and ICR writes) and local
 * flush on the initiator's, the handler of the target that acknowledged
 * last on that target's, and delivery + acknowledgement derived as the
 * initiator's wait from its last ICR write to the last ack minus that
 * handler (no two clocks are subtracted, so the two are one part). Each
 * point records the means, which add up to the mean latency (seq: all four;
 * conc: all but the local flush, which runs inside the wait): send_mean,
 * local_flush_mean, last_handler_mean, delivery_ack_mean, and which target
 * acked last most often (last_ack_cpu, last_ack_share); the split's two
 * clock reads are inside the window. Handler and delivery are a ring-0
 * target's (the tool's idle or spin loop), with no entry mitigations: a
 * target running user code would also pay the kernel entry (the views say so).
 * Halted targets are asleep at every shootdown (core/machine/ipi.h,
 * ipi_settle_targets), as at every ping of ipi_roundtrip.
 *
 * Verification: every target, and the initiator, reads the p pages once the
 * initiator has taken its closing timestamp (outside the timed window); an
 * old signature is a stale TLB entry: FAILURE, with CPU and VA.
 *
 * Placement (issue 21). The grid's targets are the nearest first, so its
 * "1 target" is the SMT sibling. Beside it, at one page (INVLPG, both
 * orders), points with `placement`: the targets drawn from one topology
 * class seen from the initiator (core/machine/cpu_table.h: smt_sibling, same_l3,
 * same_package, same_node, cross_node, cross_package), 1, 2, 4 ... up to
 * the class's CPUs (at most PLACE_COUNTS counts, the largest kept), and
 * `spread` (core/machine/placement.h: round-robin over (node, package, L3), as Linux's
 * placement-blind mm_cpumask) at the grid's counts below every CPU. A
 * class the initiator has no CPU of is a note "placement X skipped: ...",
 * never replaced by another class. Grid points carry no `placement`
 * (nearest first). Their budget: the pilot's cost at their target counts,
 * at the configured samples, reserved out of the share before the grid is
 * planned (at most a quarter of it; their samples go down to fit that, not
 * below the floor), so the grid and they fit the share together.
 *
 * x2APIC cluster mode (issue 21): in x2APIC mode, also points with
 * `ipi_mode` x2apic_cluster at the grid's target counts (nearest first),
 * one page, both orders: the same targets sorted by APIC ID, the flush IPI
 * sent as one logical ICR write per cluster (core/machine/ipi.h,
 * ipi_send_cluster()), as Linux's x2apic_cluster does; value `icr_writes`.
 * Points without `ipi_mode` send one physical ICR write per target. They
 * share the placement points' reservation.
 *
 * Planned (run_budget_s, core/run/plan.h): a pilot at the grid's corners, then
 * fewer samples, then the INVPCID single-context variant above the ceiling
 * (Linux's CR3 write stays), then every 2nd, 4th... target count and page
 * count (each kept page count with every flush method still measured; the
 * first and last target counts kept, and 1, the ceiling and 512 pages: the
 * ceiling, and Linux's full flush above it, are never left out), then the
 * most targets alone; the record's plan says which (issue 32: thinning the
 * (pages, flush) columns had kept INVPCID's and dropped the CR3 write's
 * points above the ceiling, and at times the ceiling itself).
 */
#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/exp/shootdown_breakdown.h"
#include "core/exp/protocol_steps.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/exp/shootdown_seq_conc.h"
#include "core/machine/placement.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"


/* Both orders of column col (its page count and flush method) into the job. */
static void job_add_column(struct point_job *job, const struct sc_state *st, uint32_t col)
{
    uint32_t m;
    for (m = 0; m < 2 && job->nvariants < SC_MAX_VARIANTS; m++)
        job->variant[job->nvariants++] = (struct sc_variant){ (uint8_t)m,
                                                              (uint8_t)st->col_flush[col] };
}

/*
 * The pilot (run_budget_s, core/run/plan.h; short then long runs, timed) of warm-up
 * iterations (one seq and one conc shootdown each) at the fewest targets and
 * one page, and at the most targets with the page counts that anchor the
 * cost: one page, the last count flushed page by page (the ceiling), the
 * most pages (a full flush, every page verified). Between them the cost is
 * taken as linear in the target count and, per target, piecewise linear in
 * the page count: the INVLPGs and verification reads are per page and per
 * target, and a full flush is not a dearer INVLPG loop.
 */
#define SC_ANCHORS 3
struct sc_pilot {
    const struct sc_state *st;
    uint64_t fewest;               /* fewest targets, first page count */
    uint32_t nanchors;
    uint32_t anchor[SC_ANCHORS];   /* indices into st->col_pages, ascending */
    uint64_t most[SC_ANCHORS];     /* most targets, at each anchor */
};

static bool sc_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    /* the variant's emulated INVPCID runs only on points above the ceiling (the largest is 512) */
    *emulated = r->run->method.full_flush_emulated && r->run->cfg.ceiling < 512;
    return runner_need_test_region(r, reason, cap) && runner_need_cpus(r, 2, reason, cap);
}

/* Which CPUs a placement takes at its largest count, and (spread) their classes' mix. */
static void sc_note_targets(struct runner *r, struct experiment_record *rec, struct sc_state *st,
                            uint32_t p, uint32_t k)
{
    char list[96], mix[160];
    uint32_t init = r->run->cfg.initiator, n = runner_placement_pick(r, init, p, k, st->ts.cpus);
    placement_list(list, sizeof(list), st->ts.cpus, n);
    placement_mix(mix, sizeof(mix), r->smp->topo, init, st->ts.cpus, n);
    record_note(rec, "placement %s: targets %s of CPU %u%s%s%s", placement_name(p), list, init,
                p == PLACE_SPREAD ? " (classes: " : "", p == PLACE_SPREAD ? mix : "",
                p == PLACE_SPREAD ? ")" : "");
}

/*
 * The placement points: every class the initiator has CPUs of at 1, 2, 4
 * ... its size, spread at the grid's counts below every CPU; a note for
 * each class it has none of.
 */
static void sc_placements(struct runner *r, struct experiment_record *rec, struct sc_state *st)
{
    uint32_t init = r->run->cfg.initiator, p, counts[MAX_TARGET_COUNTS], n, i;
    if (!runner_placements_differ(r, rec, init))
        return;
    for (p = TOPO_FIRST_CLASS; p < PLACE_COUNT; p++) {
        uint32_t size = runner_placement_size(r, init, p);
        if (p == PLACE_SPREAD) {
            /* all of them is the grid's last row: the same CPUs whatever the placement */
            size = size > 1 ? size - 1 : 0;
        }
        if (!size) {
            if (p != PLACE_SPREAD)
                record_note(rec, "placement %s skipped: CPU %u has no usable CPU of that class",
                            placement_name(p), init);
            continue;
        }
        n = runner_power_series(size, counts, MAX_TARGET_COUNTS);
        /* at most PLACE_COUNTS counts: the first ones and the largest */
        for (i = 0; i < n; i++) {
            if (i >= PLACE_COUNTS - 1 && i != n - 1)
                continue;
            st->placed[st->nplaced] = p;
            st->placed_k[st->nplaced++] = counts[i];
        }
        sc_note_targets(r, rec, st, p, counts[n - 1]);
    }
}

/* The cluster-mode points: the grid's target counts, nearest first, where x2APIC runs. */
static void sc_cluster_points(struct experiment_record *rec, struct sc_state *st)
{
    char why[RECORD_REASON_LEN];
    uint32_t c;
    if (!ipi_cluster_available(why, sizeof(why))) {
        record_note(rec, "x2APIC cluster mode not measured: %s", why);
        return;
    }
    for (c = 0; c < st->ncounts && st->nplaced < MAX_PLACED; c++) {
        st->placed[st->nplaced] = SC_NEAREST;
        st->placed_cluster[st->nplaced] = true;
        st->placed_k[st->nplaced++] = st->counts[c];
    }
}

static bool sc_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct sc_state *st = mem_zalloc(sizeof(*st));
    uint32_t samples = runner_samples(r), m, i, nflush;
    if (!st)
        return false;
    *state = st;
    st->r = r;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    st->order = mem_alloc(r->smp->count * sizeof(uint32_t));
    if (!st->order)
        return false;
    st->norder = runner_targets_in_topology_order(r, r->run->cfg.initiator, st->order,
                                                  r->smp->count);
    st->ncounts = runner_power_series(st->norder, st->counts, MAX_TARGET_COUNTS);
    if (MUTANT(grid_truncated))
        st->ncounts = 1; /* targets=1 only */
    sc_placements(r, rec, st);
    sc_cluster_points(rec, st);
    st->npages = exp_page_counts(r->run->cfg.ceiling, st->pages, MAX_PAGE_COUNTS);
    nflush = exp_full_flushes(r, st->flushes);
    for (i = 0; i < st->npages; i++) {
        uint32_t f, nf = st->pages[i] > r->run->cfg.ceiling ? nflush : 1;
        st->page_col[i] = st->ncols;
        st->page_variants[i] = (uint8_t)nf;
        if (st->pages[i] <= r->run->cfg.ceiling)
            st->ceiling_page = i;
        for (f = 0; f < nf; f++) {
            st->col_pages[st->ncols] = st->pages[i];
            st->col_flush[st->ncols++] = f;
        }
    }
    st->nbase = samples / 4 ? samples / 4 : 1;
    for (m = 0; m < SC_MAX_VARIANTS; m++) {
        st->lat[m] = mem_alloc(samples * sizeof(uint64_t));
        st->handler[m] = mem_alloc(samples * sizeof(uint64_t));
        if (!st->lat[m] || !st->handler[m] || !breakdown_alloc(&st->parts[m], samples))
            return false;
    }
    st->base = mem_alloc(st->nbase * sizeof(uint64_t));
    if (!st->base)
        return false;
    /* the samples the plan may raise to: the configured count (a point never keeps more) */
    return point_list_reserve(&rec->results, (st->ncounts * st->ncols + st->nplaced) * 2) &&
           point_list_reserve(&rec->summary, st->ncounts * st->ncols + st->nplaced) &&
           record_reserve_kept(rec, (st->ncounts * st->ncols + st->nplaced) * 2,
                               r->run->cfg.samples);
}

/* Ticks per iteration at the most targets and page index col: between the anchors. */
static uint64_t most_at(const struct sc_pilot *pl, uint32_t col)
{
    const uint32_t *pg = pl->st->col_pages;
    uint32_t i;
    for (i = 1; i < pl->nanchors; i++) {
        uint32_t lo = pl->anchor[i - 1], hi = pl->anchor[i];
        uint64_t a = pl->most[i - 1], b = pl->most[i];
        if (col > hi)
            continue;
        if (pg[hi] == pg[lo])
            return b;
        /* from a to b as pages go from pg[lo] to pg[hi] (b may be lower: a full flush) */
        if (b >= a)
            return a + (b - a) * (pg[col] - pg[lo]) / (pg[hi] - pg[lo]);
        return a - (a - b) * (pg[col] - pg[lo]) / (pg[hi] - pg[lo]);
    }
    return pl->most[pl->nanchors - 1];
}

static uint64_t sc_cost_k(const struct sc_pilot *pl, uint64_t k, uint32_t col)
{
    const struct sc_state *st = pl->st;
    uint64_t k0 = st->counts[0], kn = st->counts[st->ncounts - 1];
    uint64_t one = pl->most[0], at = most_at(pl, col), c = pl->fewest;
    if (kn > k0 && one > pl->fewest)
        c += (one - pl->fewest) * (k - k0) / (kn - k0);
    if (at > one)
        c += (at - one) * k / kn; /* the pages' part grows with the targets that do them */
    return c;
}

/* An iteration at page count pc: both orders with each of its flush methods (lean: the first). */
static uint64_t sc_cost_page(const struct sc_pilot *pl, uint32_t row, uint32_t pc, bool lean)
{
    const struct sc_state *st = pl->st;
    uint32_t f, nf = lean ? 1 : st->page_variants[pc];
    uint64_t c = 0;
    for (f = 0; f < nf; f++)
        c += sc_cost_k(pl, st->counts[row], st->page_col[pc] + f);
    return c;
}

static uint64_t sc_cost(const void *ctx, uint32_t row, uint32_t pc)
{
    return sc_cost_page(ctx, row, pc, false);
}

static uint64_t sc_cost_lean(const void *ctx, uint32_t row, uint32_t pc)
{
    return sc_cost_page(ctx, row, pc, true);
}

/*
 * The placement points' part of the share (see the method): their cost at
 * the configured samples, at most a quarter of the share, their samples
 * cut to fit it (not below the floor). Returns the ticks reserved.
 */
static uint64_t sc_reserve_placed(struct runner *r, struct sc_state *st,
                                  const struct sc_pilot *pl, uint64_t setup)
{
    uint32_t samples = r->run->cfg.samples, warmup = r->run->cfg.warmup, i;
    uint32_t floor = PLAN_FLOOR < samples ? PLAN_FLOOR : samples;
    uint64_t per_iter = 0, fixed = 0, cap = r->plan_share_ticks / 4, reserve;
    st->placed_samples = samples;
    st->placed_warmup = warmup;
    if (!r->plan_share_ticks || !st->nplaced)
        return 0;
    for (i = 0; i < st->nplaced; i++) {
        /* two variants (seq, conc) per iteration, a quarter of the samples of baseline */
        per_iter += 2 * sc_cost_k(pl, st->placed_k[i], 0);
        fixed += setup;
    }
    reserve = fixed + per_iter * (samples + warmup + samples / 4);
    if (reserve > cap && per_iter) {
        /* per sample: itself, a quarter of a baseline, and its share of the warm-up */
        uint64_t s = cap > fixed ? (cap - fixed) * 4 * samples /
                                       (per_iter * (5 * (uint64_t)samples + 4 * warmup))
                                 : 0;
        st->placed_samples = s < floor ? floor : s > samples ? samples : (uint32_t)s;
        st->placed_warmup = plan_warmup(warmup, samples, st->placed_samples);
        reserve = fixed + per_iter * (st->placed_samples + st->placed_warmup +
                                      st->placed_samples / 4);
    }
    return reserve < r->plan_share_ticks ? reserve : r->plan_share_ticks / 2;
}

struct sc_pilot_point {
    struct experiment_record *rec;
    struct sc_state *st;
    uint32_t k, col;
};

static bool sc_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct sc_pilot_point *pp = ctx;
    struct point_job job;
    uint64_t setup, run;
    mem_zero(&job, sizeof(job));
    job.st = pp->st;
    job.pages = pp->st->col_pages[pp->col];
    job.warmup = iterations;
    job_add_column(&job, pp->st, pp->col);
    if (!sc_point(r, pp->rec, pp->st, SC_NEAREST, pp->k, &job, &setup, &run))
        return false;
    *ticks = setup + run;
    return true;
}

/* Times the pilot points and plans; false when nothing should be measured. */
static bool sc_plan(struct runner *r, struct experiment_record *rec, struct sc_state *st)
{
    struct sc_pilot pilot;
    uint64_t setup = 0, reserve;
    struct plan_request q;
    bool planned;
    uint32_t i, ceil_idx = 0;
    mem_zero(&q, sizeof(q));
    mem_zero(&pilot, sizeof(pilot));
    pilot.st = st;
    for (i = 0; i < st->ncols; i++)
        if (st->col_pages[i] <= r->run->cfg.ceiling)
            ceil_idx = i;
    pilot.anchor[pilot.nanchors++] = 0;
    if (ceil_idx > 0 && ceil_idx < st->ncols - 1)
        pilot.anchor[pilot.nanchors++] = ceil_idx;
    if (st->ncols > 1)
        pilot.anchor[pilot.nanchors++] = st->ncols - 1;
    for (i = 0; i <= pilot.nanchors && r->plan_share_ticks; i++) {
        /* i = 0: the fewest targets, one page; then the most targets at each anchor */
        struct sc_pilot_point pp = { rec, st, st->counts[i ? st->ncounts - 1 : 0],
                                     i ? pilot.anchor[i - 1] : 0 };
        uint64_t fixed;
        if (!runner_pilot(r, sc_time, &pp, i ? &pilot.most[i - 1] : &pilot.fewest, &fixed)) {
            record_note(rec, "the pilot point (%u targets, %u pages) failed", pp.k,
                        st->col_pages[pp.col]);
            return false;
        }
        setup = fixed > setup ? fixed : setup;
    }
    q.baseline_div = 4;
    q.nrows = st->ncounts;
    /* page counts, each with every flush method measured at it (col_variants) */
    q.ncols = st->npages;
    q.col_variants = st->page_variants;
    q.thin_rows = q.thin_cols = true;
    /* the ceiling survives every stride, with 1 and 512 pages (Linux's full flush) */
    q.dense_lo = q.anchor = st->ceiling_page;
    q.dense_hi = st->ceiling_page + 1;
    q.point_ticks = setup;
    q.iter_ticks = sc_cost;
    /* INVPCID single-context above the ceiling: a variant, the first to go */
    q.iter_ticks_lean = st->ncols > st->npages ? sc_cost_lean : NULL;
    q.ctx = &pilot;
    reserve = sc_reserve_placed(r, st, &pilot, setup);
    r->plan_share_ticks -= reserve; /* the grid plans within what the placement points leave */
    if (reserve && !runner_plan_fits(r, &q)) {
        /* the placement points are the first to go: never at the cost of the grid's plan */
        record_note(rec, "placement and cluster-mode points not measured: with them the grid "
                         "does not fit the share even at the floor");
        r->plan_share_ticks += reserve;
        reserve = 0;
        st->nplaced = 0;
    }
    planned = runner_plan(r, rec, &q, "target counts", "page counts", 2, &st->plan);
    rec->plan.variants_name = st->ncols > st->npages ? st->flushes[1] : NULL;
    r->plan_share_ticks += reserve;
    if (reserve)
        record_note(rec, "%u placement points reserved %llu ms of the share (%u samples each)",
                    st->nplaced, (unsigned long long)ticks_to_ms(reserve), st->placed_samples);
    if (!planned)
        return false;
    st->nbase = runner_samples(r) / 4 ? runner_samples(r) / 4 : 1;
    return true;
}

/* The points and the summary of column col, from variants v (seq) and v + 1 (conc) of a job. */
static void add_column(struct runner *r, struct experiment_record *rec, struct sc_state *st,
                       const struct point_job *job, uint32_t placement, uint32_t col, uint32_t v,
                       uint32_t run)
{
    const char *flush = st->col_pages[col] > r->run->cfg.ceiling ? st->flushes[st->col_flush[col]]
                                                                 : "invlpg";
    struct stats seq, conc;
    struct result_point *sum;
    uint32_t n = st->ts.n;
    uint32_t init = r->run->cfg.initiator;
    sc_add_point(rec, st, init, v, "seq", placement, n, job->pages, flush, job->samples, job->nbase,
              run, &seq);
    sc_add_point(rec, st, init, v + 1, "conc", placement, n, job->pages, flush, job->samples,
              job->nbase, run, &conc);
    sum = point_list_add(&rec->summary);
    if (!sum)
        return;
    if (placement != SC_NEAREST)
        point_param_str(sum, "placement", placement_name(placement));
    if (st->sd.cluster_ipis)
        point_param_str(sum, "ipi_mode", "x2apic_cluster");
    point_param_num(sum, "targets", n);
    point_param_num(sum, "pages", job->pages);
    point_param_str(sum, "flush", flush);
    point_value(sum, "conc_over_seq_p50", sc_ratio_milli(conc.p50, seq.p50));
    if (stats_has_p99(seq.n) && stats_has_p99(conc.n)) /* core/lib/stats.h */
        point_value(sum, "conc_over_seq_p99", sc_ratio_milli(conc.p99, seq.p99));
}

/* The placement points (see the method), at one page, after the grid. */
static void sc_run_placed(struct runner *r, struct experiment_record *rec, struct sc_state *st,
                          uint32_t *planned)
{
    uint32_t i;
    *planned += st->nplaced * 2;
    if (rec->plan.applied) {
        /* the plan's bookkeeping counts them: their samples are part of the share's */
        struct plan_summary *ps = &rec->plan;
        ps->points_planned += st->nplaced * 2;
        ps->samples_planned += (uint64_t)st->nplaced * 2 * st->placed_samples;
        if (st->nplaced && st->placed_samples < ps->samples_min)
            ps->samples_min = st->placed_samples;
        if (st->nplaced && st->placed_samples > ps->samples_max)
            ps->samples_max = st->placed_samples;
    }
    for (i = 0; i < st->nplaced; i++) {
        struct point_job job;
        uint64_t setup, ticks;
        if (!runner_budget_ok(r))
            return;
        mem_zero(&job, sizeof(job));
        job.st = st;
        job.pages = st->col_pages[0];
        job.samples = st->placed_samples;
        job.warmup = st->placed_warmup;
        st->nbase = job.nbase = job.samples / 4 ? job.samples / 4 : 1;
        job.salt = (uint64_t)(st->placed[i] + 1) << 48 | (uint64_t)st->placed_k[i] << 32;
        job_add_column(&job, st, 0);
        st->sd.cluster_ipis = st->placed_cluster[i];
        if (!sc_point(r, rec, st, st->placed[i], st->placed_k[i], &job, &setup, &ticks)) {
            st->sd.cluster_ipis = false;
            if (!smp_usable(r->smp, r->run->cfg.initiator))
                return;
            continue;
        }
        add_column(r, rec, st, &job, st->placed[i], 0, 0, record_paired_run(rec));
        st->sd.cluster_ipis = false;
    }
}

/*
 * The columns the plan measures at page count pc: every flush method, or
 * Linux's alone (the first, cr3_reload) when the plan left the variants
 * out. Returns how many, into cols.
 */
static uint32_t sc_page_columns(const struct sc_state *st, uint32_t pc, uint32_t *cols)
{
    uint32_t f, n = st->plan.lean ? 1 : st->page_variants[pc];
    if (MUTANT(plan_drops_linux_flush) && st->plan.lean) { /* test-only: the variant kept */
        cols[0] = st->page_col[pc] + st->page_variants[pc] - 1;
        return 1;
    }
    for (f = 0; f < n && f < EXP_MAX_FULL_FLUSHES; f++)
        cols[f] = st->page_col[pc] + f;
    return f;
}

static void sc_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct sc_state *st = state;
    uint32_t c, pc, done = 0;
    uint32_t planned = st->ncounts * st->ncols * 2;
    if (!sc_plan(r, rec, st))
        goto out;
    planned = rec->plan.applied ? rec->plan.points_planned : planned;
    for (c = 0; c < st->ncounts; c++) {
        if (!plan_kept(st->ncounts, st->plan.row_stride, c))
            continue;
        /* the columns of one page count (one per full-flush method above the ceiling) together */
        for (pc = 0; pc < st->npages; pc++) {
            struct point_job job;
            uint32_t cols[EXP_MAX_FULL_FLUSHES], ncols, k, run;
            uint64_t setup, ticks;
            if (!plan_col_kept(&st->plan, st->npages, pc))
                continue;
            ncols = sc_page_columns(st, pc, cols);
            if (!runner_budget_ok(r))
                goto out;
            runner_progress(r, done++, st->plan.rows * st->plan.cols);
            mem_zero(&job, sizeof(job));
            job.st = st;
            job.pages = st->pages[pc];
            /* the plan may have cut the samples (runner_plan_follow()) */
            job.samples = runner_samples(r);
            job.warmup = runner_warmup(r);
            st->nbase = job.nbase = job.samples / 4 ? job.samples / 4 : 1;
            job.salt = (uint64_t)st->counts[c] << 32 | st->page_col[pc];
            for (k = 0; k < ncols; k++)
                job_add_column(&job, st, cols[k]);
            if (!sc_point(r, rec, st, SC_NEAREST, st->counts[c], &job, &setup, &ticks)) {
                if (st->ts.n == 0)
                    goto out;
                continue;
            }
            run = record_paired_run(rec);
            for (k = 0; k < ncols; k++)
                add_column(r, rec, st, &job, SC_NEAREST, cols[k], 2 * k, run);
        }
    }
    sc_run_placed(r, rec, st, &planned);
out:
    st->sd.full_uses_invpcid = false;
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, planned, "points");
}

static void sc_cleanup(struct runner *r, void *state)
{
    struct sc_state *st = state;
    uint32_t m;
    (void)r;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    mem_free(st->order);
    for (m = 0; m < SC_MAX_VARIANTS; m++) {
        mem_free(st->lat[m]);
        mem_free(st->handler[m]);
        breakdown_free(&st->parts[m]);
    }
    mem_free(st->base);
    mem_free(st);
}

const struct experiment exp_shootdown_seq_vs_conc = {
    .id = "shootdown_seq_vs_conc",
    .title = "TLB shootdown, sequential (flush, then IPI) vs concurrent (IPI, then flush)",
    .x_axis = "targets",
    .series = "mode",
    .supported = sc_supported,
    .prepare = sc_prepare,
    .run = sc_run,
    .cleanup = sc_cleanup,
    .initiator_configurable = true,
};
