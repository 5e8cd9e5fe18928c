/*
 * Where our exception vectors (entry.S) land on a secondary CPU.
 *
 * An IRQ (current EL, SP_ELx) goes to irq_handle (irq.c: acknowledge, count,
 * end; asm/irq.h). Anything else is a fault: record the vector (which of
 * current-EL SP0/SPx, lower-EL A64/A32 x sync/IRQ/FIQ/SError), ESR (EC =
 * [31:26]), FAR and ELR in the per-CPU block for the BSP (the report's
 * topology.cpus[].fault), print them on the serial port, and park the CPU
 * with everything masked: a fault is a bug to report, not to recover from.
 */
#include "asm/percpu.h"
#include "asm/uart.h"
#include "core/lib/strbuf.h"

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
