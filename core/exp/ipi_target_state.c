/*
 * ipi_target_state: what an IPI costs by the state the target is in.
 *
 * Method. One target CPU (in the BSP's package but not its SMT sibling when
 * there is one) runs one state at a time, with interrupts enabled except
 * where the state says otherwise:
 *   pause        a spin loop with PAUSE (a CPU waiting in a spinlock);
 *   busy         a loop of dependent integer work, no PAUSE (user code);
 *   hlt          "sti; hlt", as an idle CPU without MWAIT (like every
 *                halted waiter, its safety-net timer armed once, periodic:
 *                core/machine/ipi.c);
 *   mwait_HH     MONITOR + "sti; mwait" with hint 0xHH: C1 (hint 0x00)
 *                wherever CPUID.1:ECX[3] says MONITOR, and every further
 *                C-state/sub-state hint that CPUID leaf 5 EDX enumerates
 *                (only with leaf 5 ECX[0], the enumeration extension); the
 *                package C-state limit the firmware set (Intel MSR 0xE2)
 *                is recorded as a note, or its #GP;
 *   ioport_N     AMD's I/O-port C-state entry: an IN from CStateBaseAddr
 *                (MSR C001_0073, documented for families 15h-19h) + N,
 *                N = 0, 1, 2, with interrupts off, as Linux's acpi_idle
 *                enters a SystemIO _CST state (CC6 where the firmware's
 *                CSTATE_CONFIG, MSR C001_0296, says so: recorded); only
 *                where the MSR reads a non-zero base;
 *   irqoff_Nus   interrupts disabled for N us (1, 10, 100), then enabled
 *                for one instruction ("sti; nop; cli", no PAUSE) and
 *                disabled again: how one CPU with interrupts off delays
 *                every shootdown to it.
 * The target's SMT siblings are put in the same state (a core goes no
 * deeper than its most awake thread): each runs the same loop, unmeasured;
 * irqoff's siblings spin with PAUSE. A sibling that cannot be (it is the
 * BSP, the initiator, or lost) is named in a note and each point says how
 * many of its `siblings` are `siblings_in_state`.
 * The BSP waits until the target is back in its state, lets it settle for
 * the state's target residency (core/machine/idle_states.h: Linux intel_idle's
 * table for this model, else the FADT's C2 latency for the I/O states,
 * else IPI_SETTLE_US, 10 us, as ipi_roundtrip's and the shootdowns' halted
 * targets get; each point names `settle_us` and `settle_source`; plus a
 * phase that walks through the window for irqoff), then
 * sends one IPI and spins until the target's handler has bumped a counter
 * in the target's own line: the round trip, on the BSP's TSC.
 * Target lost time, on the TARGET's own TSC (core/exp/target_lost.h):
 *   pause, busy: the gap in the target's loop around the interrupt (the
 *     loop reads the TSC every iteration) minus its shortest iteration:
 *     interrupt entry, handler and return, i.e. the work lost. The handler
 *     timestamps its entry; a ping taken after a pass's last clock read
 *     (before the loop loads the handler's counter) is charged to the next
 *     pass, whose gap holds it, not to the quiet pass before it (which
 *     read about 0);
 *   irqoff: the gap around the one instruction with interrupts enabled,
 *     minus the shortest such window without an interrupt (the clock
 *     reads and the STI/CLI), so the wait in the window is not counted
 *     (it is in the round trip). Interrupts stay off from the window's end
 *     to the next window, so the ping can land nowhere else;
 *   hlt, mwait: from the handler's entry to the loop running again after
 *     the idle instruction; the wake-up before the handler (C-state exit)
 *     cannot be timed by the sleeping CPU: it is in the round trip. When
 *     the ping finds the CPU already awake (the heartbeat or a monitor
 *     write woke it first), the figure is the handler and its return only.
 * Residency evidence (core/machine/residency.h), idle states only: the target
 * reads the core C3/C6/C7 and package residency MSRs on itself before and
 * after its state's samples; the point says `residency` reached, partly_reached,
 * demoted, not_reached or unverified, with `residency_reason` (the counter
 * deltas, or why there is no proof: C1 has no counter, the model is not in
 * the table, AMD documents no CC6 residency MSR, the #GP every one of them
 * raises under QEMU TCG, or a delta above the elapsed time). Reached needs
 * the state's counter (and deeper ones) to cover 0.8 of the time the target
 * was certainly in its state: from each `armed` the initiator saw to its
 * ping, summed on the initiator's clock (value residency_expected_permille
 * beside residency_permille); less is partly_reached (issue 32: any growth
 * over the whole window was "reached"). MSR 0xE2 (package C-state limit and
 * auto-demotion) is recorded in a note.
 * Two clocks are never subtracted. States MWAIT lacks are not invented:
 * absent MONITOR or leaf 5 is a note with the CPUID registers.
 * It runs before shootdown_lazy (the report keeps the table's order), whose
 * lazy CPUs idle in the deepest MWAIT state found `reached` here (issue 32).
 */
#include "core/exp/ipi_target_state_loop.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/probe.h"
#include "asm/ring3.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/exp/target_states.h"
#include "core/run/experiments.h"
#include "core/machine/idle_states.h"
#include "core/machine/ipi.h"
#include "core/mutant.h"
#include "core/machine/residency.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

#define TS_WARMUP 2u
#define TS_MAX_SIBLINGS 8

/* Static: the report keeps pointers to the state names after the experiment's cleanup. */
static struct ts_def defs_store[TS_MAX_STATES];

struct ts_state {
    struct ts_states states;
    uint32_t target, samples;
    uint64_t *rt;
    struct ts_ctl *ctl;
    struct ts_sibling *sib;                  /* nsib of them */
    uint32_t sibling[TS_MAX_SIBLINGS], nsib, nsib_total;
};

static bool ts_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    (void)emulated;
    return runner_need_cpus(r, 2, reason, cap);
}

/*
 * The target's SMT siblings, which each state puts in the target's state;
 * one that cannot be (the BSP is the initiator; a lost CPU) is named.
 */
static void choose_siblings(struct runner *r, struct experiment_record *rec, struct ts_state *st)
{
    const struct cpu_table *t = r->smp->topo;
    uint32_t i;
    for (i = 0; i < r->smp->count; i++) {
        if (i == st->target ||
            cpu_topo_class(&t->cpus[st->target], &t->cpus[i]) != TOPO_SMT_SIBLING)
            continue;
        st->nsib_total++;
        if (i == 0)
            record_note(rec, "SMT sibling CPU 0 of target CPU %u is the initiator: it cannot be "
                             "in the target's state (the core stays in C0 while it runs)",
                        st->target);
        else if (!smp_usable(r->smp, i))
            record_note(rec, "SMT sibling CPU %u of target CPU %u is not usable: not in the "
                             "target's state",
                        i, st->target);
        else if (st->nsib < TS_MAX_SIBLINGS)
            st->sibling[st->nsib++] = i;
    }
    if (st->nsib)
        record_note(rec, "the target's SMT siblings (%u of %u) are put in the target's state",
                    st->nsib, st->nsib_total);
}

/* The target: same package but not the SMT sibling when possible, else any other CPU. */
static uint32_t choose_target(struct runner *r)
{
    const struct cpu_table *t = r->smp->topo;
    uint32_t i, any = UINT32_MAX;
    for (i = 1; i < r->smp->count; i++) {
        if (!smp_usable(r->smp, i))
            continue;
        enum topo_class cls = cpu_topo_class(&t->cpus[0], &t->cpus[i]);
        /* issue 21 split the package; issue 32 made its other nodes a class (SNC, NPS) */
        if (cls == TOPO_SAME_L3 || cls == TOPO_SAME_PACKAGE || cls == TOPO_SAME_PACKAGE_OTHER_NODE)
            return i;
        if (any == UINT32_MAX)
            any = i;
    }
    return any;
}

static bool ts_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct ts_state *st = mem_zalloc(sizeof(*st));
    static const uint32_t windows[] = { 1, 10, 100 };
    uint32_t i, n = runner_samples(r) / 10;
    char name[24];
    if (!st)
        return false;
    *state = st;
    st->states.defs = defs_store;
    st->states.cap = TS_MAX_STATES;
    st->samples = n < 10 ? 10 : n;
    ts_states_add(&st->states, TS_PAUSE, 0, 0, "pause");
    ts_states_add(&st->states, TS_BUSY, 0, 0, "busy");
    ts_states_add(&st->states, TS_HLT, 0, 0, "hlt");
    /* their MSR probes need the tool's IDT; nothing in them allocates (runner.h) */
    if (!MUTANT(probe_outside_tool))
        runner_enter_tool(r);
    ts_states_add_mwait(r, rec, &st->states);
    ts_states_add_ioport(r, rec, &st->states);
    runner_leave_tool(r);
    for (i = 0; i < 3; i++) {
        fmt_into(name, sizeof(name), "irqoff_%uus", windows[i]);
        ts_states_add(&st->states, TS_IRQOFF, 0, windows[i], name);
    }
    ts_states_add_ring3(r, rec, &st->states);
    st->target = choose_target(r);
    st->rt = mem_alloc(st->samples * sizeof(uint64_t));
    st->ctl = mem_alloc_aligned(sizeof(*st->ctl), CACHE_LINE);
    if (!st->rt || !st->ctl || st->target == UINT32_MAX)
        return false;
    choose_siblings(r, rec, st);
    st->sib = mem_alloc_aligned((st->nsib ? st->nsib : 1) * sizeof(*st->sib), CACHE_LINE);
    if (!st->sib)
        return false;
    mem_zero(st->sib, (st->nsib ? st->nsib : 1) * sizeof(*st->sib));
    mem_zero(st->ctl, sizeof(*st->ctl));
    /* the target reads the residency MSRs on Intel only, where they are documented */
    st->ctl->try_residency = r->run->cpu.vendor_id == VENDOR_INTEL;
    st->ctl->cap = TS_WARMUP + st->samples;
    st->ctl->lost = mem_alloc(st->ctl->cap * sizeof(uint64_t));
    if (!st->ctl->lost)
        return false;
    trap_set_irq_handler(VEC_STATE_PING, ts_ping_handler);
    record_note(rec, "target CPU %u, initiator the BSP; %u samples per state after %u warm-up",
                st->target, st->samples, TS_WARMUP);
    return point_list_reserve(&rec->results, st->states.n);
}

/* The target's siblings into the state (before the target), or out of it. */
static void siblings_start(struct runner *r, struct ts_state *st, const struct ts_def *d)
{
    uint32_t i;
    if (MUTANT(sibling_left_idle))
        return; /* they stay in the idle loop's HLT: the core goes no deeper than C1 */
    for (i = 0; i < st->nsib; i++) {
        struct ts_sibling *sb = &st->sib[i];
        sb->def = d;
        sb->deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
        store_release(&sb->stop, 0);
        if (smp_usable(r->smp, st->sibling[i]))
            smp_post(r->smp, st->sibling[i], CMD_GENERIC, ts_sibling_loop, sb);
    }
}

static bool siblings_stop(struct runner *r, struct ts_state *st)
{
    uint32_t i;
    bool ok = true;
    if (MUTANT(sibling_left_idle))
        return true;
    for (i = 0; i < st->nsib; i++) {
        store_release(&st->sib[i].stop, 1);
        if (smp_usable(r->smp, st->sibling[i]))
            smp_kick(r->smp, st->sibling[i]);
    }
    for (i = 0; i < st->nsib; i++)
        if (smp_usable(r->smp, st->sibling[i]) &&
            smp_wait(r->smp, st->sibling[i], tsc_now() + r->smp->timeout_ticks) != WAIT_OK)
            ok = false;
    return ok;
}

/* One state: warm-up plus samples of round trips; the target records its lost time. */
static bool measure_state(struct runner *r, struct ts_state *st, const struct ts_def *d)
{
    struct smp *s = r->smp;
    struct ts_ctl *c = st->ctl;
    struct percpu *t = s->cpu[st->target];
    uint32_t i, total = TS_WARMUP + st->samples;
    uint64_t deadline;
    bool ok = true;
    c->def = d;
    c->window_ticks = us_to_ticks(d->window_us);
    c->deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    store_relaxed(&c->line.nlost, 0);
    store_relaxed(&c->line.cpl3, 0);
    store_relaxed(&c->stop, 0);
    c->settled = 0;
    /* not armed until the target's loop says so (a ping before it would go unrecorded) */
    store_relaxed(&c->line.armed, UINT64_MAX);
    ts_ping_serve(c, st->target);
    siblings_start(r, st, d);
    smp_post(s, st->target, CMD_GENERIC, ts_target_loop, c);
    /* the CPL 3 loop says it runs on its own page (its first ping must find it there) */
    if (d->kind == TS_RING3)
        ok = smp_wait_answer(s, st->target, &ring3_shared()->entered, ANSWER_NE, 0,
                             tsc_now() + s->timeout_ticks);
    for (i = 0; i < total && ok; i++) {
        uint64_t want = load_acquire(&c->line.handled), t0, t1, settle, armed_seen;
        deadline = tsc_now() + s->timeout_ticks;
        /* back in its state since the last ping (armed is written after `handled`) */
        ok = smp_wait_answer(s, st->target, &c->line.armed, ANSWER_EQ, want, deadline);
        armed_seen = tsc_now();
        settle = us_to_ticks(d->settle.us); /* the state's target residency (idle_states.h) */
        if (d->kind == TS_IRQOFF)
            settle += c->window_ticks * (i % 8) / 8; /* spread the arrival over the window */
        t0 = tsc_now();
        /* spin-ok: settle is one target residency (7.7 ms at most) plus one irqoff window */
        while (ok && tsc_now() - t0 < settle)
            cpu_relax();
        if (!ok)
            break;
        t0 = tsc_now();
        /* the target has been in its state at least since armed: the residency expected */
        c->settled += t0 - armed_seen;
        apic_send_ipi(t->apic_id, VEC_STATE_PING);
        if (!smp_wait_answer(s, st->target, &c->line.handled, ANSWER_NE, want,
                             t0 + s->timeout_ticks)) {
            smp_mark_unanswered(s, st->target, "target-state ping", &c->line.handled, want + 1);
            ok = false;
            break;
        }
        t1 = tsc_now();
        if (i >= TS_WARMUP)
            st->rt[i - TS_WARMUP] = t1 - t0;
    }
    /* the target's record of the last ping comes after the ping's handler */
    if (ok && d->kind != TS_RING3 &&
        !smp_wait_answer(s, st->target, &c->line.nlost, ANSWER_GE, total,
                         tsc_now() + s->timeout_ticks))
        ok = false;
    store_release(&c->stop, 1);
    if (d->kind == TS_RING3)
        store_release(&ring3_shared()->stop, 1);
    smp_kick(s, st->target);
    if (smp_wait(s, st->target, tsc_now() + s->timeout_ticks) != WAIT_OK)
        ok = false;
    if (!siblings_stop(r, st))
        ok = false;
    ts_ping_stop();
    return ok;
}

/* The residency verdict of an idle state's point (core/machine/residency.h), its reason kept in `d`. */
static enum residency_verdict add_evidence(struct result_point *pt, struct ts_def *d,
                                           const struct ts_ctl *c)
{
    struct residency_result res;
    uint64_t elapsed = c->after.tsc - c->before.tsc, pkg = 0;
    uint32_t i;
    bool pkg_readable = true;
    residency_judge(d->core_cstate, d->why_none, &c->before, &c->after,
                    MIN(c->settled, elapsed), &res);
    fmt_into(d->reason, sizeof(d->reason), "%s", res.reason);
    point_param_str(pt, "settle_source", d->settle.source);
    point_param_str(pt, "residency", residency_verdict_name(res.verdict));
    point_param_str(pt, "residency_reason", d->reason);
    if (res.verdict == RESIDENCY_REACHED || res.verdict == RESIDENCY_DEMOTED ||
        res.verdict == RESIDENCY_PARTLY_REACHED)
        point_value(pt, "residency_permille", (int64_t)res.permille * 1000);
    if (res.verdict == RESIDENCY_REACHED || res.verdict == RESIDENCY_PARTLY_REACHED)
        point_value(pt, "residency_expected_permille", (int64_t)res.expected_permille * 1000);
    for (i = RC_PKG_C2; i < RC_COUNT; i++) {
        pkg_readable &= c->before.probe[i] == PROBE_OK && c->after.probe[i] == PROBE_OK;
        pkg += res.delta[i];
    }
    /* the package's counters beside the verdict, never part of it: the BSP keeps it awake */
    if (pkg_readable && elapsed)
        point_value(pt, "pkg_residency_permille",
                    (int64_t)(pkg >= elapsed ? 1000 : pkg * 1000 / elapsed) * 1000);
    return res.verdict;
}

/*
 * An MWAIT state whose residency was reached: the deepest so far is the one
 * shootdown_lazy's lazy CPUs idle in (run.h, struct lazy_idle_info). A
 * hint orders the states: C-state in bits 7:4, sub-state in 3:0.
 */
static void note_verified(struct runner *r, const struct ts_def *d)
{
    struct lazy_idle_info *li = &r->run->method.lazy_idle;
    if (li->verified && li->verified_hint >= d->hint)
        return;
    li->verified = true;
    li->verified_hint = d->hint;
    fmt_into(li->verified_state, sizeof(li->verified_state), "%s", d->name);
    fmt_into(li->verified_reason, sizeof(li->verified_reason), "%s", d->reason);
}

static void ts_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct ts_state *st = state;
    uint32_t i;
    for (i = 0; i < st->states.n; i++) {
        struct ts_def *d = &st->states.defs[i];
        struct result_point *pt;
        struct stats rt, lost;
        if (!runner_budget_ok(r))
            break;
        runner_progress(r, i, st->states.n);
        if (!smp_usable(r->smp, st->target) || !measure_state(r, st, d)) {
            rec->partial = true;
            break;
        }
        stats_from_array(st->rt, st->samples, &rt);
        stats_from_array(st->ctl->lost + TS_WARMUP, st->samples, &lost);
        pt = point_list_add(&rec->results);
        if (!pt)
            break;
        point_param_str(pt, "state", d->name);
        point_param_num(pt, "target", st->target);
        if (d->kind == TS_MWAIT)
            point_param_num(pt, "hint", d->hint);
        if (d->kind == TS_IOPORT)
            point_param_num(pt, "port", d->port);
        if (d->kind == TS_IRQOFF)
            point_param_num(pt, "window_us", d->window_us);
        point_metric(pt, "roundtrip", &rt);
        if (d->kind == TS_RING3)
            ts_ring3_evidence(rec, pt, st->ctl->line.cpl3, TS_WARMUP + st->samples,
                              &st->ctl->r3, st->ctl->r3_ok);
        else
            point_metric(pt, "target_lost", &lost);
        point_value(pt, "settle_us", (int64_t)d->settle.us * 1000);
        point_value(pt, "siblings", (int64_t)st->nsib_total * 1000);
        point_value(pt, "siblings_in_state", (int64_t)st->nsib * 1000);
        if (ts_kind_is_idle(d->kind) && add_evidence(pt, d, st->ctl) == RESIDENCY_REACHED &&
            d->kind == TS_MWAIT)
            note_verified(r, d);
    }
    if (rec->partial)
        record_escalate(rec, RESULT_ERROR, "%u of %u target states measured: the target stopped "
                                           "answering or the budget ran out",
                        rec->results.count, st->states.n);
}

static void ts_cleanup(struct runner *r, void *state)
{
    struct ts_state *st = state;
    (void)r;
    if (!st)
        return;
    ts_ping_stop();
    mem_free_aligned(st->sib);
    mem_free(st->rt);
    if (st->ctl)
        mem_free(st->ctl->lost);
    mem_free_aligned(st->ctl);
    mem_free(st);
}

const struct experiment exp_ipi_target_state = {
    .id = "ipi_target_state",
    .title = "IPI round trip and the target's lost time, by the target's state",
    .x_axis = "state",
    .series = NULL,
    .supported = ts_supported,
    .prepare = ts_prepare,
    .run = ts_run,
    .cleanup = ts_cleanup,
    .runs_before = "shootdown_lazy", /* its lazy CPUs idle in the deepest state verified here */
};
