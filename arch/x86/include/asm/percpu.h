/*
 * Per-CPU anchor reached through the GS base while the tool owns a CPU.
 *
 * Interrupt and exception handlers need "which CPU am I" without searching
 * by APIC ID: each CPU points IA32_GS_BASE at its own block (saved and
 * restored around the takeover), and the block starts with this struct so
 * %gs:0 is a pointer to it. The offsets are used from entry.S.
 */
#ifndef TLBSCOPE_ARCH_X86_PERCPU_H
#define TLBSCOPE_ARCH_X86_PERCPU_H

#define PERCPU_OFF_PROBE_RIP 8
#define PERCPU_OFF_PROBE_FIXUP 16
#define PERCPU_OFF_PROBE_VECTOR 24

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

/* callee-saved registers, as SysV x86-64 defines them, plus rsp and rip */
struct arch_jmpbuf {
    uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

struct arch_percpu {
    struct arch_percpu *self;   /* %gs:0 */
    uint64_t probe_rip;         /* %gs:8   address of the probed instruction */
    uint64_t probe_fixup;       /* %gs:16  where to resume if it faults */
    uint32_t probe_vector;      /* %gs:24  vector + 1 when it faulted */
    uint32_t cpu_index;         /* %gs:28 */
    uint32_t recover_armed;     /* an exception longjmps to `recover` */
    uint32_t in_handler;        /* nesting depth of trap_dispatch */
    struct arch_jmpbuf recover;
    uint64_t irq_count;
    uint64_t spurious_count;
    uint64_t foreign_irq_count; /* interrupts at vectors the tool does not own */
    uint64_t nmi_count;         /* NMIs taken (recorded, not a fault: trap.c) */
    /* set by a wait loop right before "sti; hlt" (core/machine/ipi.h), cleared by the next interrupt */
    volatile uint64_t *parked;
};

/*
 * An interrupt ends a park before its handler runs: an initiator that has
 * seen the handler's acknowledgement and then finds the flag set again
 * knows the CPU went back to sleep after it (x86 keeps the two stores in
 * order; the handler's acknowledgement is a release store).
 */
static inline void arch_unpark(struct arch_percpu *pc)
{
    /* atomics for ThreadSanitizer's sake (the host build); plain moves on x86 */
    if (pc->parked && __atomic_load_n(pc->parked, __ATOMIC_RELAXED))
        __atomic_store_n(pc->parked, 0, __ATOMIC_RELAXED);
}

_Static_assert(offsetof(struct arch_percpu, probe_rip) == PERCPU_OFF_PROBE_RIP, "entry.S");
_Static_assert(offsetof(struct arch_percpu, probe_fixup) == PERCPU_OFF_PROBE_FIXUP, "entry.S");
_Static_assert(offsetof(struct arch_percpu, probe_vector) == PERCPU_OFF_PROBE_VECTOR, "entry.S");

#ifdef TLBSCOPE_HOST
struct arch_percpu *this_arch_percpu(void);
void set_arch_percpu(struct arch_percpu *p);
#else
static inline struct arch_percpu *this_arch_percpu(void)
{
    struct arch_percpu *p;
    __asm__ volatile("mov %%gs:0, %0" : "=r"(p));
    return p;
}
#endif

/* Returns 0, then 1 when an exception handler resumes here (see trap.c). */
int arch_setjmp(struct arch_jmpbuf *jb) __attribute__((returns_twice));
#endif

#endif
