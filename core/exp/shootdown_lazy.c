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
 * The lazy CPUs idle the way a lazy CPU does, in the idle loop (parked:
 * each shootdown waits until they sleep, core/machine/ipi.h), not
 * spinning, whatever target_wait says: Linux makes a CPU lazy when it goes
 * idle, and the wake-up is what ipi_all pays and skipping lazy CPUs
 * avoids. Linux's idle loop sleeps in the deepest C-state it expects to
 * stay in, so they sleep in MONITOR/MWAIT with the deepest hint
 * ipi_target_state verified in this run (residency `reached`; it runs
 * just before for that), each settling for that state's target residency
 * before a timed shootdown; without one (not run, nothing reached: under
 * a hypervisor, on AMD without residency counters) in "sti; hlt", settling
 * IPI_SETTLE_US. method.lazy_idle and a note say which and why (issue 32). The other targets wait as configured (spinning; halted under a
 * hypervisor), `targets_doing` = wait; with spinning targets one more row,
 * at the largest lazy count that leaves a target running, has them run a
 * user-mode-like busy loop over their own 16-page working set instead
 * (`busy_ws`, core/machine/ipi.h).
 * After each sample the lazy CPUs "switch back" (an IPI runs the catch-up
 * on them), verify the page, and go lazy again. latency is the initiator's
 * shootdown time; catchup is the slowest lazy CPU's switch-back cost (its
 * own TSC). Points: every k from 0 to N-1 (a power series above 8 CPUs),
 * and the busy_ws row.
 * The four policies of a k are measured together: each iteration takes one
 * sample of each, in an order drawn per iteration from the run's order
 * seed (exp_variant_order(): none always first, so drift and the state one
 * leaves favour none); the points keep those samples (core/run/record.h: the
 * samples of an iteration are pairs) and record in `ran_first` how many
 * iterations each began. The baseline is the same policy and lazy set with
 * nothing to invalidate, after the samples.
 *
 * Verification: every target and every lazy CPU after its catch-up reads
 * the page; with freed_tables the lazy CPUs also read it with the targets,
 * before any switch-back, since Linux interrupted them (a lazy CPU left out
 * reads through its old TLB entry or its paging-structure entry for the
 * freed table). An old signature is FAILURE.
 *
 * IPIs as Linux sends them on the machine (issue 32; core/exp/common.h,
 * exp_linux_ipis): in x2APIC cluster mode where Linux would use it, the
 * awake and the lazy targets each sorted by APIC ID (one logical ICR write
 * per cluster; `ipi_mode` x2apic_cluster on the points), else one physical
 * ICR write per target.
 *
 * Planned (run_budget_s, core/run/plan.h): fewer samples, then fewer lazy counts
 * (ends kept, then the most alone); the four policies are always measured.
 */
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/idle_states.h"
#include "core/machine/timing.h"

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
    bool busy[MAX_K];  /* the row's other targets run the busy loop (targets_doing busy_ws) */
    uint8_t *ws;       /* their working sets: SPIN_WS_BYTES per CPU index */
    uint64_t *lat[NVARIANTS], *catchup[NVARIANTS], *base;
    uint32_t first[NVARIANTS]; /* iterations each policy ran first */
    uint32_t lazy_idled;       /* lazy CPUs that slept in the idle loop during the last point */
    uint64_t *sleeps;          /* scratch: each lazy CPU's idle sleeps before the point */
    struct plan plan; /* which lazy counts run_budget_s leaves (all without planning) */
};

static bool lz_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    (void)emulated; /* its full flushes are Linux's CR3 writes: nothing emulated */
    return runner_need_test_region(r, reason, cap) && runner_need_user_mappings(r, reason, cap) &&
           runner_need_cpus(r, 2, reason, cap);
}

/* Whether experiment `id` ran in this run (before this one). */
static bool ran_before(const struct runner *r, const char *id)
{
    uint32_t i;
    for (i = 0; i < r->run->experiment_count; i++)
        if (str_eq(r->run->experiments[i].id, id))
            return r->run->experiments[i].ran;
    return false;
}

/* The lazy CPUs' idle state (the method above), into method.lazy_idle, st's spin and a note. */
static void lz_choose_idle(struct runner *r, struct experiment_record *rec, struct lazy_state *st)
{
    struct lazy_idle_info *li = &r->run->method.lazy_idle;
    struct idle_settle settle;
    li->set = true;
    if (li->verified && !MUTANT(lazy_hlt_over_mwait)) {
        idle_settle_mwait(&r->run->cpu, li->verified_hint, &settle);
        li->mwait = true;
        li->hint = li->verified_hint;
        li->settle_us = settle.us;
        fmt_into(li->state, sizeof(li->state), "%s", li->verified_state);
        fmt_into(li->reason, sizeof(li->reason),
                 "the deepest MWAIT state ipi_target_state verified in this run (residency "
                 "reached: %s); each "
                 "lazy CPU sleeps %u us (%s) before a timed shootdown", li->verified_reason,
                 settle.us, settle.source);
        st->ts.lazy_spin.idle_mwait = true;
        st->ts.lazy_spin.mwait_hint = li->hint;
    } else {
        li->mwait = false;
        li->settle_us = IPI_SETTLE_US;
        fmt_into(li->state, sizeof(li->state), "hlt");
        fmt_into(li->reason, sizeof(li->reason), "%s; \"sti; hlt\", each lazy CPU asleep %u us "
                 "before a timed shootdown",
                 !ran_before(r, "ipi_target_state")
                     ? "ipi_target_state did not run, so no MWAIT state was verified"
                     : "ipi_target_state verified no MWAIT state (none reached its residency)",
                 IPI_SETTLE_US);
    }
    record_note(rec, "lazy CPUs idle in %s: %s", li->state, li->reason);
}

static bool lz_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct lazy_state *st = mem_zalloc(sizeof(*st));
    uint32_t samples = runner_samples(r), k, v;
    if (!st)
        return false;
    *state = st;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    exp_linux_ipis(r, rec, &st->sd);
    st->order = mem_alloc(r->smp->count * sizeof(uint32_t));
    st->base = mem_alloc(exp_baseline_count(r) * sizeof(uint64_t));
    st->ws = mem_zalloc((size_t)r->smp->count * SPIN_WS_BYTES);
    st->sleeps = mem_alloc(r->smp->count * sizeof(uint64_t));
    if (!st->order || !st->base || !st->ws || !st->sleeps)
        return false;
    st->ts.spin.ws = st->ws;
    lz_choose_idle(r, rec, st);
    for (v = 0; v < NVARIANTS; v++) {
        st->lat[v] = mem_alloc(samples * sizeof(uint64_t));
        st->catchup[v] = mem_alloc(samples * sizeof(uint64_t));
        if (!st->lat[v] || !st->catchup[v])
            return false;
    }
    st->norder = runner_targets_in_topology_order(r, 0, st->order, r->smp->count);
    st->ks[st->nks++] = 0;
    if (st->norder <= 8) {
        for (k = 1; k <= st->norder; k++)
            st->ks[st->nks++] = k;
    } else {
        st->nks += runner_power_series(st->norder, st->ks + 1, MAX_K - 1);
    }
    /*
     * The busy row: the largest lazy count below every target, so some target
     * runs. Not under halted waits (a hypervisor, target_wait): there busy
     * vCPUs starve the ones with work, as spinning ones do (docs/experiments.md).
     */
    if (st->nks >= 2 && st->nks < MAX_K && !r->smp->halt_waits) {
        st->ks[st->nks] = st->ks[st->nks - 2];
        st->busy[st->nks++] = true;
    } else if (r->smp->halt_waits) {
        record_note(rec, "no busy_ws row: targets halt between requests (target_wait hlt), "
                         "and busy vCPUs would starve the ones with work");
    }
    if (MUTANT(grid_truncated))
        st->nks = 1; /* lazy=0 only */
    return point_list_reserve(&rec->results, st->nks * NVARIANTS) &&
           record_reserve_kept(rec, st->nks * NVARIANTS, r->run->cfg.samples);
}

/*
 * The k CPUs lazy (Linux's is_lazy) and descheduled (Xen's is_running = 0)
 * at once: the policies of an iteration each read their own flag, and each
 * policy's switch-back restores only its own (core/machine/shootdown_verify.c).
 */
static void set_lazy(struct shootdown *sd, const uint32_t *lazy, uint32_t k, bool on)
{
    enum lazy_policy keep = sd->lazy;
    sd->lazy = LAZY_SKIP;
    shootdown_set_lazy(sd, lazy, k, on);
    sd->lazy = LAZY_XEN_RUNNING;
    shootdown_set_lazy(sd, lazy, k, on);
    sd->lazy = keep;
}

/* What one policy measured at one k. */
struct lz_policy {
    struct stats lat, catchup, base;
};

/*
 * The points of k lazy CPUs at the end of the target list: the policies of
 * `mask` (bit v: variants[v]) interleaved, `samples` after `warmup` (the
 * pilot: no samples, no baseline). st->lat[v] keeps policy v's samples in
 * iteration order until the points are added.
 */
static bool measure(struct runner *r, struct lazy_state *st, uint32_t k, bool busy, uint32_t mask,
                    uint32_t samples, uint32_t warmup, struct lz_policy out[NVARIANTS])
{
    struct shootdown *sd = &st->sd;
    uint32_t n = st->ts.n, i, j, nv = 0, nbase = samples ? exp_baseline_count(r) : 0;
    uint32_t vs[NVARIANTS], ord[NVARIANTS];
    const uint32_t *lazy = st->ts.cpus + (n - k);
    uint64_t *sleeps = st->sleeps;
    for (j = 0; j < NVARIANTS; j++) {
        st->first[j] = 0;
        if (mask & (1u << j))
            vs[nv++] = j;
    }
    if (!shootdown_sync_all(sd))
        return false;
    st->ts.nlazy = k; /* the last k targets: lazy, in the idle loop */
    if (MUTANT(lazy_cpus_spin))
        st->ts.lazy_spin.mode = SPIN_AS_CONFIGURED; /* they wait like the others: spinning */
    st->ts.spin.mode = busy ? SPIN_BUSY_WS : SPIN_AS_CONFIGURED;
    for (j = 0; j < k; j++)
        sleeps[j] = load_acquire(&sd->smp->cpu[lazy[j]]->idle.idle_sleeps);
    target_set_start(r, &st->ts);
    /* prime: every CPU holds the translation, as a lazy CPU still does */
    if (!shootdown_verify_cpus(sd, st->ts.cpus, n, 0, 1, false))
        goto lost;
    set_lazy(sd, lazy, k, true);
    for (i = 0; i < warmup + samples; i++) {
        exp_variant_order(r, k + (busy ? 1000u : 0u), i, nv, ord);
        if (i >= warmup)
            st->first[vs[ord[0]]]++;
        for (j = 0; j < nv; j++) {
            uint32_t v = vs[ord[j]];
            uint64_t t, c = 0;
            bool freed = (variants[v].flags & FLUSH_FREED_TABLES) != 0;
            sd->lazy = variants[v].policy; /* read by targets after the request's release */
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
            /* the lazy CPUs catch up and go lazy again: the next sample finds them as before */
            if (k && !shootdown_switch_back(sd, lazy, k, &c))
                goto lost;
            if (i >= warmup) {
                st->lat[v][i - warmup] = t;
                st->catchup[v][i - warmup] = c;
            }
        }
    }
    /* each policy with the same lazy set and nothing to invalidate */
    for (j = 0; j < nv; j++) {
        uint32_t v = vs[j];
        sd->lazy = variants[v].policy;
        if (!exp_baseline(sd, st->ts.cpus, n, variants[v].flags, st->base, nbase, &out[v].base))
            goto lost;
    }
    target_set_stop(r, &st->ts);
    set_lazy(sd, lazy, k, false);
    /* the proof they idled: each slept in the idle loop (its own count, read once it stopped) */
    st->lazy_idled = 0;
    for (j = 0; j < k; j++)
        st->lazy_idled += load_acquire(&sd->smp->cpu[lazy[j]]->idle.idle_sleeps) != sleeps[j];
    return true;
lost:
    target_set_stop(r, &st->ts);
    set_lazy(sd, lazy, k, false);
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
 * The pilot (run_budget_s, core/run/plan.h; short then long runs, timed) of warm-up
 * iterations of ipi_all with no lazy CPU and with the most; every policy
 * is taken to cost what ipi_all does (it interrupts the most CPUs), and the
 * cost as linear in the lazy count (each lazy CPU switches back).
 */
/* The most lazy CPUs a row has (the busy row repeats a smaller count after it). */
static uint32_t lz_most(const struct lazy_state *st)
{
    uint32_t i, most = 0;
    for (i = 0; i < st->nks; i++)
        if (st->ks[i] > most)
            most = st->ks[i];
    return most;
}

struct lz_pilot {
    const struct lazy_state *st;
    uint64_t none, most; /* ticks per iteration */
};

static uint64_t lz_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct lz_pilot *pl = ctx;
    uint64_t kn = lz_most(pl->st), k = pl->st->ks[row];
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
    struct lz_policy unused[NVARIANTS];
    uint64_t t0 = tsc_open();
    if (!measure(r, pp->st, pp->k, false, 1u << 1 /* ipi_all */, 0, iterations, unused))
        return false;
    *ticks = tsc_close() - t0;
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
        struct lz_pilot_point pp = { st, i ? lz_most(st) : 0 };
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
    r->smp->idle_settle_us = r->run->method.lazy_idle.settle_us; /* back to 0 at cleanup */
    if (!lz_plan(r, rec, st))
        goto out;
    planned = st->plan.rows * (uint32_t)NVARIANTS;
    for (ki = 0; ki < st->nks; ki++) {
        struct lz_policy pol[NVARIANTS];
        uint32_t k = st->ks[ki], n, samples, run;
        if (!plan_kept(st->nks, st->plan.row_stride, ki))
            continue;
        if (!runner_budget_ok(r))
            goto out;
        runner_progress(r, done, planned);
        done += (uint32_t)NVARIANTS;
        if (!lz_targets(r, st))
            rec->partial = true;
        n = st->ts.n;
        if (k > n)
            continue; /* fewer CPUs left than this point needs */
        if (st->sd.cluster_ipis) { /* the awake targets and the lazy ones, each by APIC ID */
            ipi_sort_by_apic(r->smp, st->ts.cpus, n - k);
            ipi_sort_by_apic(r->smp, st->ts.cpus + (n - k), k);
        }
        samples = runner_samples(r);
        if (!measure(r, st, k, st->busy[ki], (1u << NVARIANTS) - 1, samples, runner_warmup(r),
                     pol)) {
            rec->partial = true;
            continue;
        }
        run = record_paired_run(rec);
        for (v = 0; v < NVARIANTS; v++) {
            struct result_point *pt = point_list_add(&rec->results);
            point_keep_samples(rec, pt, st->lat[v], samples, run); /* iteration order */
            stats_from_array(st->lat[v], samples, &pol[v].lat);
            stats_from_array(st->catchup[v], samples, &pol[v].catchup);
            if (!pt)
                goto out;
            point_param_str(pt, "variant", variants[v].name);
            point_param_num(pt, "lazy", k);
            point_param_num(pt, "targets", n);
            point_param_str(pt, "targets_doing", st->busy[ki] ? "busy_ws" : "wait");
            if (st->sd.cluster_ipis)
                point_param_str(pt, "ipi_mode", "x2apic_cluster");
            point_value(pt, "lazy_idled", (int64_t)st->lazy_idled * 1000);
            /* every target, the lazy ones too: they are the mask's CPUs whatever a policy skips */
            point_class_mix(pt, r->smp->topo, 0, st->ts.cpus,
                            MUTANT(class_mix_lazy_awake_only) ? n - k : n);
            point_metric(pt, "latency", &pol[v].lat);
            point_metric(pt, "catchup", &pol[v].catchup);
            point_metric(pt, "baseline", &pol[v].base);
            exp_value_ran_first(pt, st->first[v]);
        }
    }
out:
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, planned, "points");
}

static void lz_cleanup(struct runner *r, void *state)
{
    struct lazy_state *st = state;
    uint32_t v;
    r->smp->idle_settle_us = 0;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    mem_free(st->order);
    for (v = 0; v < NVARIANTS; v++) {
        mem_free(st->lat[v]);
        mem_free(st->catchup[v]);
    }
    mem_free(st->base);
    mem_free(st->ws);
    mem_free(st->sleeps);
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
