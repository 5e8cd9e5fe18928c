/*
 * Interrupt entry on the secondary CPUs: the IRQ vector of our exception table
 * (arch/arm64/entry.S, current EL with SP_ELx) saves the caller-saved
 * registers and calls irq_handle() (arch/arm64/exception.c), which
 * acknowledges the GIC, counts what it took in the CPU's irq_slot, ends the
 * interrupt and returns with ERET: the path Linux's el1h_64_irq ->
 * gic_handle_irq takes. The BSP keeps the firmware's vectors: it never
 * unmasks IRQs for us.
 *
 * A CPU takes IRQs only where it waits with irq_wait(): everywhere else the
 * secondaries run with DAIF masked (as PSCI CPU_ON starts them) and poll the
 * GIC, so an interrupt can never land in the middle of a mailbox command.
 */
#ifndef TLBSCOPE_ARM64_IRQ_H
#define TLBSCOPE_ARM64_IRQ_H

#include <stdint.h>

/*
 * Written only by the CPU itself (its IRQ handler), read by the BSP. In its own
 * cache line of the CPU's percpu block (asm/percpu.h), apart from the mailbox
 * the BSP writes: a BSP spinning on `pings` must not share a line with the
 * stores it is waiting for, or it measures false sharing (x86: struct
 * ping_slot). Counts only grow; readers take differences.
 */
struct irq_slot {
    volatile uint64_t pings;    /* SGI_PING interrupts taken; a release store, the BSP's answer */
    volatile uint64_t entries;  /* IRQ exceptions taken: every INTID, spurious ones too */
    volatile uint64_t other;    /* INTIDs other than SGI_PING, acknowledged and ended */
    volatile uint64_t spurious; /* acknowledges that read 1020..1023: nothing to end */
    /* written by the CPU's wait loop, not the handler: `pings` as it was when the CPU last
     * went into WFI (equal to `pings` while it sleeps since its last ping) */
    volatile uint64_t asleep_at;
} __attribute__((aligned(128)));

/*
 * One idle step as Linux's idle loop takes it (do_idle -> arch_cpu_idle ->
 * cpu_do_idle, then the IRQ enable): WFI with PSTATE.I masked, then IRQs
 * unmasked for a moment, where a pending interrupt is taken through the
 * vector, then masked again. WFI wakes on a pending interrupt whether or not
 * PSTATE.I masks it (Arm ARM, "Wait for Interrupt"), so a flag checked just
 * before the WFI cannot miss the interrupt that set it: with IRQs unmasked
 * across the check, the interrupt could be taken between the check and the
 * WFI, which would then sleep with nothing pending. The ISB after the unmask
 * is the context synchronisation by which a pending, unmasked interrupt has
 * been taken. Needs the GIC's priority mask to let the interrupt through (the
 * secondaries' PMR is 0xf0): WFI does not wake for an interrupt the CPU
 * interface does not signal.
 */
#ifdef TLBSCOPE_HOST
/* the host build: wait until an SGI is pending for the calling CPU (a deadline on the
 * host clock), then take it through irq_handle (sim/arm64/host_gic.c) */
void irq_wait(void);
#else
static inline void irq_wait(void)
{
    __asm__ volatile("dsb sy\n\twfi\n\tmsr daifclr, #2\n\tisb\n\tmsr daifset, #2" ::: "memory");
}
#endif

/* the IRQ handler, called by entry.S's IRQ vector with the interrupted
 * context's caller-saved registers on the stack */
void irq_handle(void);

#endif
