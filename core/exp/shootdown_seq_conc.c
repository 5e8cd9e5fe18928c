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
 *
 * Verification: every target, and the initiator, reads the p pages once the
 * initiator has taken its closing timestamp (outside the timed window); an
 * old signature is a stale TLB entry: FAILURE, with CPU and VA.
 */
#include "arch/x86/cpu.h"
#include "core/atomic.h"
#include "core/exp/common.h"
#include "core/experiments.h"
#include "core/mutant.h"
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
    uint32_t nbase;
};

struct point_job {
    struct sc_state *st;
    uint32_t pages, samples, warmup;
    volatile uint64_t progress;
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
        if (!st->lat[m] || !st->handler[m])
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
            testmem_flip(st->sd.tm, 0, job->pages);
            t = shootdown_flush(&st->sd, ts->cpus, ts->n,
                                m ? ORDER_CONCURRENT : ORDER_SEQUENTIAL, 0, job->pages,
                                FLUSH_VERIFY);
            if (!t || !shootdown_wait_verified(&st->sd))
                return -1;
            if (i >= job->warmup) {
                st->lat[m][i - job->warmup] = t;
                st->handler[m][i - job->warmup] = st->sd.max_handler_ticks;
            }
        }
        store_relaxed(&job->progress, i + 1);
    }
    for (i = 0; i < st->nbase; i++) {
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

static void add_point(struct experiment_record *rec, const char *mode, uint32_t k, uint32_t p,
                      const char *flush, uint64_t *lat, uint64_t *handler, uint64_t *base, uint32_t samples,
                      uint32_t nbase, struct stats *lat_out)
{
    struct result_point *pt = point_list_add(&rec->results);
    struct stats h, b;
    stats_from_array(lat, samples, lat_out);
    stats_from_array(handler, samples, &h);
    if (!pt)
        return;
    point_param_str(pt, "mode", mode);
    point_param_num(pt, "targets", k);
    point_param_num(pt, "pages", p);
    point_param_str(pt, "flush", flush);
    point_metric(pt, "latency", lat_out);
    point_metric(pt, "remote_handler", &h);
    if (base) {
        stats_from_array(base, nbase, &b);
        point_metric(pt, "baseline", &b);
    }
}

static int64_t ratio_milli(uint64_t num, uint64_t den)
{
    return den ? (int64_t)(num * 1000 / den) : 0;
}

static void sc_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct sc_state *st = state;
    uint32_t c, p, samples = runner_samples(r), done = 0;
    uint32_t planned = st->ncounts * st->ncols * 2;
    for (c = 0; c < st->ncounts; c++) {
        for (p = 0; p < st->ncols; p++) {
            struct point_job job = { st, st->col_pages[p], samples, runner_warmup(r), 0 };
            const char *flush = st->col_pages[p] > r->run->cfg.ceiling
                                    ? st->flushes[st->col_flush[p]] : "invlpg";
            struct stats seq, conc;
            struct result_point *sum;
            uint32_t k = st->counts[c], i, n = 0;
            bool ok;
            if (!runner_budget_ok(r))
                goto out;
            runner_progress(r, done++, st->ncounts * st->ncols);
            /* the first k targets still usable, in topology order */
            for (i = 0; i < st->norder && n < k; i++)
                if (smp_usable(r->smp, st->order[i]))
                    st->ts.cpus[n++] = st->order[i];
            if (n < k)
                rec->partial = true;
            if (n == 0)
                goto out;
            st->ts.n = n;
            st->sd.full_uses_invpcid = st->col_flush[p] == 1;
            if (!shootdown_sync_all(&st->sd)) {
                rec->partial = true;
                continue;
            }
            target_set_start(r, &st->ts);
            /* load the pages into every TLB: a shootdown must have something to shoot */
            ok = shootdown_verify_cpus(&st->sd, st->ts.cpus, st->ts.n, 0, job.pages, false) &&
                 run_on_initiator(r, &job);
            target_set_stop(r, &st->ts);
            if (!ok) {
                rec->partial = true;
                continue;
            }
            add_point(rec, "seq", n, job.pages, flush, st->lat[0], st->handler[0], st->base, samples,
                      st->nbase, &seq);
            add_point(rec, "conc", n, job.pages, flush, st->lat[1], st->handler[1], st->base, samples,
                      st->nbase, &conc);
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
};
