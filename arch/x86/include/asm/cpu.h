/*
 * x86 instruction wrappers used by core/ and efi/.
 *
 * Unprivileged ones (CPUID, RDTSC, PAUSE, fences) are the same everywhere.
 * Privileged ones cannot run in a host test process: when TLBSCOPE_HOST is
 * defined they are declared here and implemented by the modelled machine
 * (sim/hostcpu.c): TLB-visible instructions go to the strict TLB model, APIC
 * registers (MSRs and the xAPIC page) to the modelled local APIC, CPUID to
 * the CPU profile. In the EFI build each records its
 * site (arch/x86/include/asm/insn_sites.h), which tests/checks/insn_encoding.sh checks
 * in the built binary.
 */
#ifndef TLBSCOPE_ARCH_X86_CPU_H
#define TLBSCOPE_ARCH_X86_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/insn_sites.h"

static inline uint64_t rdtsc_raw(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/*
 * Timestamps for measurements: LFENCE before RDTSC keeps earlier instructions
 * from drifting past the read (Intel SDM vol. 2B RDTSC; on AMD LFENCE is
 * dispatch-serialising once MSR C001_1029[1] is set, which every firmware
 * with the Spectre v1 updates does). The same sequence is used to measure
 * the timer overhead recorded in the report.
 */
static inline uint64_t tsc_now(void)
{
    __asm__ volatile("lfence" ::: "memory");
    return rdtsc_raw();
}

/*
 * The timestamps of a timed window (issue 32 item 8, as Linux orders its own
 * reads): the opening one "lfence; rdtsc; lfence", so that nothing before it
 * is still executing and nothing after it has started when the TSC is read;
 * the closing one "rdtscp; lfence": RDTSCP reads only once every earlier
 * instruction has executed and its loads are globally visible, and the
 * LFENCE keeps what follows out (Intel SDM vol. 2B RDTSCP). Both rely on
 * LFENCE being dispatch-serialising: on Intel by the architecture, on AMD
 * with DE_CFG[1] set or CPUID 8000_0021 EAX[2] (core/machine/amd_boot.h).
 * Where CPUID lacks RDTSCP (80000001:EDX[27]) the closing one is the
 * opening sequence: tsc_use_rdtscp() says which, once, before any timing.
 */
extern bool tsc_close_rdtscp;
void tsc_use_rdtscp(bool available);
/* The two sequences as the report names them (method.timestamp): "OPENING..CLOSING". */
const char *tsc_sequence(void);

static inline uint64_t tsc_open(void)
{
    uint64_t t;
    __asm__ volatile("lfence" ::: "memory");
    t = rdtsc_raw();
    __asm__ volatile("lfence" ::: "memory");
    return t;
}

static inline uint64_t tsc_close(void)
{
    uint32_t lo, hi, aux;
    if (!tsc_close_rdtscp)
        return tsc_open();
    __asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
    (void)aux;
    return ((uint64_t)hi << 32) | lo;
}

static inline void mfence(void) { __asm__ volatile("mfence" ::: "memory"); }
static inline void lfence(void) { __asm__ volatile("lfence" ::: "memory"); }
static inline void compiler_barrier(void) { __asm__ volatile("" ::: "memory"); }

#ifdef TLBSCOPE_HOST
/* CPUID of the modelled CPU the calling thread plays (sim/hostcpu.c); the host's otherwise. */
void cpuid_raw(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);
uint64_t read_rflags(void);
uint8_t inb(uint16_t port);
void outb(uint16_t port, uint8_t v);
uint32_t mmio_read32(const volatile uint32_t *p);
void mmio_write32(volatile uint32_t *p, uint32_t v);
void weak_wrmsr_fence(void);
void cpu_stop(void) __attribute__((noreturn));
void cpu_relax(void);
void irq_disable(void);
void irq_enable(void);
bool irq_enabled(void);
void cpu_halt_until_irq(void);
void cpu_irq_window(void);
uint64_t read_cr3(void);
void write_cr3(uint64_t v);
uint64_t read_cr4(void);
void write_cr4(uint64_t v);
void invlpg(const volatile void *va);
uint64_t rdmsr(uint32_t msr);
void wrmsr(uint32_t msr, uint64_t value);
uint64_t read_cr2(void);
uint64_t tlb_read64(uint64_t va);
void clflush(const volatile void *p);
#else
static inline void cpuid_raw(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    __asm__ volatile("cpuid"
                     : "=a"(regs[0]), "=b"(regs[1]), "=c"(regs[2]), "=d"(regs[3])
                     : "a"(leaf), "c"(subleaf));
}

/* Device registers (the xAPIC page): one uncached 32-bit access each. */
static inline uint32_t mmio_read32(const volatile uint32_t *p) { return *p; }
static inline void mmio_write32(volatile uint32_t *p, uint32_t v) { *p = v; }

/*
 * Orders a following WRMSR to an x2APIC register after every earlier store
 * and load: those writes are not serialising (SDM vol. 3A, 11.12.3), so the
 * WRMSR could otherwise pass them (Linux weak_wrmsr_fence()).
 */
static inline void weak_wrmsr_fence(void) { __asm__ volatile("mfence; lfence" ::: "memory"); }

/*
 * A CPU that cannot go on (an exception nobody can take) stops here for
 * good, interrupts off; its owner's deadline names it.
 */
static inline __attribute__((noreturn)) void cpu_stop(void)
{
    /* spin-ok: a CPU with an unrecoverable exception stops for good; the BSP's deadline names it */
    for (;;)
        __asm__ volatile("cli; hlt");
}

/*
 * Writes back and invalidates the line holding p in every cache of the
 * coherence domain, every CPU's included (SDM vol. 2A, CLFLUSH; CPUID.1:EDX[19],
 * present on every x86-64 CPU). Ordered with writes and fences, not with
 * later loads: an mfence() before the loads that must miss. (The model of
 * the host build has no caches: its stand-in only counts a model event.)
 */
static inline void clflush(const volatile void *p)
{
    __asm__ volatile("clflush (%0)" ::"r"(p) : "memory");
}

/*
 * A load through the TLB from a test virtual address: what a verifier uses
 * to see whether a CPU still holds a stale translation. (The host stand-in
 * simulates a per-CPU TLB here.)
 */
static inline uint64_t tlb_read64(uint64_t va)
{
    return *(const volatile uint64_t *)(uintptr_t)va;
}

/* Each spin iteration calls cpu_relax(); the host stand-in delivers "IPIs" there. */
static inline void cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }
static inline void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }

static inline uint64_t read_rflags(void)
{
    uint64_t f;
    __asm__ volatile("pushfq; popq %0" : "=r"(f)::"memory");
    return f;
}

static inline bool irq_enabled(void) { return (read_rflags() >> 9) & 1; }

/*
 * STI's one-instruction interrupt shadow makes "sti; hlt" atomic: an
 * interrupt that became pending while IF was clear wakes the HLT instead of
 * being taken just before it (and then sleeping until the next one).
 */
static inline void cpu_halt_until_irq(void) { __asm__ volatile("sti; hlt" ::: "memory"); }

/*
 * Interrupts on for exactly one instruction, then off: a pending interrupt
 * is taken after the NOP (STI's shadow covers the NOP itself) and no other
 * work is in the window.
 */
static inline void cpu_irq_window(void) { __asm__ volatile("sti; nop; cli" ::: "memory"); }

static inline uint64_t read_cr0(void)
{
    uint64_t v;
    __asm__ volatile __inline__(INSN_AT "mov %%cr0, %0" INSN_RECORD(INSN_KIND_MOV_FROM_CR0, "%0") : "=r"(v));
    return v;
}

static inline uint64_t read_cr2(void)
{
    uint64_t v;
    __asm__ volatile __inline__(INSN_AT "mov %%cr2, %0" INSN_RECORD(INSN_KIND_MOV_FROM_CR2, "%0") : "=r"(v));
    return v;
}

static inline uint64_t read_cr3(void)
{
    uint64_t v;
    __asm__ volatile __inline__(INSN_AT "mov %%cr3, %0" INSN_RECORD(INSN_KIND_MOV_FROM_CR3, "%0") : "=r"(v));
    return v;
}

static inline void write_cr3(uint64_t v)
{
    __asm__ volatile __inline__(INSN_AT "mov %0, %%cr3" INSN_RECORD(INSN_KIND_MOV_TO_CR3, "%0")::"r"(v)
                     : "memory");
}

static inline uint64_t read_cr4(void)
{
    uint64_t v;
    __asm__ volatile __inline__(INSN_AT "mov %%cr4, %0" INSN_RECORD(INSN_KIND_MOV_FROM_CR4, "%0") : "=r"(v));
    return v;
}

static inline void write_cr4(uint64_t v)
{
    __asm__ volatile __inline__(INSN_AT "mov %0, %%cr4" INSN_RECORD(INSN_KIND_MOV_TO_CR4, "%0")::"r"(v)
                     : "memory");
}

static inline void invlpg(const volatile void *va)
{
    __asm__ volatile __inline__(INSN_AT "invlpg (%0)" INSN_RECORD(INSN_KIND_INVLPG, "(%0)")::"r"(va)
                     : "memory");
}

static inline uint64_t rdmsr(uint32_t msr)
{
    uint32_t lo, hi;
    __asm__ volatile __inline__(INSN_AT "rdmsr" INSN_RECORD(INSN_KIND_RDMSR, "") : "=a"(lo), "=d"(hi)
                     : "c"(msr));
    return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t value)
{
    __asm__ volatile __inline__(INSN_AT "wrmsr" INSN_RECORD(INSN_KIND_WRMSR, "")::"c"(msr),
                     "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
                     : "memory");
}

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }

static inline uint32_t inl(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}
#endif

#define CR4_PGE (1ull << 7)
#define CR4_PCIDE (1ull << 17)
#define CR4_LA57 (1ull << 12)
#define CR3_NOFLUSH (1ull << 63)
#define CR3_PCID_MASK 0xfffull

#define MSR_IA32_APIC_BASE 0x1b
#define MSR_IA32_BIOS_SIGN_ID 0x8b /* Intel microcode revision; AMD PATCH_LEVEL */
#define MSR_GS_BASE 0xc0000101
#define MSR_EFER 0xc0000080
/* AMD translation cache extension: INVLPG, INVLPGB and INVPCID keep the page-walk cache
 * entries off the invalidated address's path (AMD APM vol. 2, 3.1.7; CPUID 8000_0001 ECX[17]) */
#define EFER_TCE (1ull << 15)

#endif
