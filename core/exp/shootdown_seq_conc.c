/*
 * shootdown_seq_vs_conc: sequential versus concurrent TLB shootdown.
 *
 * Method. For k targets (1, 2, 4, ... N-1, in topology order from the
 * initiator: SMT sibling, same package, then remote) and p pages (1 .. 32,
 * the ceiling, 64, 512), each sample remaps p test pages to fresh frames and
 * runs one shootdown (core/shootdown.h):
 *   seq   local flush, then the IPIs, then wait for every ack (Linux < 5.13);
 *   conc  IPIs, then the local flush, then wait (Linux >= 5.13, 4ce94eabac16).
 * Samples of the two orders alternate, so both see the same machine state.
 * Above the ceiling every CPU does one full flush instead of p INVLPGs:
 * Linux's flush_tlb_local(), a CR3 write (flush=cr3_reload), and where the
 * CPU has INVPCID also the variant INVPCID single-context as its own points
 * (flush=invpcid_single_context); at or below it flush=invlpg.
 * Time: from just after the PTE change to the last ack, on the initiator's
 * TSC. remote_handler is the slowest target's handler (its own TSC: entry to
 * ack). The baseline is the same protocol with nothing to invalidate (the
 * IPI and acknowledgement floor). The summary gives conc/seq per (k, p).
 * Where the time goes, per sample (core/shootdown.h, struct
 * shootdown_parts), each part on one CPU's clock: send (request slots and
 * ICR writes) and local flush on the initiator's, the handler on the
 * target's, and delivery + acknowledgement derived as the initiator's wait
 * from its last ICR write to the last ack minus the handler (no two clocks
 * are subtracted, so the two are one part). Each point records the p50 of
 * send, local flush and delivery+ack as values (send_p50, local_flush_p50,
 * delivery_ack_p50); the split's two clock reads are inside the window.
 * Halted targets are asleep at every shootdown (core/ipi.h,
 * ipi_settle_targets), as at every ping of ipi_roundtrip.
 *
 * Verification: every target, and the initiator, reads the p pages once the
 * initiator has taken its closing timestamp (outside the timed window); an
 * old signature is a stale TLB entry: FAILURE, with CPU and VA.
 *
 * Planned (run_budget_s, core/plan.h): a pilot at the grid's corners, then
 * fewer samples, then every 2nd, 4th... target count and column (page
 * count and flush method; ends kept), then the most targets and one page
 * alone; the record's plan says which.
 */
#include "arch/x86/cpu.h"
#include "core/atomic.h"
#include "core/exp/common.h"
#include "core/experiments.h"
#include "core/mutant.h"
#include "core/runner_plan.h"
#include "core/strbuf.h"
#include "core/timing.h"

#define MAX_PAGE_COUNTS 12
#define MAX_TARGET_COUNTS 16
#define MAX_COLUMNS (MAX_PAGE_COUNTS * EXP_MAX_FULL_FLUSHES)

struct sc_state {
    struct shootdown sd;
    struct target_set ts;
    uint32_t *order;
    uint32_t norder;
    uint32_t counts[MAX_TARGET_COUNTS], ncounts;
    uint32_t pages[MAX_PAGE_COUNTS], npages;
    /* (pages, flush method) per point: each count above the ceiling once per full-flush method */
    uint32_t col_pages[MAX_COLUMNS], col_flush[MAX_COLUMNS], ncols;
    const char *flushes[EXP_MAX_FULL_FLUSHES];
    uint64_t *lat[2], *handler[2], *base;
    /* the breakdown of each sample (core/shootdown.h, struct shootdown_parts) */
    uint64_t *send[2], *local[2], *dack[2];
    uint32_t nbase;
    struct plan plan; /* which points run_budget_s leaves (every one without planning) */
};

struct point_job {
    struct sc_state *st;
    uint32_t pages, samples, warmup, nbase;
    volatile uint64_t progress;
};

/*
 * The pilot (run_budget_s, core/plan.h; short then long runs, timed) of warm-up
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

static bool sc_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct sc_state *st = mem_zalloc(sizeof(*st));
    uint32_t samples = runner_samples(r), m, i, nflush;
    if (!st)
        return false;
    *state = st;
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
    st->npages = exp_page_counts(r->run->cfg.ceiling, st->pages, MAX_PAGE_COUNTS);
    nflush = exp_full_flushes(r, st->flushes);
    for (i = 0; i < st->npages; i++) {
        uint32_t f, nf = st->pages[i] > r->run->cfg.ceiling ? nflush : 1;
        for (f = 0; f < nf; f++) {
            st->col_pages[st->ncols] = st->pages[i];
            st->col_flush[st->ncols++] = f;
        }
    }
    st->nbase = samples / 4 ? samples / 4 : 1;
    for (m = 0; m < 2; m++) {
        st->lat[m] = mem_alloc(samples * sizeof(uint64_t));
        st->handler[m] = mem_alloc(samples * sizeof(uint64_t));
        st->send[m] = mem_alloc(samples * sizeof(uint64_t));
        st->local[m] = mem_alloc(samples * sizeof(uint64_t));
        st->dack[m] = mem_alloc(samples * sizeof(uint64_t));
        if (!st->lat[m] || !st->handler[m] || !st->send[m] || !st->local[m] || !st->dack[m])
            return false;
    }
    st->base = mem_alloc(st->nbase * sizeof(uint64_t));
    if (!st->base)
        return false;
    return point_list_reserve(&rec->results, st->ncounts * st->ncols * 2) &&
           point_list_reserve(&rec->summary, st->ncounts * st->ncols);
}

/* Runs on the initiator: warm-up and samples of both orders, then the baseline. */
static int64_t run_point(struct percpu *self, void *arg)
{
    struct point_job *job = arg;
    struct sc_state *st = job->st;
    struct target_set *ts = &st->ts;
    uint32_t i, m;
    for (i = 0; i < job->warmup + job->samples; i++) {
        if (load_acquire(&self->smp->aborting))
            return -1; /* the BSP lost the experiment (smp_abort_commands) */
        for (m = 0; m < 2; m++) {
            uint64_t t;
            if (MUTANT(remap_after_flush) && m == 0)
                st->sd.mutant_late_remap = job->pages; /* shootdown_flush remaps after its flush */
            else
                testmem_flip(st->sd.tm, 0, job->pages);
            t = shootdown_flush(&st->sd, ts->cpus, ts->n,
                                m ? ORDER_CONCURRENT : ORDER_SEQUENTIAL, 0, job->pages,
                                FLUSH_VERIFY);
            if (!t || !shootdown_wait_verified(&st->sd))
                return -1;
            if (i >= job->warmup) {
                uint32_t k = i - job->warmup;
                st->lat[m][k] = t;
                st->handler[m][k] = st->sd.max_handler_ticks;
                st->send[m][k] = st->sd.parts.send;
                st->local[m][k] = st->sd.parts.local_flush;
                st->dack[m][k] = shootdown_delivery_ack(&st->sd.parts);
            }
        }
        store_relaxed(&job->progress, i + 1);
    }
    for (i = 0; i < job->nbase; i++) {
        uint64_t t = shootdown_flush(&st->sd, ts->cpus, ts->n, ORDER_CONCURRENT, 0, 0, 0);
        if (!t)
            return -1;
        st->base[i] = t;
    }
    return 0;
}

/* The initiator is the BSP unless initiator= names an AP; the BSP then is a target too. */
static bool run_on_initiator(struct runner *r, struct point_job *job)
{
    uint32_t init = r->run->cfg.initiator;
    if (init == 0)
        return run_point(r->smp->cpu[0], job) == 0;
    if (!smp_usable(r->smp, init))
        return false;
    smp_post(r->smp, init, CMD_GENERIC, run_point, job);
    irq_enable();
    if (smp_wait_progress(r->smp, init, &job->progress) != WAIT_OK) {
        irq_disable();
        return false;
    }
    irq_disable();
    return load_acquire(&r->smp->cpu[init]->ack.result) == 0;
}

/* p50 of a part of the breakdown, as a point value (ticks x 1000) */
static void add_part(struct result_point *pt, const char *name, uint64_t *part, uint32_t samples)
{
    struct stats st;
    stats_from_array(part, samples, &st);
    point_value(pt, name, (int64_t)st.p50 * 1000);
}

static void add_point(struct experiment_record *rec, struct sc_state *st, uint32_t m,
                      const char *mode, uint32_t k, uint32_t p, const char *flush,
                      uint32_t samples, uint32_t nbase, struct stats *lat_out)
{
    struct result_point *pt = point_list_add(&rec->results);
    struct stats h, b;
    stats_from_array(st->lat[m], samples, lat_out);
    stats_from_array(st->handler[m], samples, &h);
    if (!pt)
        return;
    point_param_str(pt, "mode", mode);
    point_param_num(pt, "targets", k);
    point_param_num(pt, "pages", p);
    point_param_str(pt, "flush", flush);
    point_metric(pt, "latency", lat_out);
    point_metric(pt, "remote_handler", &h);
    stats_from_array(st->base, nbase, &b);
    point_metric(pt, "baseline", &b);
    add_part(pt, "send_p50", st->send[m], samples);
    add_part(pt, "local_flush_p50", st->local[m], samples);
    add_part(pt, "delivery_ack_p50", st->dack[m], samples);
}

static int64_t ratio_milli(uint64_t num, uint64_t den)
{
    return den ? (int64_t)(num * 1000 / den) : 0;
}

/*
 * One (k, p) point: the first k targets still usable, in topology order,
 * primed with the pages, then the job on the initiator. *run_ticks: the
 * job's time on the BSP's clock; *setup_ticks: sync, start and priming.
 */
static bool sc_point(struct runner *r, struct experiment_record *rec, struct sc_state *st,
                     uint32_t k, struct point_job *job, uint64_t *setup_ticks,
                     uint64_t *run_ticks)
{
    uint32_t i, n = 0;
    uint64_t t0 = tsc_now(), t1;
    bool ok;
    for (i = 0; i < st->norder && n < k; i++)
        if (smp_usable(r->smp, st->order[i]))
            st->ts.cpus[n++] = st->order[i];
    if (n < k)
        rec->partial = true;
    st->ts.n = n;
    if (n == 0 || !shootdown_sync_all(&st->sd)) {
        rec->partial = true;
        return false;
    }
    target_set_start(r, &st->ts);
    /* load the pages into every TLB: a shootdown must have something to shoot */
    ok = shootdown_verify_cpus(&st->sd, st->ts.cpus, st->ts.n, 0, job->pages, false);
    t1 = tsc_now();
    ok = ok && run_on_initiator(r, job);
    *run_ticks = tsc_now() - t1;
    *setup_ticks = t1 - t0;
    target_set_stop(r, &st->ts);
    if (!ok)
        rec->partial = true;
    return ok;
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

static uint64_t sc_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct sc_pilot *pl = ctx;
    const struct sc_state *st = pl->st;
    uint64_t k0 = st->counts[0], kn = st->counts[st->ncounts - 1], k = st->counts[row];
    uint64_t one = pl->most[0], at = most_at(pl, col), c = pl->fewest;
    if (kn > k0 && one > pl->fewest)
        c += (one - pl->fewest) * (k - k0) / (kn - k0);
    if (at > one)
        c += (at - one) * k / kn; /* the pages' part grows with the targets that do them */
    return c;
}

struct sc_pilot_point {
    struct experiment_record *rec;
    struct sc_state *st;
    uint32_t k, col;
};

static bool sc_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct sc_pilot_point *pp = ctx;
    struct point_job job = { pp->st, pp->st->col_pages[pp->col], 0, iterations, 0, 0 };
    uint64_t setup, run;
    pp->st->sd.full_uses_invpcid = pp->st->col_flush[pp->col] == 1;
    if (!sc_point(r, pp->rec, pp->st, pp->k, &job, &setup, &run))
        return false;
    *ticks = setup + run;
    return true;
}

/* Times the pilot points and plans; false when nothing should be measured. */
static bool sc_plan(struct runner *r, struct experiment_record *rec, struct sc_state *st)
{
    struct sc_pilot pilot;
    uint64_t setup = 0;
    struct plan_request q;
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
    q.ncols = st->ncols; /* page counts, those above the ceiling once per full-flush method */
    q.thin_rows = q.thin_cols = true;
    q.point_ticks = setup;
    q.iter_ticks = sc_cost;
    q.ctx = &pilot;
    if (!runner_plan(r, rec, &q, "target counts", "page counts x flushes", 2, &st->plan))
        return false;
    st->nbase = runner_samples(r) / 4 ? runner_samples(r) / 4 : 1;
    return true;
}

static void sc_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct sc_state *st = state;
    uint32_t c, p, samples, done = 0;
    uint32_t planned = st->ncounts * st->ncols * 2;
    if (!sc_plan(r, rec, st))
        goto out;
    planned = st->plan.rows * st->plan.cols * 2;
    for (c = 0; c < st->ncounts; c++) {
        if (!plan_kept(st->ncounts, st->plan.row_stride, c))
            continue;
        for (p = 0; p < st->ncols; p++) {
            struct point_job job = { st, st->col_pages[p], 0, 0, 0, 0 };
            const char *flush = st->col_pages[p] > r->run->cfg.ceiling
                                    ? st->flushes[st->col_flush[p]] : "invlpg";
            struct stats seq, conc;
            struct result_point *sum;
            uint64_t setup, ticks;
            uint32_t n;
            if (!plan_kept(st->ncols, st->plan.col_stride, p))
                continue;
            if (!runner_budget_ok(r))
                goto out;
            runner_progress(r, done++, st->plan.rows * st->plan.cols);
            /* the plan may have cut the samples (runner_plan_follow()) */
            samples = job.samples = runner_samples(r);
            job.warmup = runner_warmup(r);
            st->nbase = job.nbase = samples / 4 ? samples / 4 : 1;
            st->sd.full_uses_invpcid = st->col_flush[p] == 1;
            if (!sc_point(r, rec, st, st->counts[c], &job, &setup, &ticks)) {
                if (st->ts.n == 0)
                    goto out;
                continue;
            }
            n = st->ts.n;
            add_point(rec, st, 0, "seq", n, job.pages, flush, samples, st->nbase, &seq);
            add_point(rec, st, 1, "conc", n, job.pages, flush, samples, st->nbase, &conc);
            sum = point_list_add(&rec->summary);
            if (sum) {
                point_param_num(sum, "targets", n);
                point_param_num(sum, "pages", job.pages);
                point_param_str(sum, "flush", flush);
                point_value(sum, "conc_over_seq_p50", ratio_milli(conc.p50, seq.p50));
                point_value(sum, "conc_over_seq_p99", ratio_milli(conc.p99, seq.p99));
            }
        }
    }
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
    for (m = 0; m < 2; m++) {
        mem_free(st->lat[m]);
        mem_free(st->handler[m]);
        mem_free(st->send[m]);
        mem_free(st->local[m]);
        mem_free(st->dack[m]);
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
