/*
 * ipi_roundtrip (aarch64): what one IPI costs from the BSP to CPU n, the
 * question x86's ipi_roundtrip (core/exp/ipi_roundtrip.c) answers, measured
 * the same way: one IPI, taken by the target through its interrupt entry.
 *
 * Method. The target waits in WFI (method.target_wait "wfi_irq"). The BSP
 * reads the counter in the target's IRQ slot (its own cache line:
 * asm/irq.h), takes a timestamp, sends SGI_PING (GICv3 ICC_SGI1R_EL1, GICv2
 * GICD_SGIR), and spins until the target's IRQ handler has bumped the
 * counter; a second timestamp closes the sample. Both come from the BSP's
 * CNTVCT_EL0: two CPUs' clocks are never subtracted. The time covers the SGI
 * write, delivery, the wake-up from WFI, exception entry, the handler's
 * acknowledge and store, and the cache line's way back: one SGI, where the
 * target answered with a second SGI before (target_wait "poll_iar": no
 * exception entry, the target polled the acknowledge register with IRQs
 * masked). The BSP keeps the firmware's interrupts masked while it measures
 * (UEFI's RaiseTPL(TPL_HIGH_LEVEL) and its priority mask lowered below the
 * firmware's timer PPIs at 0x80), so the firmware's timer is taken after the
 * round trips, not inside one.
 *
 * The target's side, as Linux runs an IPI on an idle arm64 CPU: the idle
 * loop's WFI with IRQs masked, then the unmask (do_idle -> arch_cpu_idle ->
 * cpu_do_idle; asm/irq.h, irq_wait), the IRQ vector (Linux: el1h_64_irq ->
 * el1h_64_irq_handler -> el1_interrupt -> handle_arch_irq = gic_handle_irq),
 * the acknowledge (gic_read_iar; 1020..1023 return at once,
 * gic_irqnr_is_special), the handler's store (for a function call IPI,
 * do_handle_IPI -> generic_smp_call_function_interrupt -> csd_unlock, a
 * release store), then the EOI in EOImode 0 (gic_eoi_irq, after the handler;
 * Linux's EOImode 1 at EL2 drops the priority first in gic_complete_ack and
 * deactivates after) and ERET (arch/arm64/entry.S, exception.c). WFI, not a
 * spinning target: an idle CPU is what Linux's IPIs mostly wake, and it is
 * x86's target_wait "hlt", the default there under an emulator, so the two
 * apps' QEMU round trips are the same question. Under QEMU's TCG a WFI halts
 * the vCPU's host thread until the SGI kicks it. As on x86, the target is
 * asleep at every ping: before each, the BSP waits (outside the timed
 * window) until the target has gone back into WFI since its last ping, and
 * 10 us more (settle).
 *
 * Every round has a timeout_ms limit: a vCPU thread of a loaded host can be
 * descheduled for tens of milliseconds. A target whose ping is not answered
 * in time is named in a note with its handler's counts, the BSP sets arg[3]
 * and sends SGI_CMD to wake it from WFI, and it is recorded lost (the
 * experiment partial, ERROR). values.irq_entries: the IRQ exceptions the
 * target took while it served the round trips, one per round trip when each
 * ping was taken through the vector and nothing else came.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/gic.h"
#include "asm/irq.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"


/* target: take arg0 SGI_PINGs through the IRQ vector, waiting in WFI, until
 * they came or the BSP gives up (arg[3]). result0: other INTIDs taken,
 * result1: 1 once waiting, result2: IRQ exceptions taken, result3: spurious
 * acknowledges. */
static void fn_irq_target(struct percpu *pc)
{
    struct irq_slot *s = &pc->irq;
    uint64_t pings0, entries0, other0, spurious0;
    unsigned i;
    /* The SGI_CMD that delivered this command may still be pending: it is
     * acknowledged here, with IRQs masked, so that what the vector takes from
     * now on is the round trips alone (at most a few SGIs pending) */
    for (i = 0; i < 16; i++) {
        uint32_t irq = gic_ack();
        if (irq >= 1020)
            break;
        gic_eoi(irq);
    }
    pings0 = s->pings;
    entries0 = s->entries;
    other0 = s->other;
    spurious0 = s->spurious;
    __atomic_store_n(&pc->result[1], 1, __ATOMIC_RELEASE); /* ready */
    while (s->pings - pings0 < pc->arg[0] && !__atomic_load_n(&pc->arg[3], __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&s->asleep_at, s->pings, __ATOMIC_RELEASE); /* for the BSP's settle */
        irq_wait();
    }
    pc->result[0] = s->other - other0;
    pc->result[2] = s->entries - entries0;
    pc->result[3] = s->spurious - spurious0;
}

/* The target is asleep at every ping, as at every shootdown's IPI (x86:
 * ipi_settle_targets): back in WFI since its last ping, and SETTLE_US more
 * for its WFI to take effect (under QEMU: its vCPU thread to halt). Pinging
 * as soon as the counter moved would often find it still on its way back. */
#define SETTLE_US 10
static void settle(struct arm64_run *run, const struct irq_slot *s)
{
    uint64_t end = ticks() + a64_timeout_ticks(run), t;
    while (__atomic_load_n(&s->asleep_at, __ATOMIC_ACQUIRE) != __atomic_load_n(&s->pings, __ATOMIC_ACQUIRE) &&
           ticks() < end)
        ;
    t = ticks();
    while (ticks() - t < tick_freq() * SETTLE_US / 1000000)
        ;
}

/* the BSP's side with one target: `rounds` round trips into `samples`; returns those done,
 * fewer when a ping found no answer within timeout_ms */
static unsigned pingpong(struct arm64_run *run, unsigned n, unsigned rounds, uint64_t *samples)
{
    const struct irq_slot *s = &percpu[n].irq;
    uint64_t pmr = gic_pmr(), tpl, end;
    unsigned done = 0;
    smp_post(n, fn_irq_target, rounds, 0, 0);
    end = ticks() + a64_timeout_ticks(run);
    while (!__atomic_load_n(&percpu[n].result[1], __ATOMIC_ACQUIRE) && ticks() < end)
        ;
    tpl = run->irq_mask ? run->irq_mask() : 0;
    gic_set_pmr(SGI_PRIO + 0x10);
    for (; done < rounds; done++) {
        uint64_t before, t0, limit, seen;
        settle(run, s);
        before = __atomic_load_n(&s->pings, __ATOMIC_ACQUIRE);
        t0 = ticks();
        limit = t0 + a64_timeout_ticks(run);
        gic_send_sgi(percpu[n].mpidr, SGI_PING);
        while ((seen = __atomic_load_n(&s->pings, __ATOMIC_ACQUIRE)) == before && ticks() <= limit)
            ;
        if (seen == before)
            break;
        samples[done] = ticks() - t0;
    }
    gic_set_pmr((uint32_t)pmr);
    if (run->irq_restore)
        run->irq_restore(tpl);
    if (done < rounds) {
        /* the target sleeps in WFI: the flag alone would not wake it */
        __atomic_store_n(&percpu[n].arg[3], 1, __ATOMIC_RELEASE);
        gic_send_sgi(percpu[n].mpidr, SGI_CMD);
    }
    return done;
}

void exp_ipi_roundtrip(struct arm64_run *run)
{
    uint64_t t0 = ticks();
    struct experiment_record *e = a64_exp_begin(run, "ipi_roundtrip", run->gic_version == 2 ? "IPI round trip (GICv2 SGI, IRQ entry on the target) from the BSP to each CPU" : "IPI round trip (GICv3 SGI, IRQ entry on the target) from the BSP to each CPU",
                                      "target", 0, false);
    unsigned cpus[MAX_CPUS], k = a64_others(cpus), i;
    struct a64_pace pace;
    bool paced = false;
    if (!run->gic_ok)
        record_set_status(e, RESULT_ERROR, "the GIC could not be set up for SGIs (see run.errors)");
    else if (k == 0)
        record_set_status(e, RESULT_SKIP, "one CPU: no target for an IPI");
    else
        paced = a64_pace_begin(run, e, &pace, k, 1);
    for (i = 0; paced && i < k; i++) {
        unsigned n = cpus[i], done, rounds;
        struct result_point *p;
        /* the target is told how many pings to take: the count is fixed before the point */
        a64_pace_point(&pace);
        rounds = a64_pace_count(&pace);
        done = pingpong(run, n, rounds, pace.buf);
        a64_pace_point_done(&pace, done, done == rounds);
        if (smp_wait(n, a64_timeout_ticks(run)) != 0 || done < rounds) {
            /* the handler's counts since boot tell a lost SGI from one taken but not answered */
            record_note(e, "cpu %u: %u of %u round trips (%s); its IRQ handler took %llu IRQs, %llu SGI_PING",
                     n, done, rounds, done < rounds ? "a ping unanswered within timeout_ms" : "its command unacknowledged after them",
                     (unsigned long long)percpu[n].irq.entries, (unsigned long long)percpu[n].irq.pings);
            a64_cpu_lost(run, n, "ipi_roundtrip");
            e->partial = true;
            continue;
        }
        p = a64_point_add(e);
        if (!p)
            break;
        point_param_num(p, "initiator", 0);
        point_param_num(p, "target", n);
        a64_latency(p, pace.buf, done);
        point_value(p, "irq_entries", (int64_t)percpu[n].result[2] * 1000);
        if (percpu[n].result[2] != done || percpu[n].result[0] || percpu[n].result[3])
            record_note(e, "cpu %u: %llu IRQ entries for %u round trips (%llu other INTIDs, %llu spurious)", n,
                     (unsigned long long)percpu[n].result[2], done, (unsigned long long)percpu[n].result[0],
                     (unsigned long long)percpu[n].result[3]);
    }
    if (paced)
        a64_pace_end(run, e, &pace);
    record_note(e, "the target waits in WFI as Linux's idle does and takes each SGI through its IRQ vector (%s, "
             "EOI, ERET)", run->gic_version == 2 ? "GICC_IAR" : "ICC_IAR1_EL1");
    a64_exp_end(run, e, t0);
}
