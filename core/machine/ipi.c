#include "core/machine/ipi.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/power.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

static void wake_handler(struct trap_frame *f) { (void)f; }

static void release_handler(struct trap_frame *f)
{
    (void)f;
    this_percpu()->release_kick_taken = 1;
}

/*
 * The ping is acknowledged in the target's own line: one line moves back.
 * The protocol steps (core/exp/protocol_steps.h) time the body, in the same
 * line, only when asked: no clock read in the measured round trips.
 */
static void ping_handler(struct trap_frame *f)
{
    struct percpu *pc = this_percpu();
    uint64_t t0 = pc->ping.timed ? tsc_open() : 0;
    (void)f;
    smp_injected_delay(pc);
    if (t0)
        store_relaxed(&pc->ping.body_ticks, tsc_close() - t0);
    store_release(&pc->ping.count, pc->ping.count + 1);
}

void ipi_install_handlers(void)
{
    trap_set_irq_handler(VEC_WAKE, wake_handler);
    trap_set_irq_handler(VEC_RELEASE, release_handler);
    trap_set_irq_handler(VEC_PING, ping_handler);
}

/*
 * A target between requests. Spinning: interrupts on, PAUSE. Halted (under
 * a hypervisor): the stop flag is checked with interrupts off, then the CPU
 * parks (initiators see it asleep: ipi_settle_targets()) in "sti; hlt" (no
 * lost wake-up); the request's handler runs inside the HLT and the loop
 * goes straight back to sleep. The safety-net timer (the deadline must be
 * seen even if a wake-up were lost) is armed once, periodic, for the whole
 * wait: arming and disarming a one-shot around every HLT cost five APIC
 * writes per request, each a trip into the emulated APIC under a
 * hypervisor, and the next request of a back-to-back series waited behind
 * them (issue 10, docs/experiments.md, "Honest numbers").
 */
/*
 * A user-mode-like busy loop: one read-modify-write per cache line of the
 * CPU's own working set, a line at a time, interrupts on (taken between
 * any two instructions, as in user code). Returns the next line.
 */
uint32_t ipi_busy_ws_step(uint8_t *ws, uint32_t line)
{
    volatile uint64_t *w = (volatile uint64_t *)(void *)(ws + (size_t)line * CACHE_LINE);
    *w = *w * 6364136223846793005ull + 1442695040888963407ull;
#ifdef TLBSCOPE_HOST
    cpu_relax(); /* a modelled CPU takes interrupts only where it yields (sim/hostcpu.c) */
#endif
    return (line + 1) % (SPIN_WS_BYTES / CACHE_LINE);
}

int64_t ipi_spin_as_target(struct percpu *self, void *arg)
{
    struct spin_arg *a = arg;
    bool idle = a->mode == SPIN_IDLE;
    bool halt = self->smp->halt_waits || idle;
    uint8_t *ws = a->mode == SPIN_BUSY_WS && a->ws ? a->ws + (size_t)self->index * SPIN_WS_BYTES
                                                   : NULL;
    uint32_t line = 0;
    if (halt)
        apic_arm_heartbeat_periodic(VEC_WAKE, HEARTBEAT_IDLE);
    store_release(&self->idle.idles, idle ? 1 : 0);
    irq_enable();
    while (!load_acquire(a->stop) && !load_acquire(&self->smp->aborting) &&
           !deadline_passed(a->deadline)) {
        if (ws) {
            line = ipi_busy_ws_step(ws, line);
        } else if (halt) {
            irq_disable();
            if (load_acquire(a->stop))
                break;
            if (idle && a->idle_mwait) {
                /* armed before a second look: a stop written in between wakes the MWAIT */
                power_monitor(a->stop);
                if (load_acquire(a->stop))
                    break;
            }
            if (idle)
                store_relaxed(&self->idle.idle_sleeps, self->idle.idle_sleeps + 1);
            if (idle && a->idle_mwait)
                smp_mwait_parked(self, a->mwait_hint); /* returns with interrupts on */
            else
                smp_halt_parked(self); /* returns with interrupts on */
        } else {
            cpu_relax();
        }
    }
    irq_disable();
    store_release(&self->idle.idles, 0);
    if (halt)
        apic_disarm_heartbeat();
    return 0;
}

void ipi_start_spinners(struct smp *s, const uint32_t *cpus, uint32_t n, struct spin_arg *arg)
{
    uint32_t i;
    store_release(arg->stop, 0);
    for (i = 0; i < n; i++)
        if (cpus[i] != 0 && smp_usable(s, cpus[i]))
            smp_post(s, cpus[i], CMD_SPIN_TARGET, ipi_spin_as_target, arg);
}

void ipi_stop_spinners(struct smp *s, const uint32_t *cpus, uint32_t n, struct spin_arg *arg)
{
    uint32_t i;
    uint64_t deadline;
    store_release(arg->stop, 1);
    for (i = 0; i < n; i++)
        if (cpus[i] != 0 && smp_usable(s, cpus[i]) && (s->halt_waits || arg->mode == SPIN_IDLE))
            smp_kick(s, cpus[i]); /* halted spinners need a wake-up to see it */
    deadline = tsc_now() + s->timeout_ticks;
    for (i = 0; i < n; i++)
        if (cpus[i] != 0 && smp_usable(s, cpus[i]))
            smp_wait_leaf(s, cpus[i], deadline); /* a spinner waits on no other CPU */
}

bool ipi_settle_targets(struct smp *s, const uint32_t *cpus, uint32_t n)
{
    uint64_t deadline, settle_deadline;
    uint32_t i, self = this_percpu()->index;
    bool ok = true, any = s->halt_waits;
    /* with spinning targets only the idle ones (SPIN_IDLE) are waited for */
    for (i = 0; i < n && !any; i++)
        any = cpus[i] != self && load_acquire(&s->cpu[cpus[i]]->idle.idles);
    if (!any)
        return true;
    deadline = tsc_now() + s->timeout_ticks;
    for (i = 0; i < n; i++)
        if (cpus[i] != self && smp_usable(s, cpus[i]) &&
            (s->halt_waits || load_acquire(&s->cpu[cpus[i]]->idle.idles)))
            ok &= wait_u64_eq(&s->cpu[cpus[i]]->idle.parked, 1, deadline);
    settle_deadline = tsc_now() + us_to_ticks(s->idle_settle_us ? s->idle_settle_us
                                                                : IPI_SETTLE_US);
    while (!deadline_passed(settle_deadline))
        cpu_relax();
    return ok;
}

void ipi_send_each(struct smp *s, const uint32_t *cpus, uint32_t n, uint8_t vector)
{
    apic_send_ipi_mask(cpus, n, s->apic_id, UINT32_MAX, vector);
}

bool ipi_send_cluster(struct smp *s, const uint32_t *cpus, uint32_t n, uint8_t vector)
{
    return apic_send_ipi_cluster(cpus, n, s->apic_id, UINT32_MAX, vector);
}

void ipi_sort_by_apic(const struct smp *s, uint32_t *cpus, uint32_t n)
{
    uint32_t i, j;
    for (i = 1; i < n; i++) {
        uint32_t c = cpus[i];
        for (j = i; j > 0 && s->apic_id[cpus[j - 1]] > s->apic_id[c]; j--)
            cpus[j] = cpus[j - 1];
        cpus[j] = c;
    }
}

bool ipi_cluster_available(char *reason, size_t cap)
{
    if (apic_current_mode() == APIC_MODE_X2APIC)
        return true;
    fmt_into(reason, cap, "the APIC runs in xAPIC mode: cluster addressing (logical x2APIC "
                          "destinations) exists in x2APIC mode only (run.apic_mode)");
    return false;
}
