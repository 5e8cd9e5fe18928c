/*
 * The C part of the IRQ vector (asm/irq.h): acknowledge, count, end. Plain C
 * over the GIC interface (asm/gic.h), apart from the vector's assembly
 * (entry.S) and the fault path (exception.c), so the host build
 * (sim/arm64/) runs this same handler when a modelled CPU takes an SGI.
 */
#include "asm/gic.h"
#include "asm/irq.h"
#include "asm/percpu.h"
#include "core/mutant.h"

/*
 * The GIC is in EOImode 0 on both generations (ICC_CTLR_EL1.EOImode and
 * GICC_CTLR.EOImodeNS as reset leaves them): the EOI both drops the running
 * priority and deactivates, so it comes after the work, as Linux's
 * gic_eoi_irq does then (its EOImode 1 drops the priority first, in
 * gic_complete_ack, and deactivates after). Until the EOI the CPU interface
 * signals nothing of the same priority: an SGI_PING left un-ended keeps every
 * later ping pending, and the BSP's wait for the next one runs into its
 * deadline. 1020..1023 (1023: spurious, the interrupt went away or another
 * took it) are not interrupts to end (Linux: gic_irqnr_is_special).
 */
void irq_handle(void)
{
    struct percpu *pc = this_cpu();
    uint32_t intid = gic_ack();
    pc->irq.entries++;
    if (intid >= 1020) {
        pc->irq.spurious++;
        return;
    }
    if (intid == (MUTANT(arm_irq_ping_wrong_id) ? SGI_CMD : SGI_PING))
        /* the answer the BSP spins on: its counter, in this CPU's own line;
         * release, so the BSP sees whatever the handler did before it */
        __atomic_store_n(&pc->irq.pings, pc->irq.pings + 1, __ATOMIC_RELEASE);
    else
        pc->irq.other++;
    if (!MUTANT(arm_irq_no_eoi))
        gic_eoi(intid);
}
