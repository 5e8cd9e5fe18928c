/*
 * What the host build of core/ and arch/ gets where the machine build has
 * privileged instructions (arch/x86/include/asm/cpu.h, tlb.h, desc.h with
 * TLBSCOPE_HOST): every TLB-visible instruction goes to the strict model for
 * the calling thread's CPU, and so do stores to live page-table entries
 * (pte_store); IA32_APIC_BASE, the x2APIC MSRs and the xAPIC
 * page to its modelled local APIC (sim/lapic.h), so the tool's own
 * arch/x86/apic.c drives it; the GS base, RFLAGS.IF and the 8259 masks are
 * the modelled CPU's (kept with the thread, sim/thread_cpu.c); CPUID answers as the CPU profile, with each CPU's own
 * APIC ID. Interrupts and exceptions go through the CPU's IDT
 * (sim/hostdesc.c). What serialises (or otherwise orders earlier stores)
 * drains the CPU's store buffer (sim/storebuf.h) through lapic_drain_stores().
 * How a CPU waits (PAUSE, HLT, MWAIT) is sim/hostpower.c's.
 *
 * A thread that plays no CPU (a unit test of a parser) gets harmless
 * answers: CR3 reads 0, a load through the TLB reads 0, CPUID is the host's.
 */
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/cpu.h"
#include "asm/fault.h"
#include "asm/microcode.h"
#include "asm/paging.h"
#include "asm/percpu.h"
#include "asm/tlb.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/mutant.h"
#include "sim/hostcpu.h"
#include "sim/lapic.h"
#include "sim/machine.h"
#include "sim/storebuf.h"

#if defined(__SANITIZE_ADDRESS__)
void __asan_handle_no_return(void);
#endif

#define HOST_MSRS 0x1000

_Static_assert(offsetof(struct trap_frame, rbx) == 104 && offsetof(struct trap_frame, rax) == 112,
               "sim/host_jmp.S");
_Static_assert(offsetof(struct trap_frame, rip) == 136 && offsetof(struct trap_frame, rsp) == 160,
               "sim/host_jmp.S");

static _Thread_local uint64_t msrs[HOST_MSRS];

/* The model and CPU of the calling thread, or NULL when it plays none. */
static struct tlb_model *model(uint32_t *cpu)
{
    struct sim_machine *m = sim_current_machine();
    *cpu = sim_current_cpu();
    return m ? &m->model : NULL;
}

struct arch_percpu *this_arch_percpu(void)
{
    return (struct arch_percpu *)(uintptr_t)*sim_gs_base();
}
void set_arch_percpu(struct arch_percpu *p) { *sim_gs_base() = (uint64_t)(uintptr_t)p; }

/* ---- interrupts ---- */

uint64_t read_rflags(void) { return 0x2 | (irq_enabled() ? 0x200u : 0); }

/* STI: what is pending is taken now (the one-instruction shadow is not modelled) */
void irq_enable(void)
{
    hostcpu_set_if(true);
    sim_poll_interrupts();
}

/* ---- exceptions ---- */

void hostcpu_iret(const struct trap_frame *f)
{
    hostcpu_set_if((f->rflags & 0x200) != 0);
    lapic_drain_stores(); /* IRET serialises */
#if defined(__SANITIZE_ADDRESS__)
    /* the frames between here and the recovery point are abandoned, as by longjmp */
    __asan_handle_no_return();
#endif
    sim_iret(f);
}

void cpu_stop(void) { sim_stop_cpu(); }

void arch_raise_exception(uint32_t vector)
{
    sim_raise_exception(vector, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/*
 * An instruction the modelled CPU lacks: #UD, which the test-only emulation
 * may take (trap_dispatch's step 2, asked directly); when it does not, the
 * model records the #UD as a violation.
 */
static bool raise_ud(const uint8_t *bytes, uint64_t rax, uint64_t rcx, uint64_t rdx)
{
    struct trap_frame f;
    memset(&f, 0, sizeof(f));
    f.vector = 6;
    f.rip = (uint64_t)(uintptr_t)bytes;
    f.rax = rax;
    f.rcx = rcx;
    f.rdx = rdx;
    return trap_emulated_ud(&f);
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
    lapic_drain_stores(); /* MOV to CR3 serialises */
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
    lapic_drain_stores(); /* MOV to CR4 serialises */
    if (m)
        tlbm_write_cr4(m, c, v);
}

void invlpg(const volatile void *va)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    lapic_drain_stores(); /* INVLPG serialises */
    if (m)
        tlbm_invlpg(m, c, (uint64_t)(uintptr_t)va);
}

/*
 * A thread that plays no CPU (table set-up before the CPUs start, parser tests) just stores.
 * On a CPU the PTE store is a store like any other: pending in its store buffer for the
 * x2APIC ICR ordering check (sim/lapic.c) until a fence or a locked instruction. The TLB
 * model takes it at once, so the CPU's buffered stores drain before it: stores stay in
 * program order (sim/storebuf.h).
 */
void pte_store(uint64_t *entry, uint64_t value, uint64_t va)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    if (m) {
        sim_sb_drain();
        tlbm_pte_store(m, c, entry, value, va);
        if (!MUTANT(pte_store_unordered))
            note_store();
    } else
        __atomic_store_n(entry, value, __ATOMIC_RELEASE);
}

/* The model has no caches (sim/tlb_model.h): nothing to flush; one model event. */
void clflush(const volatile void *p)
{
    uint32_t c;
    struct tlb_model *m = model(&c);
    (void)p;
    if (m)
        tlbm_tick(m, c);
}

uint64_t tlb_read64(uint64_t va)
{
    uint32_t c;
    uint64_t v = 0;
    struct tlb_model *m = model(&c);
    /*
     * A read is an instruction of this CPU: its store buffer ages by one event
     * (sim/storebuf.h), as in cpu_relax(). Without it a store stayed pending
     * through a whole working-set refill (the flush handler's ack ticket until
     * its IRET, or 20 us of wall time), and the initiator's wait for it grew
     * with the targets' working set: flush_ceiling's own-refill figure then
     * did too, with or without the initiator's refill (fc_initiator_no_refill
     * lived). A real store buffer drains within a few hundred cycles.
     */
    sim_sb_event();
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
    /* INVPCID is not on the SDM's list of serialising instructions (vol. 3A 10.3): no drain */
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

/* ---- MSRs: the APIC's go to its model, GS base is the CPU's, the rest are plain storage ---- */

uint64_t rdmsr(uint32_t msr)
{
    struct sim_machine *m = sim_current_machine();
    if (msr == MSR_GS_BASE)
        return *sim_gs_base();
    if (m && msr == MSR_EFER)
        return tlbm_read_efer(&m->model, sim_current_cpu());
    if (m && lapic_owns_msr(msr))
        return lapic_rdmsr(m, sim_current_cpu(), msr);
    return msr < HOST_MSRS ? msrs[msr] : 0;
}

void wrmsr(uint32_t msr, uint64_t value)
{
    struct sim_machine *m = sim_current_machine();
    if (m && lapic_owns_msr(msr)) {
        lapic_wrmsr(m, sim_current_cpu(), msr, value); /* it knows which of them serialise */
        return;
    }
    lapic_drain_stores(); /* any other WRMSR serialises */
    if (m && msr == MSR_EFER)
        tlbm_write_efer(&m->model, sim_current_cpu(), value); /* TCE changes what INVLPG drops */
    else if (msr == MSR_GS_BASE)
        *sim_gs_base() = value;
    else if (msr < HOST_MSRS)
        msrs[msr] = value;
}

void weak_wrmsr_fence(void)
{
    struct sim_machine *m = sim_current_machine();
    if (m)
        lapic_fence(m, sim_current_cpu());
    else
        lapic_drain_stores();
}

/* ---- the xAPIC page and I/O ports ---- */

uint32_t mmio_read32(const volatile uint32_t *p)
{
    struct sim_machine *m = sim_current_machine();
    return m ? lapic_mmio_read(m, sim_current_cpu(), (uint64_t)(uintptr_t)p) : 0xffffffffu;
}

void mmio_write32(volatile uint32_t *p, uint32_t v)
{
    struct sim_machine *m = sim_current_machine();
    if (m)
        lapic_mmio_write(m, sim_current_cpu(), (uint64_t)(uintptr_t)p, v);
}

/* The 8259s' mask registers (OCW1); no other port is modelled. */
static uint8_t *pic_mask(struct sim_machine *m, uint16_t port)
{
    return port == 0x21 ? &m->pic_mask[0] : port == 0xa1 ? &m->pic_mask[1] : NULL;
}

uint8_t inb(uint16_t port)
{
    struct sim_machine *m = sim_current_machine();
    uint8_t *mask = m ? pic_mask(m, port) : NULL;
    lapic_drain_stores(); /* no store passes an I/O instruction (SDM vol. 3A 10.2.5) */
    if (m && !mask)
        tlbm_violation(&m->model, sim_current_cpu(), "IN from port 0x%x: not modelled", port);
    return mask ? __atomic_load_n(mask, __ATOMIC_RELAXED) : 0xff;
}

void outb(uint16_t port, uint8_t v)
{
    struct sim_machine *m = sim_current_machine();
    uint8_t *mask = m ? pic_mask(m, port) : NULL;
    lapic_drain_stores(); /* no store passes an I/O instruction (SDM vol. 3A 10.2.5) */
    if (m && !mask)
        tlbm_violation(&m->model, sim_current_cpu(), "OUT to port 0x%x: not modelled", port);
    if (mask)
        __atomic_store_n(mask, v, __ATOMIC_RELAXED);
}

/* ---- CPUID: the profile's, with the calling CPU's APIC ID where CPUID reports it ---- */

void cpuid_raw(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    struct sim_machine *m = sim_current_machine();
    uint32_t id;
    lapic_drain_stores(); /* CPUID serialises */
    if (m && m->cpuid)
        m->cpuid(m->cpuid_ctx, leaf, subleaf, regs);
    else
        __asm__ volatile("cpuid"
                         : "=a"(regs[0]), "=b"(regs[1]), "=c"(regs[2]), "=d"(regs[3])
                         : "a"(leaf), "c"(subleaf));
    if (!m)
        return;
    id = m->lapic[sim_current_cpu()].id;
    if (leaf == 1)
        regs[1] = (regs[1] & 0x00ffffffu) | (id << 24);
    else if (leaf == 0xb || leaf == 0x1f)
        regs[3] = id;
    else if (leaf == 0x8000001e)
        regs[0] = id;
}

/*
 * A modelled CPU reports the revision its profile recorded (or --microcode);
 * none where the profile has none (the report says null, as under QEMU), and
 * none on a thread that plays no CPU.
 */
bool arch_read_microcode(const struct cpu_features *f, uint32_t *revision)
{
    struct sim_machine *m = sim_current_machine();
    (void)f;
    *revision = m && m->microcode_valid ? m->microcode : 0;
    return m && m->microcode_valid;
}
