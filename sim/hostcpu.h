/* The per-thread CPU state behind arch/x86/cpu.h on the host (sim/hostcpu.c), for sim/machine.c. */
#ifndef TLBSCOPE_SIM_HOSTCPU_H
#define TLBSCOPE_SIM_HOSTCPU_H

#include <stdint.h>

#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"

/* The calling thread's %gs:0 block (NULL: it plays no CPU); interrupts start off. */
void hostcpu_bind(struct arch_percpu *pc);
/* Runs the handler the tool registered for `vector`, as the IDT would. */
void hostcpu_deliver(uint8_t vector);
/* Offers an exception to the tool's hook; returns only if nobody took it. */
void hostcpu_exception(struct trap_frame *f);
/* iretq into a frame rewritten by trap_resume_at_recovery(): arch_setjmp returns 1 (host_jmp.S). */
void sim_jump(const struct arch_jmpbuf *jb) __attribute__((noreturn));

#endif
