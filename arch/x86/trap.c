#include "asm/trap.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/percpu.h"
#include "asm/ring3.h"

#define EFLAGS_IF (1ull << 9)

static irq_handler irq_handlers[256];
static exception_hook ud_hook;
static exception_hook unexpected_hook;
static exception_hook cpl3_hook; /* arch/x86/ring3.c's, set on the CPU about to enter CPL 3 */

void trap_set_irq_handler(uint8_t vector, irq_handler h) { irq_handlers[vector] = h; }
void trap_set_ud_hook(exception_hook h) { ud_hook = h; }
void trap_set_exception_hook(exception_hook h) { unexpected_hook = h; }
void trap_set_cpl3_hook(exception_hook h) { cpl3_hook = h; }

bool trap_emulated_ud(struct trap_frame *f) { return ud_hook && ud_hook(f); }

void trap_resume_at_recovery(struct trap_frame *f)
{
    struct arch_percpu *pc = this_arch_percpu();
    trap_resume_at(f, &pc->recover);
    pc->recover_armed = 0;      /* one shot: a second fault must not loop */
}

void trap_resume_at(struct trap_frame *f, const struct arch_jmpbuf *jb)
{
    f->rbx = jb->rbx;
    f->rbp = jb->rbp;
    f->r12 = jb->r12;
    f->r13 = jb->r13;
    f->r14 = jb->r14;
    f->r15 = jb->r15;
    f->rsp = jb->rsp;
    f->rip = jb->rip;
    f->rax = 1;                 /* arch_setjmp() returns 1 */
    f->rflags &= ~EFLAGS_IF;    /* resume with interrupts off */
}

void trap_dispatch(struct trap_frame *f)
{
    struct arch_percpu *pc = this_arch_percpu();
    uint32_t vector = (uint32_t)(f->vector & 0xff);

    /*
     * An NMI is no fault of the interrupted code: counted (the report names
     * the CPUs that took one) and the code resumes. Checked before the probe
     * site, which an NMI may interrupt without the probed instruction
     * having faulted. The BSP keeps LINT1 as the firmware set it (the
     * platform's NMI line, as Linux keeps it); the APs mask it (takeover.c).
     */
    if (vector == VECTOR_NMI) {
        pc->nmi_count++;
        return;
    }
    /* the CPL 3 loop's way back, or its fault: back to its caller at CPL 0 */
    if ((f->cs & 3) == 3 && (vector < 32 || vector == RING3_EXIT_VECTOR) && cpl3_hook && cpl3_hook(f))
        return;
    if (vector < 32) {
        if (pc->probe_rip && f->rip == pc->probe_rip) {
            pc->probe_vector = vector + 1;
            f->rip = pc->probe_fixup;
            pc->probe_rip = 0;
            return;
        }
        if (vector == 6 && trap_emulated_ud(f))
            return;
        if (unexpected_hook && unexpected_hook(f))
            return;
        /*
         * Nobody can take this exception: stop this CPU here rather than
         * return into an instruction that will fault again. Its owner sees
         * it stop answering and reports it as hung.
         */
        cpu_stop();
    }

    pc->irq_count++;
    if (vector == VECTOR_SPURIOUS) {
        /* the spurious vector is not in service: no EOI (SDM vol. 3A, 11.9) */
        pc->spurious_count++;
        return;
    }
    apic_eoi();
    arch_unpark(pc);
    if (irq_handlers[vector])
        irq_handlers[vector](f);
    else
        pc->foreign_irq_count++;
}
