/*
 * ipi_roundtrip: what one IPI costs between two given CPUs.
 *
 * Method. The target spins with interrupts enabled (a busy CPU, as the
 * targets of a TLB shootdown are). The initiator reads the counter in the
 * target's ping line, takes a timestamp, writes the ICR, and spins until the
 * target's handler has bumped the counter; a second timestamp closes the
 * sample. Both timestamps come from the initiator's own TSC: two CPUs' clocks
 * are never subtracted. The time covers ICR write, delivery, interrupt entry,
 * the handler's store and the cache-line transfer back: the floor under every
 * IPI-based shootdown. `send` is the ICR write alone (a clock read right
 * after it, inside the window: one timer overhead more in `latency`).
 * Warm-up iterations are discarded. The baseline is the same loop without
 * the IPI (timestamps plus one read of the remote line).
 *
 * A halted target is asleep at every ping, as at every shootdown's IPI:
 * before each ping the initiator waits until the target has parked in
 * "sti; hlt" since its last interrupt and 10 us more (core/machine/ipi.h,
 * ipi_settle_targets). Pinging again as soon as the last ping was
 * acknowledged (before issue 20) often found the target's vCPU still awake
 * or on its way to sleep: under QEMU 10 TCG, SMP=2, round trips from about
 * 5 K ticks, or p50s 6-8x a 1-page shootdown's in the same launch, whose
 * targets always slept (docs/experiments.md, "Honest numbers": the numbers after).
 *
 * The target's side, as Linux's smp_call_function_single() target runs it:
 * interrupt entry, EOI, then the store that acknowledges (Linux EOIs in
 * sysvec_call_function_single before csd_unlock too). Nothing else runs
 * before the acknowledgement. A halted target (method.target_wait = hlt,
 * under a hypervisor) sleeps in "sti; hlt" and the ping wakes it; its
 * safety-net timer is armed once, periodic, for the whole experiment
 * (core/machine/ipi.c), and so is the BSP's while it waits as a target
 * (core/machine/smp.c). Where the halted round trip lost time (issue 10; QEMU 10
 * TCG, q35, -cpu max, SMP=2, p50 in TSC ticks, median of 3 launches on a
 * loaded 2-core host, where launches differ by up to 2x):
 *   - a one-shot timer armed before and disarmed after every HLT: five
 *     APIC writes per ping, each an exit into the emulated APIC, and the
 *     next ping of the series waited behind them. Worst where the BSP was
 *     the target (it re-armed in its wait loop): pair 1->0 114 K -> 54 K;
 *     pair 0->1 57 K -> 54 K;
 *   - the APIC mode: xAPIC's IPI is an MMIO read of the ICR (busy bit) and
 *     two MMIO writes, each trapped; x2APIC's is one WRMSR, and the EOI a
 *     WRMSR too. apic=auto now takes x2APIC where the CPU has it, as Linux
 *     does: 57 K (xapic) -> 47 K (x2apic), all pairs, in one series of
 *     launches; within noise in another;
 *   - what stays is the wake-up itself: under TCG the halted vCPU's host
 *     thread sleeps until the IPI's kick wakes it. Spinning targets
 *     (target_wait=spin) show the round trip without it, but under host
 *     load a spinning vCPU thread may be descheduled and its p50 jumps to
 *     milliseconds. Linux 6.1's smp_call_function_single() on the same
 *     QEMU shape: about 38 K (idle target, halted too).
 * `make bench` (scripts/bench-overhead.sh) prints these figures.
 *
 * Pairs: every ordered pair of usable CPUs up to `ipi_pairs`; above that a
 * stratified sample, evenly spaced within each topology class (SMT sibling,
 * same L3, same package other L3, other package same NUMA node, other node,
 * other package with no SRAT: core/machine/cpu_table.h, issue 21). A summary pools samples by class: every
 * measured pair contributes the same number of samples (all of them, or an
 * evenly spaced subset of each pair's when the pool would exceed POOL_CAP;
 * core/run/class_pool.c), so no pair, early or late, weighs more than
 * another. Each summary point records its pairs and samples_per_pair.
 *
 * What failure looks like: a target that never acknowledges within
 * timeout_ms is reported hung (or slow, if it answers later) and its
 * remaining pairs are skipped; the experiment is then partial and ERROR.
 */
#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/run/class_pool.h"
#include "core/exp/protocol_steps.h"
#include "core/run/experiments.h"
#include "core/machine/ipi.h"
#include "core/run/runner.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"
#include "core/mutant.h"

#define POOL_CAP 200000u /* pooled samples kept per topology class */

struct pair {
    uint32_t initiator, target;
    enum topo_class cls;
};

struct pingpong_arg {
    struct percpu *target;
    uint32_t warmup, samples;
    uint64_t *latency, *send, *baseline;
    uint64_t timeout;
    volatile uint64_t progress;  /* iterations done: proves the initiator is alive */
    int64_t missed_count;        /* target's counter when a ping went unanswered */
};

struct rt_state {
    struct pair *pairs;
    uint32_t npairs;
    uint64_t *latency, *send, *baseline;
    uint64_t *pool[TOPO_CLASS_COUNT];
    uint32_t pool_n[TOPO_CLASS_COUNT], pool_cap[TOPO_CLASS_COUNT], pool_pairs[TOPO_CLASS_COUNT];
    uint32_t per_pair_pool;
};

/* Runs on the initiator. Returns 0, or -1 when a ping went unanswered. */
static int64_t pingpong(struct percpu *self, void *arg)
{
    struct pingpong_arg *a = arg;
    uint32_t i, total = a->warmup + a->samples;
    for (i = 0; i < total; i++) {
        uint64_t before, t0, t1, sent, deadline, settle_start = tsc_now();
        /* a halted target is asleep at every ping, as at every shootdown's IPI */
        bool settled = ipi_settle_targets(self->smp, &a->target->index, 1);
        before = load_acquire(&a->target->ping.count);
        t0 = tsc_open();
        apic_send_ipi(a->target->apic_id, VEC_PING);
        sent = tsc_close();
        /*
         * A target that never parked has had its deadline already: the ping
         * gets only the late grace, not a second timeout (a hung target cost
         * settle + ping + grace before, under QEMU 15 s of the 51 s).
         */
        deadline = settled ? t0 + a->timeout : settle_start + a->timeout;
        if (!smp_wait_answer(self->smp, a->target->index, &a->target->ping.count, ANSWER_NE,
                             before, deadline)) {
            a->missed_count = (int64_t)before;
            return -1;
        }
        t1 = tsc_close();
        if (i >= a->warmup) {
            a->latency[i - a->warmup] = t1 - t0;
            a->send[i - a->warmup] = sent - t0;
        }
        store_relaxed(&a->progress, i + 1);
    }
    for (i = 0; i < a->samples; i++) {
        uint64_t t0 = tsc_open();
        (void)load_acquire(&a->target->ping.count);
        a->baseline[i] = tsc_close() - t0;
    }
    return 0;
}

static bool rt_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    (void)emulated;
    return runner_need_cpus(r, 2, reason, cap);
}

static uint32_t usable_cpus(struct runner *r, uint32_t *out)
{
    uint32_t i, n = 0;
    for (i = 0; i < r->smp->count; i++)
        if (smp_usable(r->smp, i)) /* cpus= left-outs are not usable (runner.c) */
            out[n++] = i;
    return n;
}

/* Pairs in class order; stratified when there are more than `limit`. */
static uint32_t choose_pairs(struct runner *r, const uint32_t *cpus, uint32_t n, uint32_t limit,
                             struct pair *out)
{
    const struct cpu_table *t = r->smp->topo;
    uint64_t per_class[TOPO_CLASS_COUNT] = { 0 };
    uint32_t classes = 0, npairs = 0, i, j;
    enum topo_class c;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (i != j)
                per_class[cpu_topo_class(&t->cpus[cpus[i]], &t->cpus[cpus[j]])]++;
    for (c = TOPO_FIRST_CLASS; c < TOPO_CLASS_COUNT; c++)
        classes += per_class[c] != 0;
    for (c = TOPO_FIRST_CLASS; c < TOPO_CLASS_COUNT; c++) {
        uint64_t quota, seen = 0, taken = 0;
        if (!per_class[c])
            continue;
        quota = (uint64_t)n * (n - 1) <= limit ? per_class[c] : limit / classes;
        if (quota == 0)
            quota = 1;
        for (i = 0; i < n; i++) {
            for (j = 0; j < n; j++) {
                if (i == j || cpu_topo_class(&t->cpus[cpus[i]], &t->cpus[cpus[j]]) != c)
                    continue;
                /* evenly spaced: take the pair when the running share crosses an integer */
                if ((seen * quota) / per_class[c] != ((seen + 1) * quota) / per_class[c] &&
                    taken < quota) {
                    out[npairs].initiator = cpus[i];
                    out[npairs].target = cpus[j];
                    out[npairs].cls = c;
                    npairs++;
                    taken++;
                }
                seen++;
            }
        }
    }
    return npairs;
}

static bool rt_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct rt_state *st = mem_zalloc(sizeof(*st));
    uint32_t *cpus, n, samples = runner_samples(r), c, i, limit = r->run->cfg.ipi_pairs;
    uint32_t pairs_in_class[TOPO_CLASS_COUNT] = { 0 };
    uint64_t all;
    if (!st)
        return false;
    *state = st;
    cpus = mem_alloc(r->smp->count * sizeof(*cpus));
    if (!cpus)
        return false;
    n = usable_cpus(r, cpus);
    all = n ? (uint64_t)n * (n - 1) : 0;
    /* at least one entry: a selection of one CPU (cpus=0) must not read as out of memory */
    st->pairs = mem_alloc((size_t)(all < limit ? (all ? all : 1) : limit + TOPO_CLASS_COUNT) *
                          sizeof(*st->pairs));
    if (!st->pairs) {
        mem_free(cpus);
        return false;
    }
    st->npairs = choose_pairs(r, cpus, n, limit, st->pairs);
    mem_free(cpus);
    if (all > limit)
        record_note(rec, "%llu ordered pairs exceed ipi_pairs=%u: %u pairs sampled evenly per "
                         "topology class",
                    (unsigned long long)all, limit, st->npairs);
    st->latency = mem_alloc(samples * sizeof(uint64_t));
    st->send = mem_alloc(samples * sizeof(uint64_t));
    st->baseline = mem_alloc(samples * sizeof(uint64_t));
    if (!st->latency || !st->send || !st->baseline)
        return false;
    for (i = 0; i < st->npairs; i++)
        pairs_in_class[st->pairs[i].cls]++;
    /* every pair contributes the same share, so the biggest class fits POOL_CAP */
    st->per_pair_pool = class_pool_share(pairs_in_class, TOPO_CLASS_COUNT, samples, POOL_CAP);
    for (c = 0; c < TOPO_CLASS_COUNT; c++) {
        if (!pairs_in_class[c])
            continue;
        st->pool_cap[c] = pairs_in_class[c] * st->per_pair_pool;
        st->pool[c] = mem_alloc(st->pool_cap[c] * sizeof(uint64_t));
        if (!st->pool[c])
            return false;
    }
    return point_list_reserve(&rec->results, st->npairs) && point_list_reserve(&rec->summary, TOPO_CLASS_COUNT);
}

/* One pair: the target spins, the initiator pings it warmup + samples times. */
static enum wait_status run_pair(struct runner *r, struct rt_state *st, const struct pair *p,
                                 uint32_t warmup, uint32_t samples, struct pingpong_arg *a,
                                 int64_t *result)
{
    struct smp *s = r->smp;
    volatile uint32_t stop = 0;
    struct spin_arg spin = { .stop = &stop, .deadline = 0 };
    enum wait_status w = WAIT_OK;
    *result = 0;
    /*
     * Never post to a CPU out of the run: one that faulted and recovered
     * still runs commands, and this one's argument is on the caller's stack
     * (seen under QEMU, inject=fault:1:6, once the quick profile was
     * planned: the pilot's pair 1 -> 0 posted to the faulted CPU 1, the BSP
     * returned at once, and CPU 1 wrote into the BSP's stack: #UD on the BSP).
     */
    if (!smp_usable(s, p->initiator) || !smp_usable(s, p->target))
        return WAIT_FAULTED;
    mem_zero(a, sizeof(*a));
    a->target = s->cpu[p->target];
    a->warmup = warmup;
    a->samples = samples;
    a->latency = st->latency;
    a->send = st->send;
    a->baseline = st->baseline;
    a->timeout = s->timeout_ticks;
    spin.deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    ipi_start_spinners(s, &p->target, 1, &spin);
    if (p->initiator == 0) {
        *result = pingpong(s->cpu[0], a);
    } else {
        smp_post(s, p->initiator, CMD_IPI_INITIATE, pingpong, a);
        if (p->target == 0)
            irq_enable(); /* the BSP is the target: take the pings while waiting */
        w = smp_wait_progress(s, p->initiator, &a->progress);
        irq_disable();
        if (w == WAIT_OK)
            *result = load_acquire(&s->cpu[p->initiator]->ack.result);
    }
    /*
     * Named before the stop: a target that missed its ping is not waited on
     * again (stopping it waited one more timeout and grace, 30 s of the 51 s
     * a hung CPU cost under QEMU); the pilot's pairs name it too, so the
     * pair loop never reaches it.
     */
    if (*result != 0 && !MUTANT(hang_waited_again))
        smp_mark_unanswered(s, p->target, "ping IPI", &a->target->ping.count,
                            (uint64_t)a->missed_count + 1);
    ipi_stop_spinners(s, &p->target, 1, &spin);
    return w;
}

/*
 * The pilot (run_budget_s, core/run/plan.h): round trips on the first pair the
 * BSP initiates and on the first an AP initiates (the BSP then waits on
 * the AP, and under an emulator one more busy CPU shares the host's), each
 * taken as the cost of every pair of its kind. The pairs are not thinned:
 * ipi_pairs already bounds them.
 */
struct rt_pilot {
    const struct rt_state *st;
    uint64_t iter[2], fixed[2]; /* [0]: the BSP initiates, [1]: an AP does */
};

static uint64_t rt_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct rt_pilot *pl = ctx;
    (void)row;
    return pl->iter[pl->st->pairs[col].initiator != 0];
}

struct rt_pilot_point {
    struct rt_state *st;
    const struct pair *pair;
};

static bool rt_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct rt_pilot_point *pp = ctx;
    struct pingpong_arg a;
    int64_t result;
    uint64_t t0 = tsc_open();
    bool ok = run_pair(r, pp->st, pp->pair, iterations, 0, &a, &result) == WAIT_OK && !result;
    *ticks = tsc_close() - t0;
    return ok;
}

static bool rt_plan(struct runner *r, struct experiment_record *rec, struct rt_state *st)
{
    struct plan_request q;
    struct plan pl;
    struct rt_pilot pilot;
    uint32_t kind, i;
    mem_zero(&q, sizeof(q));
    mem_zero(&pilot, sizeof(pilot));
    pilot.st = st;
    for (kind = 0; kind < 2 && r->plan_share_ticks; kind++) {
        /* a pair of CPUs still in the run (one may have dropped out since the pairs were made) */
        for (i = 0; i < st->npairs && ((st->pairs[i].initiator != 0) != kind ||
                                        !smp_usable(r->smp, st->pairs[i].initiator) ||
                                        !smp_usable(r->smp, st->pairs[i].target));
             i++)
            ;
        if (i < st->npairs) {
            struct rt_pilot_point pp = { st, &st->pairs[i] };
            if (!runner_pilot(r, rt_time, &pp, &pilot.iter[kind], &pilot.fixed[kind]))
                pilot.iter[kind] = pilot.fixed[kind] = 0; /* run_pair() named the CPU */
        }
    }
    /* no baseline_div: the baseline loop reads one line locally, no IPI */
    q.point_ticks = pilot.fixed[0] > pilot.fixed[1] ? pilot.fixed[0] : pilot.fixed[1];
    q.nrows = 1;
    q.ncols = st->npairs;
    q.iter_ticks = rt_cost;
    q.ctx = &pilot;
    return runner_plan(r, rec, &q, NULL, "pairs", 1, &pl);
}

/*
 * The protocol's steps (core/exp/protocol_steps.h, method.protocol_steps):
 * the BSP to its first usable other CPU, the pairs' samples (at most 1000).
 */
static void rt_protocol_steps(struct runner *r, struct experiment_record *rec)
{
    uint32_t n = runner_samples(r) < 1000 ? runner_samples(r) : 1000, target;
    uint64_t *buf;
    for (target = 1; target < r->smp->count && !smp_usable(r->smp, target); target++)
        ;
    if (target >= r->smp->count || !n || !runner_budget_ok(r))
        return;
    buf = mem_alloc(4 * (size_t)n * sizeof(uint64_t));
    if (!buf)
        return;
    if (!protocol_steps_ipi(r, target, runner_warmup(r), n, buf))
        record_note(rec, "protocol steps not measured: CPU %u stopped answering", target);
    mem_free(buf);
}

static void rt_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct rt_state *st = state;
    struct smp *s = r->smp;
    uint32_t k, samples;
    enum topo_class c;

    if (!rt_plan(r, rec, st))
        return;
    /*
     * Planned, a pair gets between the floor and the configured samples
     * (runner_plan_follow() may change them between pairs): every pair
     * gives the class pool the same share only if it is at most the floor.
     */
    if (rec->plan.applied) {
        uint32_t floor = PLAN_FLOOR < r->run->cfg.samples ? PLAN_FLOOR : r->run->cfg.samples;
        if (st->per_pair_pool > floor)
            st->per_pair_pool = floor;
    }

    for (k = 0; k < st->npairs; k++) {
        struct pair *p = &st->pairs[k];
        struct pingpong_arg a;
        struct result_point *pt;
        struct stats lat, send, base;
        enum wait_status w = WAIT_OK;
        int64_t result = 0;

        if (!runner_budget_ok(r))
            break;
        if (!smp_usable(s, p->initiator) || !smp_usable(s, p->target)) {
            rec->partial = true;
            continue;
        }
        runner_progress(r, k, st->npairs);
        samples = runner_samples(r); /* the plan may have cut them (runner_plan_follow()) */
        w = run_pair(r, st, p, runner_warmup(r), samples, &a, &result);
        if (w != WAIT_OK || result != 0) { /* run_pair() named the CPU */
            rec->partial = true;
            continue;
        }
        /* pool an evenly spaced share before sorting reorders the samples */
        st->pool_n[p->cls] += class_pool_take(st->latency, samples, st->per_pair_pool,
                                              st->pool[p->cls] + st->pool_n[p->cls],
                                              st->pool_cap[p->cls] - st->pool_n[p->cls]);
        st->pool_pairs[p->cls]++;
        stats_from_array(st->latency, samples, &lat);
        stats_from_array(st->send, samples, &send);
        stats_from_array(st->baseline, samples, &base);
        pt = point_list_add(&rec->results);
        if (!pt)
            break;
        point_param_num(pt, "initiator", p->initiator);
        point_param_num(pt, "target", p->target);
        point_param_str(pt, "class", topo_class_name(p->cls));
        point_metric(pt, "latency", &lat);
        point_metric(pt, "send", &send);
        point_metric(pt, "baseline", &base);
    }
    for (c = TOPO_FIRST_CLASS; c < TOPO_CLASS_COUNT; c++) {
        struct result_point *pt;
        struct stats st_class;
        if (!st->pool_n[c])
            continue;
        stats_from_array(st->pool[c], st->pool_n[c], &st_class);
        pt = point_list_add(&rec->summary);
        if (!pt)
            break;
        point_param_str(pt, "class", topo_class_name(c));
        point_metric(pt, "latency", &st_class);
        point_value(pt, "pairs", (int64_t)st->pool_pairs[c] * 1000);
        point_value(pt, "samples_per_pair", (int64_t)st->per_pair_pool * 1000);
    }
    rt_protocol_steps(r, rec);
    if (rec->partial)
        record_escalate(rec, RESULT_ERROR, "%u of %u pairs measured: a CPU stopped answering",
                        rec->results.count, st->npairs);
}

static void rt_cleanup(struct runner *r, void *state)
{
    struct rt_state *st = state;
    uint32_t c;
    (void)r;
    if (!st)
        return;
    mem_free(st->pairs);
    mem_free(st->latency);
    mem_free(st->send);
    mem_free(st->baseline);
    for (c = 0; c < TOPO_CLASS_COUNT; c++)
        mem_free(st->pool[c]);
    mem_free(st);
}

const struct experiment exp_ipi_roundtrip = {
    .id = "ipi_roundtrip",
    .title = "IPI round trip per initiator/target pair (send to acknowledgement)",
    .x_axis = "target",
    .series = "initiator",
    .supported = rt_supported,
    .prepare = rt_prepare,
    .run = rt_run,
    .cleanup = rt_cleanup,
};
