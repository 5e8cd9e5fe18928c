/*
 * What the host build of core/ and arch/ gets where the machine build has
 * privileged instructions, the APIC and the IDT (arch/x86/cpu.h, tlb.h,
 * apic.h, trap.h with TLBSCOPE_HOST): every TLB-visible instruction goes to
 * the strict model for the calling thread's CPU; IPIs and exceptions go to
 * the modelled machine (sim/machine.c).
 *
 * A thread that plays no CPU (a unit test of a parser) gets harmless
 * answers: CR3 reads 0, a load through the TLB reads 0.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/fault.h"
#include "arch/x86/microcode.h"
#include "arch/x86/percpu.h"
#include "arch/x86/tlb.h"
#include "arch/x86/trap.h"
#include "sim/hostcpu.h"
#include "sim/machine.h"

#if defined(__SANITIZE_ADDRESS__)
void __asan_handle_no_return(void);
#endif

#define HOST_MSRS 0x1000

static _Thread_local struct arch_percpu *current_percpu;
static _Thread_local bool irq_on;
static _Thread_local uint64_t msrs[HOST_MSRS];

static irq_handler irq_handlers[256];
static exception_hook ud_hook;
static exception_hook unexpected_hook;

/* The model and CPU of the calling thread, or NULL when it plays none. */
static struct tlb_model *model(uint32_t *cpu)
{
    struct sim_machine *m = sim_current_machine();
    *cpu = sim_current_cpu();
    return m ? &m->model : NULL;
}

void hostcpu_bind(struct arch_percpu *pc)
{
    current_percpu = pc;
    irq_on = false;
}

struct arch_percpu *this_arch_percpu(void) { return current_percpu; }
void set_arch_percpu(struct arch_percpu *p) { current_percpu = p; }

/* ---- interrupts ---- */

void irq_disable(void) { irq_on = false; }
void irq_enable(void) { irq_on = true; }
bool irq_enabled(void) { return irq_on; }

void cpu_relax(void)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (m)
        tlbm_tick(m, c);
    sim_poll_interrupts();
    sched_yield();
}

/* "sti; nop; cli": the modelled CPU takes interrupts where it yields. */
void cpu_irq_window(void)
{
    irq_on = true;
    cpu_relax();
    irq_on = false;
}

/* "sti; hlt": wake on the next interrupt; the spin loops around it re-check their condition. */
void cpu_halt_until_irq(void)
{
    irq_on = true;
    cpu_relax();
}

void trap_set_irq_handler(uint8_t vector, irq_handler h) { irq_handlers[vector] = h; }
void trap_set_ud_hook(exception_hook h) { ud_hook = h; }
void trap_set_exception_hook(exception_hook h) { unexpected_hook = h; }

void hostcpu_deliver(uint8_t vector)
{
    struct trap_frame f;
    memset(&f, 0, sizeof(f));
    f.vector = vector;
    if (current_percpu)
        arch_unpark(current_percpu);
    if (irq_handlers[vector])
        irq_handlers[vector](&f);
    else if (current_percpu)
        current_percpu->foreign_irq_count++;
}

/* ---- exceptions ---- */

void hostcpu_exception(struct trap_frame *f)
{
    if (unexpected_hook)
        unexpected_hook(f); /* resumes at the recovery point when one is armed */
}

void trap_resume_at_recovery(struct trap_frame *f)
{
    struct arch_percpu *pc = this_arch_percpu();
    (void)f;
    pc->recover_armed = 0; /* one shot, as on the machine */
    irq_on = false;        /* resume with interrupts off */
#if defined(__SANITIZE_ADDRESS__)
    /* the frames between here and the recovery point are abandoned, as by longjmp */
    __asan_handle_no_return();
#endif
    sim_jump(&pc->recover);
}

void arch_raise_exception(uint32_t vector)
{
    sim_raise_exception(vector, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* An instruction the modelled CPU lacks: #UD, which the test-only emulation may take. */
static bool raise_ud(const uint8_t *bytes, uint64_t rax, uint64_t rcx, uint64_t rdx)
{
    struct trap_frame f;
    memset(&f, 0, sizeof(f));
    f.vector = 6;
    f.rip = (uint64_t)(uintptr_t)bytes;
    f.rax = rax;
    f.rcx = rcx;
    f.rdx = rdx;
    return ud_hook && ud_hook(&f);
}

/* ---- control registers and TLB instructions ---- */

uint64_t read_cr2(void) { return 0; }

uint64_t read_cr3(void)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    return m ? tlbm_read_cr3(m, c) : 0;
}

void write_cr3(uint64_t v)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (m)
        tlbm_write_cr3(m, c, v);
}

uint64_t read_cr4(void)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    return m ? m->cpu[c]->cr4 : 0;
}

void write_cr4(uint64_t v)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (m)
        tlbm_write_cr4(m, c, v);
}

void invlpg(const volatile void *va)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (m)
        tlbm_invlpg(m, c, (uint64_t)(uintptr_t)va);
}

void flush_local_all(void)
{
    /* a CR3 rewrite, as on the machine (arch/x86/tlb.h) */
    write_cr3(read_cr3() & ~CR3_NOFLUSH);
}

uint64_t tlb_read64(uint64_t va)
{
    uint32_t c;
    uint64_t v = 0;
    struct tlb_model *m = model(&c);
    if (m)
        tlbm_read64(m, c, va, &v);
    return v;
}

void invpcid(uint64_t type, uint64_t pcid, uint64_t address)
{
    /* invpcid (%rcx), %rax: what emulate.c decodes after a #UD */
    static const uint8_t bytes[] = { 0x66, 0x0f, 0x38, 0x82, 0x01 };
    struct invpcid_descriptor d = { pcid, address };
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (!m)
        return;
    if (!m->cfg.feat.invpcid && raise_ud(bytes, type, (uint64_t)(uintptr_t)&d, 0))
        return;
    tlbm_invpcid(m, c, type, pcid, address);
}

void invlpgb_raw(uint64_t rax, uint32_t ecx, uint32_t edx)
{
    static const uint8_t bytes[] = { 0x0f, 0x01, 0xfe };
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (!m)
        return;
    if (!m->cfg.feat.invlpgb && raise_ud(bytes, rax, ecx, edx))
        return;
    tlbm_invlpgb(m, c, rax, ecx, edx);
}

void tlbsync(void)
{
    static const uint8_t bytes[] = { 0x0f, 0x01, 0xff };
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (!m)
        return;
    if (!m->cfg.feat.invlpgb && raise_ud(bytes, 0, 0, 0))
        return;
    tlbm_tlbsync(m, c);
}

uint64_t rdmsr(uint32_t msr) { return msr < HOST_MSRS ? msrs[msr] : 0; }

void wrmsr(uint32_t msr, uint64_t value)
{
    if (msr < HOST_MSRS)
        msrs[msr] = value;
}

/* A modelled CPU has no microcode to report (the report says null, as under QEMU). */
bool arch_read_microcode(const struct cpu_features *f, uint32_t *revision)
{
    (void)f;
    *revision = 0;
    return false;
}

/* ---- the local APIC: IPIs between threads ---- */

bool apic_send_ipi(uint32_t dest, uint8_t vector)
{
    sim_send_ipi(dest, vector);
    return true;
}

bool apic_send_ipi_all_but_self(uint8_t vector)
{
    sim_send_ipi(UINT32_MAX, vector);
    return true;
}

void apic_eoi(void) {}

/* The heartbeat bounds a halt on the machine; a thread's halt is one yield here. */
void apic_arm_heartbeat(uint8_t vector, uint32_t counts)
{
    (void)vector;
    (void)counts;
}

void apic_arm_heartbeat_periodic(uint8_t vector, uint32_t counts)
{
    (void)vector;
    (void)counts;
}

void apic_disarm_heartbeat(void) {}
