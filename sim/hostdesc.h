/*
 * The descriptor-table side of a modelled CPU (sim/hostdesc.c): the host's
 * LGDT/LIDT/SGDT/SIDT and segment loads of arch/x86/include/asm/desc.h act on
 * sim_machine.regs, and interrupts and exceptions go through the IDT the
 * CPU has loaded, as the processor takes them.
 */
#ifndef TLBSCOPE_SIM_HOSTDESC_H
#define TLBSCOPE_SIM_HOSTDESC_H

#include <stdint.h>

#include "asm/desc.h"
#include "asm/trap.h"

struct sim_machine;

/* The firmware's IDT: 256 present interrupt gates of selector `cs` into the firmware's handlers. */
void sim_firmware_idt(struct idt_gate *idt, uint16_t cs);
/*
 * Vector `v`, accepted by CPU c's APIC (now in service), delivered through
 * its IDT: the tool's gates run arch/x86/trap.c trap_dispatch(), which EOIs
 * it; the firmware's handler would never EOI a tool vector, so that is a
 * violation and the vector stays in service. Interrupts are off meanwhile.
 */
void sim_deliver_interrupt(struct sim_machine *m, uint32_t c, uint8_t v);
/*
 * An exception on CPU c, through its IDT. Returns when the handler let the
 * interrupted code go on; a handler that rewrote the frame (the recovery
 * point) resumes there instead (sim/host_jmp.S plays the iretq).
 */
void sim_deliver_exception(struct sim_machine *m, uint32_t c, struct trap_frame *f);
/*
 * A probe (asm/probe.h: an MSR read or write, an instruction that may #GP or #UD) recovers
 * from its fault only through the tool's IDT and per-CPU GS: outside the tool's state the
 * fault would reach the firmware's handler (a hang on Bochs, which #GPs MSR 0xE2) and the
 * probe's recovery slot is written through the firmware's GS. A probe issued where CPU c's
 * IDT is not the tool's is a violation, whether or not the modelled MSR faults: on another
 * CPU it may.
 */
void sim_check_probe_context(struct sim_machine *m, uint32_t c, const char *what, uint32_t msr);

#endif
