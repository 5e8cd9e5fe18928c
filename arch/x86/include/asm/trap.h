/*
 * Interrupt and exception dispatch for the tool's IDT.
 *
 * Order of handling for a vector below 32:
 *   0. an NMI (vector 2) is counted in the per-CPU block and returns;
 *   1. a probe site (arch/x86/include/asm/probe.h) resumes at its fixup and reports the vector;
 *   2. the #UD emulation hook, when installed (test-only emulate= mode);
 *   3. the unexpected-exception hook, which records the fault; if the CPU has
 *      a recovery point armed the frame is rewritten so that iretq lands in
 *      arch_setjmp() returning 1 (a longjmp without unwinding the handler).
 * Vectors 32 and above: EOI (except the spurious vector), then the handler
 * registered for the vector, if any.
 */
#ifndef TLBSCOPE_ARCH_X86_TRAP_H
#define TLBSCOPE_ARCH_X86_TRAP_H

#include <stdbool.h>
#include <stdint.h>

struct trap_frame {
    uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
    uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
    uint64_t vector, error_code;
    uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

typedef void (*irq_handler)(struct trap_frame *f);
/* Returns true when it handled the exception (the frame may be modified). */
typedef bool (*exception_hook)(struct trap_frame *f);

#define VECTOR_NMI 2
#define VECTOR_SPURIOUS 0xff

void trap_set_irq_handler(uint8_t vector, irq_handler h);
void trap_set_ud_hook(exception_hook h);
void trap_set_exception_hook(exception_hook h);
/* A trap from CPL 3 (the ring-3 loop's way back, or its fault) goes to `h` first
 * (arch/x86/ring3.c sets it: a hook, so that trap.c never calls ring3.c back). */
void trap_set_cpl3_hook(exception_hook h);
/* Step 2 of the order above: true when the #UD emulation hook took the exception. */
bool trap_emulated_ud(struct trap_frame *f);
/* Makes iretq resume in the armed arch_setjmp() with return value 1. */
void trap_resume_at_recovery(struct trap_frame *f);
struct arch_jmpbuf;
/* The same for any point arch_setjmp() armed (asm/ring3.h's way back from CPL 3). */
void trap_resume_at(struct trap_frame *f, const struct arch_jmpbuf *jb);
bool exception_has_error_code(uint32_t vector);
const char *exception_name(uint32_t vector);

void trap_dispatch(struct trap_frame *f); /* called from entry.S */

#endif
