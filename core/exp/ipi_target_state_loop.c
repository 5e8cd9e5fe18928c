/*
 * ipi_target_state on the target's side: what the target CPU and its SMT
 * siblings run while they are in a state (PAUSE, busy, HLT, MWAIT, the I/O
 * C-state entry, interrupts off), the handler of the ping, and the target's
 * own books: its lost time per ping (core/exp/target_lost.h) and its residency
 * counters around its samples. Apart from the experiment
 * (core/exp/ipi_target_state.c, whose top comment has the method) because this
 * is the code under measurement: it runs on the target with interrupts as the
 * state says, never allocates, and answers only through its cache lines
 * (core/exp/ipi_target_state_loop.h). The experiment calls into this file;
 * this file calls nothing of it.
 */
#include "core/exp/ipi_target_state_loop.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/power.h"
#include "asm/probe.h"
#include "core/lib/atomic.h"
#include "core/exp/target_lost.h"
#include "core/machine/ipi.h"
#include "core/machine/timing.h"

/* The control block the ping handler serves, and on which CPU (ts_ping_serve()). */
static struct ts_ctl *active_ctl;
static uint32_t active_target;

void ts_ping_serve(struct ts_ctl *c, uint32_t target)
{
    active_ctl = c;
    active_target = target;
}

void ts_ping_stop(void) { active_ctl = NULL; }

void ts_ping_handler(struct trap_frame *f)
{
    struct ts_ctl *c = active_ctl;
    if (!c || this_percpu()->index != active_target)
        return;
    store_relaxed(&c->line.handler_tsc, tsc_now());
    if ((f->cs & 3) == 3)
        store_relaxed(&c->line.cpl3, c->line.cpl3 + 1);
    store_release(&c->line.handled, c->line.handled + 1);
    /* the CPL 3 loop cannot write this line: its IRETQ is all that runs before the loop */
    if (c->def->kind == TS_RING3)
        store_release(&c->line.armed, c->line.handled);
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

/*
 * One sleep in an idle state, unless `watched` moved past `seen` or `stop`
 * is set: both are checked with interrupts off, so a wake-up between the
 * check and the sleep is not lost (STI's shadow covers HLT and MWAIT; the
 * I/O entry wakes on a pending interrupt with IF clear).
 */
static void idle_once(const struct ts_def *d, const volatile uint64_t *watched, uint64_t seen,
                      const volatile uint32_t *stop)
{
    irq_disable();
    if (d->kind == TS_MWAIT)
        power_monitor(watched);
    if (load_acquire(watched) == seen && !load_acquire(stop)) {
        if (d->kind == TS_MWAIT)
            power_mwait_until_irq(d->hint);
        else if (d->kind == TS_IOPORT)
            power_io_cstate_enter(d->port);
        else
            cpu_halt_until_irq();
    }
    irq_enable();
}

/* One pass of the state; returns the TSC when the loop runs again, *gap_from its start. */
static uint64_t one_pass(struct ts_ctl *c, uint64_t seen, uint64_t *gap_from, uint64_t *sink)
{
    const struct ts_def *d = c->def;
    uint64_t t0;
    switch (d->kind) {
    case TS_PAUSE:
    case TS_RING3: /* runs its own loop (ring3_run), never this one */
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
    case TS_IOPORT:
        idle_once(d, &c->line.handled, seen, &c->stop);
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
    if (ts_kind_is_idle(kind))
        return LOST_WAKE;
    return kind == TS_IRQOFF ? LOST_WINDOW : LOST_GAP;
}

/*
 * The residency MSRs on the calling CPU; a fault leaves its probe result
 * (never a value). Not tried (not Intel): marked faulted, never reported,
 * since no state of such a CPU names a counter (core_cstate 0).
 */
static void read_residency(struct residency_reading *r, bool try_msrs)
{
    uint32_t i;
    for (i = 0; i < RC_COUNT; i++) {
        r->value[i] = 0;
        r->probe[i] = try_msrs ? power_read_msr(residency_msr[i], &r->value[i]) : PROBE_FAULTED(13);
    }
    r->tsc = tsc_now();
}

/*
 * An SMT sibling of the target, in the target's state until stopped: the
 * same idle instruction (its own line monitored), the same PAUSE or busy
 * loop; irqoff's siblings spin with PAUSE.
 */
int64_t ts_sibling_loop(struct percpu *self, void *arg)
{
    struct ts_sibling *sb = arg;
    const struct ts_def *d = sb->def;
    uint64_t sink = 1;
    if (ts_kind_is_idle(d->kind))
        apic_arm_heartbeat_periodic(VEC_WAKE, HEARTBEAT_IDLE);
    irq_enable();
    while (!load_acquire(&sb->stop) && !load_acquire(&self->smp->aborting) &&
           !deadline_passed(sb->deadline)) {
        if (ts_kind_is_idle(d->kind)) {
            idle_once(d, &sb->woken, 0, &sb->stop);
        } else if (d->kind == TS_BUSY) {
            sink = busy_work(sink + 1);
#ifdef TLBSCOPE_HOST
            cpu_relax(); /* a modelled CPU takes interrupts only where it yields */
#endif
        } else {
            cpu_relax();
        }
    }
    irq_disable();
    if (ts_kind_is_idle(d->kind))
        apic_disarm_heartbeat();
    return (int64_t)(sink & 1);
}

/* Runs on the target until stopped. */
int64_t ts_target_loop(struct percpu *self, void *arg)
{
    struct ts_ctl *c = arg;
    uint64_t seen = load_acquire(&c->line.handled), prev, now, shortest = UINT64_MAX, sink = 1;
    enum lost_kind kind = lost_kind_of(c->def->kind);
    /*
     * The sleep's bound: armed once, periodic, as for every halted waiter
     * (core/machine/ipi.c): a one-shot armed and disarmed around every HLT put APIC
     * writes into the lost time and next to every wake-up.
     */
    if (c->def->kind == TS_RING3) {
        store_release(&c->line.armed, seen);
        c->r3_ok = ring3_run(c->deadline, &c->r3);
        return c->r3_ok ? 0 : -1;
    }
    if (kind == LOST_WAKE)
        apic_arm_heartbeat_periodic(VEC_WAKE, HEARTBEAT_IDLE);
    read_residency(&c->before, c->try_residency);
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
    read_residency(&c->after, c->try_residency);
    if (kind == LOST_WAKE)
        apic_disarm_heartbeat();
    return 0;
}
