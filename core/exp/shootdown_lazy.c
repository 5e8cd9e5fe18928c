/*
 * shootdown_lazy: not interrupting CPUs in lazy-TLB mode.
 *
 * Method. All N-1 other CPUs are targets of a one-page shootdown
 * (concurrent order); k of them (the farthest in topology order) are lazy:
 * their is_lazy flag, in their own cache line, is set. Per sample the
 * initiator remaps one page and flushes with one of four policies:
 *   skip_lazy     Linux should_flush_tlb(): lazy CPUs get no IPI and catch up
 *                 when they switch back, by comparing their TLB generation
 *                 with the mm's and flushing everything when behind;
 *   ipi_all       no filter: lazy CPUs are interrupted like the others;
 *   freed_tables  page tables were freed: the remap replaces the test pages'
 *                 page table (testmem_replace_table: a copy with the page on
 *                 its new frame, linked by one PDE store), and once the
 *                 shootdown is acknowledged the old table is freed (returned
 *                 to the pool; the next sample overwrites it). Linux must
 *                 interrupt lazy CPUs too: a CPU that kept a paging-structure
 *                 entry for the old table would walk freed memory;
 *   xen_running   Xen's filter (hap flush_tlb(), seed 004): interrupt only
 *                 vCPUs marked running; the others flush on their next
 *                 schedule because their ASID was tickled.
 * After each sample the lazy CPUs "switch back" (an IPI runs the catch-up
 * on them), verify the page, and go lazy again. latency is the initiator's
 * shootdown time; catchup is the slowest lazy CPU's switch-back cost (its
 * own TSC). Points: every k from 0 to N-1 (a power series above 8 CPUs).
 * The baseline is the same policy and lazy set with nothing to invalidate.
 *
 * Verification: every target and every lazy CPU after its catch-up reads
 * the page; with freed_tables the lazy CPUs also read it with the targets,
 * before any switch-back, since Linux interrupted them (a lazy CPU left out
 * reads through its old TLB entry or its paging-structure entry for the
 * freed table). An old signature is FAILURE.
 *
 * Planned (run_budget_s, core/plan.h): fewer samples, then fewer lazy counts
 * (ends kept, then the most alone); the four policies are always measured.
 */
#include "arch/x86/cpu.h"
#include "core/atomic.h"
#include "core/exp/common.h"
#include "core/experiments.h"
#include "core/mutant.h"
#include "core/runner_plan.h"
#include "core/strbuf.h"
#include "core/timing.h"

#define MAX_K 16

static const struct {
    const char *name;
    enum lazy_policy policy;
    uint32_t flags;
} variants[] = {
    { "skip_lazy", LAZY_SKIP, 0 },
    { "ipi_all", LAZY_IPI_ALL, 0 },
    { "freed_tables", LAZY_SKIP, FLUSH_FREED_TABLES },
    { "xen_running", LAZY_XEN_RUNNING, 0 },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

struct lazy_state {
    struct shootdown sd;
    struct target_set ts;
    uint32_t *order, norder;
    uint32_t ks[MAX_K], nks;
    uint64_t *lat, *catchup, *base;
    struct plan plan; /* which lazy counts run_budget_s leaves (all without planning) */
};

static bool lz_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    (void)emulated; /* its full flushes are Linux's CR3 writes: nothing emulated */
    return runner_need_test_region(r, reason, cap) && runner_need_user_mappings(r, reason, cap) &&
           runner_need_cpus(r, 2, reason, cap);
}

static bool lz_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct lazy_state *st = mem_zalloc(sizeof(*st));
    uint32_t samples = runner_samples(r), k;
    if (!st)
        return false;
    *state = st;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    st->order = mem_alloc(r->smp->count * sizeof(uint32_t));
    st->lat = mem_alloc(samples * sizeof(uint64_t));
    st->catchup = mem_alloc(samples * sizeof(uint64_t));
    st->base = mem_alloc(exp_baseline_count(r) * sizeof(uint64_t));
    if (!st->order || !st->lat || !st->catchup || !st->base)
        return false;
    st->norder = runner_targets_in_topology_order(r, 0, st->order, r->smp->count);
    st->ks[st->nks++] = 0;
    if (st->norder <= 8) {
        for (k = 1; k <= st->norder; k++)
            st->ks[st->nks++] = k;
    } else {
        st->nks += runner_power_series(st->norder, st->ks + 1, MAX_K - 1);
    }
    if (MUTANT(grid_truncated))
        st->nks = 1; /* lazy=0 only */
    return point_list_reserve(&rec->results, st->nks * NVARIANTS);
}

/*
 * One point: k lazy CPUs at the end of the target list, one policy, with
 * `samples` after `warmup` (the pilot: no samples, no baseline).
 */
static bool measure(struct runner *r, struct lazy_state *st, uint32_t k, uint32_t v,
                    uint32_t samples, uint32_t warmup, struct stats *lat, struct stats *catchup,
                    struct stats *base)
{
    struct shootdown *sd = &st->sd;
    uint32_t n = st->ts.n, i, nbase = samples ? exp_baseline_count(r) : 0;
    const uint32_t *lazy = st->ts.cpus + (n - k);
    sd->lazy = variants[v].policy;
    if (!shootdown_sync_all(sd))
        return false;
    target_set_start(r, &st->ts);
    /* prime: every CPU holds the translation, as a lazy CPU still does */
    if (!shootdown_verify_cpus(sd, st->ts.cpus, n, 0, 1, false))
        goto lost;
    shootdown_set_lazy(sd, lazy, k, true);
    for (i = 0; i < warmup + samples; i++) {
        uint64_t t, c = 0;
        bool freed = (variants[v].flags & FLUSH_FREED_TABLES) != 0;
        if (freed)
            testmem_replace_table(sd->tm, 0, 1);
        else
            testmem_flip(sd->tm, 0, 1);
        t = shootdown_flush(sd, st->ts.cpus, n, ORDER_CONCURRENT, 0, 1,
                            FLUSH_VERIFY | variants[v].flags);
        /* Linux frees the tables once the flush is complete (tlb_finish_mmu()) */
        if (freed)
            testmem_free_table(sd->tm);
        if (!t || !shootdown_wait_verified(sd))
            goto lost;
        if (k && !shootdown_switch_back(sd, lazy, k, &c))
            goto lost;
        if (i >= warmup) {
            st->lat[i - warmup] = t;
            st->catchup[i - warmup] = c;
        }
    }
    /* the same policy and lazy set with nothing to invalidate */
    if (!exp_baseline(sd, st->ts.cpus, n, variants[v].flags, st->base, nbase, base))
        goto lost;
    target_set_stop(r, &st->ts);
    shootdown_set_lazy(sd, lazy, k, false);
    stats_from_array(st->lat, samples, lat);
    stats_from_array(st->catchup, samples, catchup);
    return true;
lost:
    target_set_stop(r, &st->ts);
    shootdown_set_lazy(sd, lazy, k, false);
    return false;
}

/* The CPUs still usable, in topology order, as the target set; false if some were lost. */
static bool lz_targets(struct runner *r, struct lazy_state *st)
{
    uint32_t i, n = 0;
    for (i = 0; i < st->norder; i++)
        if (smp_usable(r->smp, st->order[i]))
            st->ts.cpus[n++] = st->order[i];
    st->ts.n = n;
    return n == st->norder;
}

/*
 * The pilot (run_budget_s, core/plan.h; short then long runs, timed) of warm-up
 * iterations of ipi_all with no lazy CPU and with the most; every policy
 * is taken to cost what ipi_all does (it interrupts the most CPUs), and the
 * cost as linear in the lazy count (each lazy CPU switches back).
 */
struct lz_pilot {
    const struct lazy_state *st;
    uint64_t none, most; /* ticks per iteration */
};

static uint64_t lz_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct lz_pilot *pl = ctx;
    uint64_t kn = pl->st->ks[pl->st->nks - 1], k = pl->st->ks[row];
    (void)col;
    if (kn == 0 || pl->most <= pl->none)
        return pl->none;
    return pl->none + (pl->most - pl->none) * k / kn;
}

struct lz_pilot_point {
    struct lazy_state *st;
    uint32_t k;
};

static bool lz_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct lz_pilot_point *pp = ctx;
    struct stats unused[3];
    uint64_t t0 = tsc_now();
    if (!measure(r, pp->st, pp->k, 1 /* ipi_all */, 0, iterations, &unused[0], &unused[1],
                 &unused[2]))
        return false;
    *ticks = tsc_now() - t0;
    return true;
}

static bool lz_plan(struct runner *r, struct experiment_record *rec, struct lazy_state *st)
{
    struct lz_pilot pilot = { st, 0, 0 };
    struct plan_request q;
    uint64_t fixed[2] = { 0, 0 };
    uint32_t i;
    mem_zero(&q, sizeof(q));
    for (i = 0; i < 2 && r->plan_share_ticks; i++) {
        struct lz_pilot_point pp = { st, i ? st->ks[st->nks - 1] : 0 };
        if (!lz_targets(r, st))
            rec->partial = true;
        if (pp.k > st->ts.n ||
            !runner_pilot(r, lz_time, &pp, i ? &pilot.most : &pilot.none, &fixed[i])) {
            rec->partial = true;
            record_note(rec, "the pilot point (%u lazy CPUs) failed", pp.k);
            return false;
        }
    }
    q.point_ticks = fixed[0] > fixed[1] ? fixed[0] : fixed[1];
    q.baseline_div = 4;
    q.nrows = st->nks;
    q.ncols = (uint32_t)NVARIANTS;
    q.thin_rows = true; /* the four policies are what the experiment compares: all kept */
    q.iter_ticks = lz_cost;
    q.ctx = &pilot;
    return runner_plan(r, rec, &q, "lazy counts", "variants", 1, &st->plan);
}

static void lz_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct lazy_state *st = state;
    uint32_t ki, v, done = 0, planned = st->nks * (uint32_t)NVARIANTS;
    if (!lz_plan(r, rec, st))
        goto out;
    planned = st->plan.rows * (uint32_t)NVARIANTS;
    for (ki = 0; ki < st->nks; ki++) {
        if (!plan_kept(st->nks, st->plan.row_stride, ki))
            continue;
        for (v = 0; v < NVARIANTS; v++) {
            struct stats lat, catchup, base;
            struct result_point *pt;
            uint32_t k = st->ks[ki], n;
            if (!runner_budget_ok(r))
                goto out;
            runner_progress(r, done++, planned);
            if (!lz_targets(r, st))
                rec->partial = true;
            n = st->ts.n;
            if (k > n)
                continue; /* fewer CPUs left than this point needs */
            if (!measure(r, st, k, v, runner_samples(r), runner_warmup(r), &lat, &catchup,
                         &base)) {
                rec->partial = true;
                continue;
            }
            pt = point_list_add(&rec->results);
            if (!pt)
                goto out;
            point_param_str(pt, "variant", variants[v].name);
            point_param_num(pt, "lazy", k);
            point_param_num(pt, "targets", n);
            point_metric(pt, "latency", &lat);
            point_metric(pt, "catchup", &catchup);
            point_metric(pt, "baseline", &base);
        }
    }
out:
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, planned, "points");
}

static void lz_cleanup(struct runner *r, void *state)
{
    struct lazy_state *st = state;
    (void)r;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    mem_free(st->order);
    mem_free(st->lat);
    mem_free(st->catchup);
    mem_free(st->base);
    mem_free(st);
}

const struct experiment exp_shootdown_lazy = {
    .id = "shootdown_lazy",
    .title = "Skipping lazy-TLB CPUs (Linux should_flush_tlb, Xen is_running) vs interrupting them",
    .x_axis = "lazy",
    .series = "variant",
    .supported = lz_supported,
    .prepare = lz_prepare,
    .run = lz_run,
    .cleanup = lz_cleanup,
};
