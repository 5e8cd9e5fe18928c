/*
 * ipi_broadcast: interrupting k CPUs at once and waiting for all of them.
 *
 * Method. The BSP initiates; k targets, chosen in topology order (SMT
 * sibling, same package, then the rest), spin with interrupts enabled.
 * A sample reads every target's ping counter, takes a timestamp, sends the
 * IPIs and spins until every counter has moved, then takes the second
 * timestamp (both on the BSP's TSC). k runs over 1, 2, 4, ... N-1.
 *
 *   unicast_each  one ICR write per target after one fence (method.icr_fence),
 *                 as Linux sends a call-function IPI mask in x2APIC
 *                 physical mode;
 *   shorthand     a single ICR write with the all-but-self shorthand; only
 *                 for k = N-1 with every CPU usable, since it reaches every
 *                 other CPU whether it takes part or not;
 *   cluster       x2APIC cluster mode (issue 21), as Linux's x2apic_cluster
 *                 sends a mask: the same k targets sorted by APIC ID, one
 *                 logical ICR write per cluster of 16 APIC IDs holding
 *                 targets (arch/x86/include/asm/apic.h); value `icr_writes` says how
 *                 many. Only in x2APIC mode (a note says why not else).
 *
 * The baseline is the same loop without the IPIs (reading k remote lines).
 */
#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/run/experiments.h"
#include "core/machine/ipi.h"
#include "core/run/runner.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

struct bc_state {
    uint32_t *order;       /* targets in topology order */
    uint32_t norder;
    uint32_t counts[32];   /* k values */
    uint32_t ncounts;
    uint64_t *before;      /* per target: counter value before the sample */
    uint64_t *latency, *baseline;
    uint32_t *by_apic;     /* cluster points: the k targets sorted by APIC ID */
    bool cluster;          /* cluster points are measured (x2APIC mode) */
    struct plan plan; /* which counts run_budget_s leaves (all without planning) */
};

enum bc_mode { BC_UNICAST, BC_SHORTHAND, BC_CLUSTER };

static bool bc_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    (void)emulated;
    return runner_need_cpus(r, 2, reason, cap);
}

static bool bc_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct bc_state *st = mem_zalloc(sizeof(*st));
    uint32_t samples = runner_samples(r);
    if (!st)
        return false;
    *state = st;
    st->order = mem_alloc(r->smp->count * sizeof(uint32_t));
    st->before = mem_alloc(r->smp->count * sizeof(uint64_t));
    st->by_apic = mem_alloc(r->smp->count * sizeof(uint32_t));
    st->latency = mem_alloc(samples * sizeof(uint64_t));
    st->baseline = mem_alloc(samples * sizeof(uint64_t));
    if (!st->order || !st->before || !st->latency || !st->baseline || !st->by_apic)
        return false;
    st->norder = runner_targets_in_topology_order(r, 0, st->order, r->smp->count);
    st->ncounts = runner_power_series(st->norder, st->counts, 32);
    return point_list_reserve(&rec->results, 2 * st->ncounts + 1);
}



/* One sample: returns the elapsed ticks, or 0 when a target did not answer (*lost set). */
static uint64_t sample(struct smp *s, struct bc_state *st, uint32_t k, enum bc_mode mode,
                       uint32_t *lost)
{
    uint32_t i;
    uint64_t t0, t1;
    for (i = 0; i < k; i++)
        st->before[i] = load_acquire(&s->cpu[st->order[i]]->ping.count);
    t0 = tsc_open();
    if (mode == BC_SHORTHAND)
        apic_send_ipi_all_but_self(VEC_PING);
    else if (mode == BC_CLUSTER)
        ipi_send_cluster(s, st->by_apic, k, VEC_PING);
    else
        ipi_send_each(s, st->order, k, VEC_PING);
    for (i = 0; i < k; i++) {
        if (!smp_wait_answer(s, st->order[i], &s->cpu[st->order[i]]->ping.count, ANSWER_NE,
                             st->before[i], t0 + s->timeout_ticks)) {
            *lost = i;
            return 0;
        }
    }
    t1 = tsc_close();
    return t1 - t0;
}

/*
 * One point: warmup + samples broadcasts to the first k CPUs. No samples:
 * the pilot, recording nothing; returns the ticks of the broadcast loop.
 */
static uint64_t measure_point(struct runner *r, struct experiment_record *rec,
                              struct bc_state *st, uint32_t k, enum bc_mode mode,
                              uint32_t samples, uint32_t warmup)
{
    struct smp *s = r->smp;
    uint32_t i, lost = 0;
    uint64_t start = tsc_open(), ticks;
    volatile uint32_t stop = 0;
    struct spin_arg spin = { .stop = &stop,
                             .deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000) };
    struct result_point *pt;
    struct stats lat, base;
    bool ok = true;

    static const char *const names[] = { "unicast_each", "shorthand", "cluster" };
    if (mode == BC_CLUSTER) { /* the first k of the order, by APIC ID */
        mem_copy(st->by_apic, st->order, k * sizeof(uint32_t));
        ipi_sort_by_apic(s, st->by_apic, k);
    }
    ipi_start_spinners(s, st->order, k, &spin);
    for (i = 0; i < warmup + samples && ok; i++) {
        uint64_t t = sample(s, st, k, mode, &lost);
        if (!t) {
            smp_mark_unanswered(s, st->order[lost], "ping IPI", &s->cpu[st->order[lost]]->ping.count,
                                st->before[lost] + 1);
            ok = false;
        } else if (i >= warmup) {
            st->latency[i - warmup] = t;
        }
    }
    ticks = tsc_close() - start;
    for (i = 0; i < samples && ok; i++) {
        uint64_t t0 = tsc_open();
        uint32_t j;
        for (j = 0; j < k; j++)
            (void)load_acquire(&s->cpu[st->order[j]]->ping.count);
        st->baseline[i] = tsc_close() - t0;
    }
    ipi_stop_spinners(s, st->order, k, &spin);
    if (!ok) {
        rec->partial = true;
        return 0;
    }
    if (!samples)
        return ticks;
    stats_from_array(st->latency, samples, &lat);
    stats_from_array(st->baseline, samples, &base);
    pt = point_list_add(&rec->results);
    if (!pt)
        return ticks;
    point_param_str(pt, "mode", names[mode]);
    point_param_num(pt, "targets", k);
    point_metric(pt, "latency", &lat);
    point_metric(pt, "baseline", &base);
    if (mode == BC_CLUSTER)
        point_value(pt, "icr_writes",
                    (int64_t)apic_cluster_writes(st->by_apic, k, s->apic_id, UINT32_MAX) * 1000);
    return ticks;
}

/*
 * The pilot (run_budget_s, core/run/plan.h; short then long runs, timed) of warm-up
 * broadcasts to the fewest and to the most targets; the cost in between is
 * taken as linear in k. The shorthand point, measured after the largest
 * count, is taken to cost what the largest count does.
 */
struct bc_pilot {
    const struct bc_state *st;
    uint64_t fewest, most; /* ticks per iteration */
};

static uint64_t bc_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct bc_pilot *pl = ctx;
    const struct bc_state *st = pl->st;
    uint64_t k0 = st->counts[0], kn = st->counts[st->ncounts - 1], k = st->counts[row], c;
    c = pl->fewest;
    if (kn > k0 && pl->most > pl->fewest)
        c += (pl->most - pl->fewest) * (k - k0) / (kn - k0);
    /* the shorthand point goes with the last; column 1, cluster mode, costs as unicast */
    return row == st->ncounts - 1 && col == 0 ? 2 * c : c;
}

struct bc_pilot_point {
    struct experiment_record *rec;
    struct bc_state *st;
    uint32_t k;
};

static bool bc_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct bc_pilot_point *pp = ctx;
    *ticks = measure_point(r, pp->rec, pp->st, pp->k, BC_UNICAST, 0, iterations);
    return *ticks != 0;
}

static bool bc_plan(struct runner *r, struct experiment_record *rec, struct bc_state *st)
{
    struct bc_pilot pilot = { st, 0, 0 };
    struct plan_request q;
    uint64_t fixed[2] = { 0, 0 };
    mem_zero(&q, sizeof(q));
    if (r->plan_share_ticks && st->ncounts) {
        struct bc_pilot_point few = { rec, st, st->counts[0] };
        struct bc_pilot_point most = { rec, st, st->counts[st->ncounts - 1] };
        if (most.k > st->norder)
            few.k = most.k = st->norder;
        if (!runner_pilot(r, bc_time, &few, &pilot.fewest, &fixed[0]) ||
            !runner_pilot(r, bc_time, &most, &pilot.most, &fixed[1]))
            return false; /* a target stopped answering: measure_point() marked it */
    }
    q.point_ticks = fixed[0] > fixed[1] ? fixed[0] : fixed[1];
    q.nrows = st->ncounts;
    q.ncols = st->cluster ? 2 : 1; /* unicast_each, and cluster where the APIC has it */
    q.thin_rows = true;
    q.iter_ticks = bc_cost;
    q.ctx = &pilot;
    if (!runner_plan(r, rec, &q, "target counts", st->cluster ? "modes" : NULL, 1, &st->plan))
        return false;
    if (rec->plan.applied) { /* the shorthand point, planned with the last count */
        rec->plan.points_planned++;
        rec->plan.samples_planned += runner_samples(r);
    }
    return true;
}

static bool all_usable(struct runner *r)
{
    uint32_t i;
    for (i = 0; i < r->smp->count; i++)
        if (r->smp->cpu[i] && !smp_usable(r->smp, i))
            return false;
    return true;
}

static void bc_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct bc_state *st = state;
    uint32_t c, done = 0;
    char why[RECORD_REASON_LEN];
    st->cluster = ipi_cluster_available(why, sizeof(why));
    if (!st->cluster)
        record_note(rec, "cluster mode not measured: %s", why);
    if (!bc_plan(r, rec, st))
        return;
    for (c = 0; c < st->ncounts; c++) {
        uint32_t k = st->counts[c], i, usable = 0;
        if (!plan_kept(st->ncounts, st->plan.row_stride, c))
            continue;
        if (!runner_budget_ok(r))
            break;
        runner_progress(r, done++, st->plan.rows * (1 + st->cluster) + 1);
        /* CPUs lost on the way are dropped from the order; k shrinks with them */
        for (i = 0; i < st->norder; i++)
            if (smp_usable(r->smp, st->order[i]))
                st->order[usable++] = st->order[i];
        if (usable < st->norder) {
            st->norder = usable;
            rec->partial = true;
        }
        if (k > st->norder)
            k = st->norder;
        if (k == 0)
            break;
        measure_point(r, rec, st, k, BC_UNICAST, runner_samples(r), runner_warmup(r));
        if (st->cluster && runner_budget_ok(r))
            measure_point(r, rec, st, k, BC_CLUSTER, runner_samples(r), runner_warmup(r));
    }
    if (st->norder > 0 && all_usable(r) && runner_budget_ok(r) &&
        st->norder + 1 == r->smp->count && cpu_list_contains(&r->run->cfg.cpus, 0) &&
        r->run->cfg.cpus.all)
        measure_point(r, rec, st, st->norder, BC_SHORTHAND, runner_samples(r), runner_warmup(r));
    else
        record_note(rec, "shorthand (all-but-self) not measured: it needs every CPU usable and "
                         "taking part");
    if (rec->partial)
        record_escalate(rec, RESULT_ERROR, "a target stopped answering; %u points measured",
                        rec->results.count);
}

static void bc_cleanup(struct runner *r, void *state)
{
    struct bc_state *st = state;
    (void)r;
    if (!st)
        return;
    mem_free(st->order);
    mem_free(st->before);
    mem_free(st->by_apic);
    mem_free(st->latency);
    mem_free(st->baseline);
    mem_free(st);
}

const struct experiment exp_ipi_broadcast = {
    .id = "ipi_broadcast",
    .title = "IPI to k CPUs and wait for all: one ICR write each, x2APIC cluster mode, the "
             "all-but-self shorthand",
    .x_axis = "targets",
    .series = "mode",
    .supported = bc_supported,
    .prepare = bc_prepare,
    .run = bc_run,
    .cleanup = bc_cleanup,
};
