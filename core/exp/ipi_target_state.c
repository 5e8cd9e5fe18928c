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
 *                core/ipi.c);
 *   mwait_HH     MONITOR + "sti; mwait" with hint 0xHH: C1 (hint 0x00)
 *                wherever CPUID.1:ECX[3] says MONITOR, and every further
 *                C-state/sub-state hint that CPUID leaf 5 EDX enumerates
 *                (only with leaf 5 ECX[0], the enumeration extension); the
 *                package C-state limit the firmware set (Intel MSR 0xE2)
 *                is recorded as a note, or its #GP;
 *   irqoff_Nus   interrupts disabled for N us (1, 10, 100), then enabled
 *                for one instruction ("sti; nop; cli", no PAUSE) and
 *                disabled again: how one CPU with interrupts off delays
 *                every shootdown to it.
 * The BSP waits until the target is back in its state, lets it settle
 * (IPI_SETTLE_US, 10 us, as ipi_roundtrip's and the shootdowns' halted
 * targets get: core/ipi.h; plus a phase that walks through the window for
 * irqoff), then
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
 * Two clocks are never subtracted. States MWAIT lacks are not invented:
 * absent MONITOR or leaf 5 is a note with the CPUID registers.
 */
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/power.h"
#include "arch/x86/probe.h"
#include "arch/x86/trap.h"
#include "core/atomic.h"
#include "core/exp/target_lost.h"
#include "core/experiments.h"
#include "core/ipi.h"
#include "core/strbuf.h"
#include "core/timing.h"

#define TS_MAX_STATES 16
#define TS_WARMUP 2u

enum ts_kind { TS_PAUSE = 0, TS_BUSY, TS_HLT, TS_MWAIT, TS_IRQOFF };

struct ts_def {
    enum ts_kind kind;
    uint32_t hint;      /* MWAIT EAX */
    uint32_t window_us; /* irqoff */
    char name[24];
};

/* Written by the target only (its handler and its loop); read by the BSP. */
struct ts_line {
    volatile uint64_t handled;     /* pings taken */
    volatile uint64_t handler_tsc; /* target TSC at the last handler entry */
    volatile uint64_t armed;       /* == handled once the loop is back in its state */
    volatile uint64_t nlost;       /* lost-time records written */
} __attribute__((aligned(CACHE_LINE)));

struct ts_ctl {
    struct ts_line line;
    volatile uint32_t stop __attribute__((aligned(CACHE_LINE)));
    const struct ts_def *def;
    uint64_t window_ticks, deadline;
    uint64_t *lost;
    uint32_t cap;
};

/* Static: the report keeps pointers to the state names after the experiment's cleanup. */
static struct ts_def defs_store[TS_MAX_STATES];

struct ts_state {
    struct ts_def *defs;
    uint32_t ndefs, target, samples;
    uint64_t *rt;
    struct ts_ctl *ctl;
};

static struct ts_ctl *active_ctl;
static uint32_t active_target;

static void state_ping_handler(struct trap_frame *f)
{
    struct ts_ctl *c = active_ctl;
    (void)f;
    if (!c || this_percpu()->index != active_target)
        return;
    store_relaxed(&c->line.handler_tsc, tsc_now());
    store_release(&c->line.handled, c->line.handled + 1);
}

/* Dependent integer work the compiler cannot drop: a CPU busy in user code. */
static uint64_t busy_work(uint64_t x)
{
    uint32_t i;
    for (i = 0; i < 32; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        __asm__ volatile("" : "+r"(x)); /* each step is really computed */
    }
    return x;
}

/* One pass of the state; returns the TSC when the loop runs again, *gap_from its start. */
static uint64_t one_pass(struct ts_ctl *c, uint64_t seen, uint64_t *gap_from, uint64_t *sink)
{
    const struct ts_def *d = c->def;
    uint64_t t0;
    switch (d->kind) {
    case TS_PAUSE:
        cpu_relax();
        break;
    case TS_BUSY:
        *sink = busy_work(*sink + 1);
#ifdef TLBSCOPE_HOST
        cpu_relax(); /* a modelled CPU takes interrupts only where it yields (sim/hostcpu.c) */
#endif
        break;
    case TS_HLT:
    case TS_MWAIT:
        irq_disable();
        if (d->kind == TS_MWAIT)
            power_monitor(&c->line.handled);
        if (load_acquire(&c->line.handled) == seen && !load_acquire(&c->stop)) {
            if (d->kind == TS_MWAIT)
                power_mwait_until_irq(d->hint);
            else
                cpu_halt_until_irq();
        }
        irq_enable();
        break;
    case TS_IRQOFF:
        irq_disable();
        t0 = tsc_now();
        while (tsc_now() - t0 < c->window_ticks)
            compiler_barrier();
        *gap_from = tsc_now();
        /*
         * A pending IPI is taken in this one-instruction window and nowhere
         * else: the loop's clock read and its check of `handled` run with
         * interrupts off, so nothing lands after the window closes. No
         * PAUSE in it (one PAUSE is up to ~140 cycles on recent cores).
         */
        cpu_irq_window();
        return tsc_now();
    }
    return tsc_now();
}

static uint64_t reread_tsc(void *ctx)
{
    (void)ctx;
    return tsc_now();
}

static enum lost_kind lost_kind_of(enum ts_kind kind)
{
    if (kind == TS_HLT || kind == TS_MWAIT)
        return LOST_WAKE;
    return kind == TS_IRQOFF ? LOST_WINDOW : LOST_GAP;
}

/* Runs on the target until stopped. */
static int64_t target_loop(struct percpu *self, void *arg)
{
    struct ts_ctl *c = arg;
    uint64_t seen = load_acquire(&c->line.handled), prev, now, shortest = UINT64_MAX, sink = 1;
    enum lost_kind kind = lost_kind_of(c->def->kind);
    /*
     * The sleep's bound: armed once, periodic, as for every halted waiter
     * (core/ipi.c): a one-shot armed and disarmed around every HLT put APIC
     * writes into the lost time and next to every wake-up.
     */
    if (kind == LOST_WAKE)
        apic_arm_heartbeat_periodic(VEC_WAKE, HEARTBEAT_IDLE);
    irq_enable();
    prev = tsc_now();
    store_release(&c->line.armed, seen);
    while (!load_acquire(&c->stop) && !load_acquire(&self->smp->aborting) &&
           !deadline_passed(c->deadline)) {
        uint64_t from = prev, h, lost;
        now = one_pass(c, seen, &from, &sink);
        h = load_acquire(&c->line.handled);
        /* target_lost.h: a ping after the pass's last read is charged to the next pass */
        if (target_lost_account(kind, from, now, h != seen, load_relaxed(&c->line.handler_tsc),
                                &shortest, reread_tsc, NULL, &lost) == LOST_RECORDED) {
            if (c->line.nlost < c->cap)
                c->lost[c->line.nlost] = lost;
            store_release(&c->line.nlost, c->line.nlost + 1);
            seen = h;
            now = tsc_now(); /* the bookkeeping is not an iteration */
            /* armed after that read: the next ping cannot fall before the next gap opens */
            store_release(&c->line.armed, seen);
        }
        prev = now;
    }
    irq_disable();
    if (kind == LOST_WAKE)
        apic_disarm_heartbeat();
    return 0;
}

static bool ts_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    (void)emulated;
    return runner_need_cpus(r, 2, reason, cap);
}

static void add_def(struct ts_state *st, enum ts_kind kind, uint32_t hint, uint32_t window_us,
                    const char *name)
{
    struct ts_def *d;
    if (st->ndefs >= TS_MAX_STATES)
        return;
    d = &st->defs[st->ndefs++];
    d->kind = kind;
    d->hint = hint;
    d->window_us = window_us;
    fmt_into(d->name, sizeof(d->name), "%s", name);
}

/* MWAIT hints: C1 wherever MONITOR exists, deeper ones as leaf 5 enumerates them. */
static void add_mwait_states(struct runner *r, struct experiment_record *rec, struct ts_state *st)
{
    const struct cpu_features *f = &r->run->cpu;
    const struct cpuid_evidence *ev = &f->evidence;
    uint32_t cstate, sub, more = 0;
    uint64_t limit = 0;
    uint32_t probe;
    char name[24];
    if (!f->monitor) {
        record_note(rec, "MWAIT states not measured: no MONITOR/MWAIT (CPUID.1:ECX[3] = 0, ECX = "
                         "0x%08x)",
                    ev->leaf1_ecx);
        return;
    }
    add_def(st, TS_MWAIT, 0x00, 0, "mwait_00");
    if (f->max_basic_leaf < 5 || !(ev->leaf5_ecx & 1u)) {
        record_note(rec, "MWAIT: C1 (hint 0x00) only; CPUID leaf 5 %s (max basic leaf 0x%x, "
                         "leaf 5 ECX = 0x%08x, EDX = 0x%08x)",
                    f->max_basic_leaf < 5 ? "absent" : "has no enumeration extension (ECX[0] = 0)",
                    f->max_basic_leaf, ev->leaf5_ecx, ev->leaf5_edx);
        return;
    }
    for (cstate = 1; cstate < 8; cstate++) {
        uint32_t subs = (ev->leaf5_edx >> (4 * cstate)) & 0xf;
        for (sub = 0; sub < subs; sub++) {
            uint32_t hint = ((cstate - 1) << 4) | sub;
            if (hint == 0)
                continue;
            more++;
            fmt_into(name, sizeof(name), "mwait_%02x", hint);
            add_def(st, TS_MWAIT, hint, 0, name);
        }
    }
    probe = f->vendor_id == VENDOR_INTEL ? power_read_msr(MSR_PKG_CST_CONFIG, &limit) : 0;
    fmt_into(name, sizeof(name), "%u", more);
    if (f->vendor_id != VENDOR_INTEL)
        record_note(rec, "MWAIT: measured hint 0x00 (C1) and the %s more CPUID leaf 5 enumerates "
                         "(ECX = 0x%08x, EDX = 0x%08x); no package C-state limit MSR on this "
                         "vendor",
                    name, ev->leaf5_ecx, ev->leaf5_edx);
    else if (probe == PROBE_OK)
        record_note(rec, "MWAIT: measured hint 0x00 (C1) and the %s more CPUID leaf 5 enumerates "
                         "(EDX = 0x%08x); MSR 0xE2 = 0x%llx (package C-state limit %llu: the CPU "
                         "may demote deeper hints)",
                    name, ev->leaf5_edx, (unsigned long long)limit,
                    (unsigned long long)(limit & 0x7));
    else
        record_note(rec, "MWAIT: measured hint 0x00 (C1) and the %s more CPUID leaf 5 enumerates "
                         "(EDX = 0x%08x); MSR 0xE2 (package C-state limit) not readable: "
                         "exception %u",
                    name, ev->leaf5_edx, probe - 1);
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
        if (cls == TOPO_SAME_L3 || cls == TOPO_SAME_PACKAGE) /* issue 21 split the package */
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
    st->defs = defs_store;
    st->samples = n < 10 ? 10 : n;
    add_def(st, TS_PAUSE, 0, 0, "pause");
    add_def(st, TS_BUSY, 0, 0, "busy");
    add_def(st, TS_HLT, 0, 0, "hlt");
    add_mwait_states(r, rec, st);
    for (i = 0; i < 3; i++) {
        fmt_into(name, sizeof(name), "irqoff_%uus", windows[i]);
        add_def(st, TS_IRQOFF, 0, windows[i], name);
    }
    st->target = choose_target(r);
    st->rt = mem_alloc(st->samples * sizeof(uint64_t));
    st->ctl = mem_alloc_aligned(sizeof(*st->ctl), CACHE_LINE);
    if (!st->rt || !st->ctl || st->target == UINT32_MAX)
        return false;
    mem_zero(st->ctl, sizeof(*st->ctl));
    st->ctl->cap = TS_WARMUP + st->samples;
    st->ctl->lost = mem_alloc(st->ctl->cap * sizeof(uint64_t));
    if (!st->ctl->lost)
        return false;
    trap_set_irq_handler(VEC_STATE_PING, state_ping_handler);
    record_note(rec, "target CPU %u, initiator the BSP; %u samples per state after %u warm-up",
                st->target, st->samples, TS_WARMUP);
    return point_list_reserve(&rec->results, st->ndefs);
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
    store_relaxed(&c->stop, 0);
    /* not armed until the target's loop says so (a ping before it would go unrecorded) */
    store_relaxed(&c->line.armed, UINT64_MAX);
    active_ctl = c;
    active_target = st->target;
    smp_post(s, st->target, CMD_GENERIC, target_loop, c);
    for (i = 0; i < total && ok; i++) {
        uint64_t want = load_acquire(&c->line.handled), t0, t1, settle;
        deadline = tsc_now() + s->timeout_ticks;
        /* back in its state since the last ping (armed is written after `handled`) */
        ok = smp_wait_answer(s, st->target, &c->line.armed, ANSWER_EQ, want, deadline);
        settle = us_to_ticks(IPI_SETTLE_US); /* as ipi_settle_targets() lets targets sleep */
        if (d->kind == TS_IRQOFF)
            settle += c->window_ticks * (i % 8) / 8; /* spread the arrival over the window */
        t0 = tsc_now();
        /* spin-ok: settle is at most 10 us plus one irqoff window (100 us at most) */
        while (ok && tsc_now() - t0 < settle)
            cpu_relax();
        if (!ok)
            break;
        t0 = tsc_now();
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
    if (ok && !smp_wait_answer(s, st->target, &c->line.nlost, ANSWER_GE, total,
                               tsc_now() + s->timeout_ticks))
        ok = false;
    store_release(&c->stop, 1);
    smp_kick(s, st->target);
    if (smp_wait(s, st->target, tsc_now() + s->timeout_ticks) != WAIT_OK)
        ok = false;
    active_ctl = NULL;
    return ok;
}

static void ts_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct ts_state *st = state;
    uint32_t i;
    for (i = 0; i < st->ndefs; i++) {
        const struct ts_def *d = &st->defs[i];
        struct result_point *pt;
        struct stats rt, lost;
        if (!runner_budget_ok(r))
            break;
        runner_progress(r, i, st->ndefs);
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
        if (d->kind == TS_IRQOFF)
            point_param_num(pt, "window_us", d->window_us);
        point_metric(pt, "roundtrip", &rt);
        point_metric(pt, "target_lost", &lost);
    }
    if (rec->partial)
        record_escalate(rec, RESULT_ERROR, "%u of %u target states measured: the target stopped "
                                           "answering or the budget ran out",
                        rec->results.count, st->ndefs);
}

static void ts_cleanup(struct runner *r, void *state)
{
    struct ts_state *st = state;
    (void)r;
    if (!st)
        return;
    active_ctl = NULL;
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
};
