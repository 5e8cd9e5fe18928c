/* The per-thread CPU state behind arch/x86/include/asm/cpu.h on the host (sim/hostcpu.c), for sim/machine.c. */
#ifndef TLBSCOPE_SIM_HOSTCPU_H
#define TLBSCOPE_SIM_HOSTCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/percpu.h"
#include "asm/trap.h"

/* sim/thread_cpu.c: a thread that plays no CPU: what its GS base points at (NULL: nothing); interrupts start off. */
void hostcpu_bind(struct arch_percpu *pc);
/* RFLAGS.IF as an interrupt gate or iretq sets it: no delivery on the way (sim/thread_cpu.c). */
void hostcpu_set_if(bool on);
/* The calling CPU's GS base, or the slot of a thread that plays none (sim/thread_cpu.c). */
uint64_t *sim_gs_base(void);
/* iretq into a frame rewritten by trap_resume_at_recovery(): arch_setjmp returns 1. */
void hostcpu_iret(const struct trap_frame *f) __attribute__((noreturn));
/* sim/host_jmp.S: loads the frame's callee-saved registers, RSP and RAX, and jumps to its RIP. */
void sim_iret(const struct trap_frame *f) __attribute__((noreturn));

/*
 * The calling CPU runs (sim/hostpower.c, from its cpu_relax()): every cpu_relax() outside MWAIT,
 * HLT included (C1), leaves the deep C-state its last MWAIT asked for, so
 * its core's residency counters stop counting for its siblings.
 */
void hostpower_running(void);

#endif
