/*
 * The modelled local APIC, one per CPU of the modelled machine: what the
 * tool's real arch/x86/apic.c drives on the host. sim/hostcpu.c sends it the
 * lowest primitives: RDMSR/WRMSR of IA32_APIC_BASE and of the x2APIC MSRs
 * 0x800-0x8ff, and 32-bit reads and writes of the xAPIC MMIO page.
 *
 * Modelled (SDM vol. 3A, chapter 11):
 *   registers    ID, version, TPR, PPR, EOI, LDR, DFR, SVR, ISR, TMR, IRR,
 *                ESR, the LVTs, ICR, timer initial/current count and divide,
 *                SELF IPI; as MMIO (xAPIC: ICR in two halves, ID in bits
 *                31:24) or as MSRs (x2APIC: 0x800 + offset / 16, ICR one
 *                64-bit MSR 0x830, the full 32-bit ID);
 *   modes        IA32_APIC_BASE EN and EXTD: disabled, xAPIC, x2APIC, and
 *                the legal transitions (figure 11-27): x2APIC -> xAPIC and
 *                disabled -> x2APIC only through the other state, EXTD only
 *                on a CPU with x2APIC; going to disabled resets the APIC;
 *   IPIs         fixed delivery, physical destination or a shorthand (self,
 *                all, all but self), into the destination's IRR; an xAPIC
 *                ICR stays busy (delivery status) for a random few reads
 *                after a send, and a send while it is busy is lost;
 *   acceptance   highest priority first: the highest IRR vector whose class
 *                is above PPR = max(TPR, highest in-service vector) moves to
 *                ISR and is delivered through the CPU's IDT (sim/hostdesc.c);
 *                EOI retires the highest in-service vector;
 *   timer        one-shot and periodic, counting 1 GHz / divide (QEMU's
 *                APIC clock) on the host's monotonic clock;
 *   ordering     a WRMSR to an x2APIC register is not serialising (SDM
 *                11.12.3; serialising on AMD and Hygon, whose vendors say
 *                so): the stores the CPU made before it may still be in its
 *                store buffer, so the target of an ICR write could take the
 *                IPI before it can see the request it is about to read. The
 *                host build of core/lib/atomic.h notes every store as pending
 *                for its CPU; a fence (weak_wrmsr_fence), a locked
 *                instruction, a serialising instruction (another WRMSR, MOV
 *                to CR3/CR4, INVLPG, LGDT/LIDT, CPUID, IRET), an I/O
 *                instruction or an uncached access (the xAPIC page) drains
 *                them. An x2APIC ICR or SELF IPI write while stores are
 *                pending is a violation: flagged on every send, where the
 *                CPU's store buffer (sim/storebuf.h), which really holds the
 *                stores back, would show the missing fence only when the
 *                target's thread happened to look in that window. The
 *                unfenced ICR write leaves the buffer as it is.
 * What a CPU would fault on (#GP: a reserved or read-only bit, a register
 * the mode lacks, an illegal mode transition) and what would go wrong
 * without a fault (an unordered ICR write, a lost send, an IPI to nobody)
 * is a violation of the TLB model's list (tlbm_violation), naming the CPU.
 *
 * Not modelled: NMI, INIT, SIPI, SMI and lowest-priority delivery, logical
 * destinations, the TSC-deadline timer, LINT pins and the platform's
 * interrupts (the firmware's own timer tick included), spurious interrupts,
 * the error interrupt, and the address translation of the xAPIC page.
 */
#ifndef TLBSCOPE_SIM_LAPIC_H
#define TLBSCOPE_SIM_LAPIC_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/tlb_model.h"

struct sim_lapic_config {
    bool x2apic;           /* CPUID.01H:ECX[21]: IA32_APIC_BASE.EXTD may be set */
    bool firmware_x2apic;  /* the firmware hands the CPUs over in x2APIC mode */
    bool x2apic_serialising; /* AMD, Hygon: an x2APIC WRMSR waits for earlier stores */
};

#define LAPIC_LVTS 7 /* CMCI, timer, thermal, performance, LINT0, LINT1, error */

struct sim_lapic {
    /* read by every CPU (atomics); written by the owner, IRR by senders */
    uint64_t base;          /* IA32_APIC_BASE */
    uint32_t id;            /* initial APIC ID (the CPU's index on the modelled machine) */
    uint32_t irr[8];        /* senders set bits; the owner clears them on acceptance */
    /* the owner's alone */
    uint32_t isr[8];
    uint32_t tpr, ldr, dfr, svr, esr, icr_lo, icr_hi, timer_init, timer_div;
    uint32_t lvt[LAPIC_LVTS];
    uint32_t busy_reads;    /* xAPIC: ICR reads left that still show delivery status 1 */
    uint64_t timer_due_ns, timer_period_ns;
    uint64_t rng;
    /* the firmware's state, for the hand-back check */
    uint64_t fw_base;
    uint32_t fw_tpr, fw_svr, fw_lvt[LAPIC_LVTS];
    /* what tests count */
    uint64_t fences, icr_writes, delivered, eois, lost;
} __attribute__((aligned(64)));

struct sim_machine;

/* Power-up state for CPU `cpu` (APIC ID = cpu), then the firmware's hand-over state. */
void lapic_reset_all(struct sim_machine *m, const struct sim_lapic_config *cfg, uint64_t seed);

/* The instructions of the calling CPU `c`. */
uint64_t lapic_rdmsr(struct sim_machine *m, uint32_t c, uint32_t msr);
void lapic_wrmsr(struct sim_machine *m, uint32_t c, uint32_t msr, uint64_t value);
uint32_t lapic_mmio_read(struct sim_machine *m, uint32_t c, uint64_t addr);
void lapic_mmio_write(struct sim_machine *m, uint32_t c, uint64_t addr, uint32_t value);
/* MFENCE;LFENCE before an x2APIC WRMSR: drains the stores and counts the fence. */
void lapic_fence(struct sim_machine *m, uint32_t c);
/* A serialising instruction or a locked one: the pending stores drain. */
void lapic_drain_stores(void);
/* True for MSRs whose accesses go to the modelled APIC (IA32_APIC_BASE, 0x800-0x8ff). */
bool lapic_owns_msr(uint32_t msr);

/*
 * The calling CPU, interrupts enabled: its timer fires when due, then the
 * highest-priority deliverable vector moves from IRR to ISR. Returns it, or
 * -1 when none can be delivered now.
 */
int lapic_accept(struct sim_machine *m, uint32_t c);
/* True when a vector >= lowest is pending or in service on CPU c (tests). */
bool lapic_vector_seen(const struct sim_lapic *l, uint8_t lowest);
/*
 * After CPU c went back to the firmware: a violation for each way its APIC
 * differs from how the firmware handed it over (mode, TPR, SVR, LVTs), and
 * for a vector still pending or in service, which the firmware would take
 * through its own IDT and never EOI.
 */
void lapic_check_handback(struct sim_machine *m, uint32_t c);

#endif
