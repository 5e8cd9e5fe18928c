/*
 * Where our exception vectors (entry.S) land on a secondary CPU.
 *
 * An IRQ (current EL, SP_ELx) goes to irq_handle: acknowledge, count, end
 * (asm/irq.h). Anything else is a fault: record the vector (which of
 * current-EL SP0/SPx, lower-EL A64/A32 x sync/IRQ/FIQ/SError), ESR (EC =
 * [31:26]), FAR and ELR in the per-CPU block for the BSP (the report's
 * topology.cpus[].fault), print them on the serial port, and park the CPU
 * with everything masked: a fault is a bug to report, not to recover from.
 */
#include "asm/gic.h"
#include "asm/irq.h"
#include "asm/percpu.h"
#include "asm/uart.h"
#include "core/lib/strbuf.h"
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

__attribute__((noreturn)) void fault_report(uint64_t vec, uint64_t esr, uint64_t far, uint64_t elr);

void fault_report(uint64_t vec, uint64_t esr, uint64_t far, uint64_t elr)
{
    static const char *const kind[4] = { "sync", "irq", "fiq", "serror" };
    struct percpu *pc = this_cpu();
    char line[160];
    fmt_into(line, sizeof(line), "FAULT cpu %u: vector %llu (%s), ESR 0x%llx FAR 0x%llx ELR 0x%llx: parked\n",
             pc ? pc->idx : 999u, (unsigned long long)vec, kind[vec & 3], (unsigned long long)esr,
             (unsigned long long)far, (unsigned long long)elr);
    uart_puts(line);
    if (pc) {
        pc->fault_esr = esr;
        pc->fault_far = far;
        pc->fault_elr = elr;
        pc->fault_vector = vec;
        __atomic_store_n(&pc->state, CPU_PARKED, __ATOMIC_RELEASE);
    }
    __asm__ volatile("msr daifset, #0xf");
    for (;;)
        __asm__ volatile("wfi");
}
