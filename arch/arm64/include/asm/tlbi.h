/*
 * aarch64 TLB invalidation primitives (Arm ARM, "TLB maintenance
 * instructions"). The shootdown protocols (core/exp/arm64/) reach the TLB
 * only through these and asm/barrier.h, so the strict model can stand in for
 * them on the host (TLBSCOPE_HOST: sim/arm64/ implements the declarations).
 *
 * A TLBI is guaranteed complete only after a DSB of its domain: a broadcast
 * (IS) one on every CPU of the inner shareable domain after the issuer's
 * DSB ISH, a local one after the issuer's DSB NSH. Until then a CPU may still
 * translate with the old entry.
 *
 * The app runs at EL1 (QEMU virt's default) or at EL2 (firmware at EL2,
 * `virtualization=on`, and many servers): the EL2 translation regime has its
 * own forms (VAE2IS, ALLE2IS, RVAE2IS), chosen at run time by tlbi_el2, which
 * the app sets once from CurrentEL before it starts any CPU. The OS and range
 * forms (FEAT_TLBIOS, FEAT_TLBIRANGE, Armv8.4) are written as SYS encodings so
 * an assembler without those features takes them:
 *   TLBI RVAE1IS = SYS #0, C8, C2, #1     TLBI RVAE2IS = SYS #4, C8, C2, #1
 *   TLBI VAE1OS  = SYS #0, C8, C1, #1     TLBI VAE2OS  = SYS #4, C8, C1, #1
 * An outer-shareable TLBI (FEAT_TLBIOS) reaches every PE of the outer
 * shareable domain and is complete only after the issuer's DSB OSH (a DSB
 * of its own domain; DSB ISH covers only the inner one).
 * The test mappings are global (nG = 0), which every ASID matches: ASID 0 in
 * the by-VA operands. tlbi_asid_is drops only non-global entries of one
 * ASID (global ones stay): the experiment that times it maps the test pages
 * non-global first. It has no EL2 form here (the EL2 regime without
 * HCR_EL2.E2H has no ASIDs): callers use it at EL1 only.
 */
#ifndef TLBSCOPE_ARM64_TLBI_H
#define TLBSCOPE_ARM64_TLBI_H

#include <stdbool.h>
#include <stdint.h>

#define TLBI_PAGE_SHIFT 12

#ifdef TLBSCOPE_HOST
void tlbi_va_is(uint64_t va);                    /* TLBI VAE1IS: broadcast, one page */
void tlbi_va_local(uint64_t va);                 /* TLBI VAE1: this CPU only */
void tlbi_range_is(uint64_t va, uint32_t pages); /* TLBI RVAE1IS ranges: broadcast */
void tlbi_all_is(void);                          /* TLBI VMALLE1IS */
void tlbi_va_os(uint64_t va);                    /* TLBI VAE1OS: outer shareable, one page */
void tlbi_asid_is(uint16_t asid);                /* TLBI ASIDE1IS: non-global entries of one ASID */
/* a load the verifier makes through this CPU's TLB */
uint64_t test_read(const volatile uint64_t *p);
/* a PTE write: the model invalidates nothing here, it only notes the new translation */
void pte_store(volatile uint64_t *pte, uint64_t value);
#else
extern bool tlbi_el2; /* the app runs at EL2: the EL2 forms */

/* by-VA operand: VA[55:12] in bits [43:0], ASID 0 in [63:48] */
static inline uint64_t tlbi_va_arg(uint64_t va)
{
    return (va >> TLBI_PAGE_SHIFT) & ((1ull << 44) - 1);
}

static inline void tlbi_va_is(uint64_t va)
{
    if (tlbi_el2)
        __asm__ volatile("tlbi vae2is, %0" ::"r"(tlbi_va_arg(va)) : "memory");
    else
        __asm__ volatile("tlbi vae1is, %0" ::"r"(tlbi_va_arg(va)) : "memory");
}

static inline void tlbi_va_local(uint64_t va)
{
    if (tlbi_el2)
        __asm__ volatile("tlbi vae2, %0" ::"r"(tlbi_va_arg(va)) : "memory");
    else
        __asm__ volatile("tlbi vae1, %0" ::"r"(tlbi_va_arg(va)) : "memory");
}

static inline void tlbi_all_is(void)
{
    if (tlbi_el2)
        __asm__ volatile("tlbi alle2is" ::: "memory");
    else
        __asm__ volatile("tlbi vmalle1is" ::: "memory");
}

static inline void tlbi_va_os(uint64_t va)
{
    if (tlbi_el2)
        __asm__ volatile("sys #4, c8, c1, #1, %0" ::"r"(tlbi_va_arg(va)) : "memory");
    else
        __asm__ volatile("sys #0, c8, c1, #1, %0" ::"r"(tlbi_va_arg(va)) : "memory");
}

/* ASID in [63:48] (an 8-bit ASID has [63:56] zero) */
static inline void tlbi_asid_is(uint16_t asid)
{
    __asm__ volatile("tlbi aside1is, %0" ::"r"((uint64_t)asid << 48) : "memory");
}

/*
 * One range operation (Arm ARM, TLBI RVAE1IS: TG [47:46] = 0b01 for 4 KiB,
 * SCALE [45:44], NUM [43:39], TTL [38:37] = 0 (no level hint), BaseADDR
 * [36:0] = VA >> 12): (NUM + 1) * 2^(5 * SCALE + 1) pages from BaseADDR.
 */
static inline void tlbi_range_is_op(uint64_t va, unsigned scale, unsigned num)
{
    uint64_t op = (1ull << 46) | ((uint64_t)scale << 44) | ((uint64_t)num << 39) |
                  ((va >> TLBI_PAGE_SHIFT) & ((1ull << 37) - 1));
    if (tlbi_el2)
        __asm__ volatile("sys #4, c8, c2, #1, %0" ::"r"(op) : "memory");
    else
        __asm__ volatile("sys #0, c8, c2, #1, %0" ::"r"(op) : "memory");
}

/*
 * `pages` from va in as few range operations as fit: the largest SCALE whose
 * unit fits, NUM up to 31, and a single-page VAE1IS for an odd page left over
 * (a range unit is at least 2 pages). The caller adds DSB ISH + ISB.
 */
static inline void tlbi_range_is(uint64_t va, uint32_t pages)
{
    while (pages) {
        unsigned scale = 3;
        uint64_t unit, num;
        if (pages == 1) {
            tlbi_va_is(va);
            return;
        }
        while ((1ull << (5 * scale + 1)) > pages)
            scale--;
        unit = 1ull << (5 * scale + 1);
        num = pages / unit;
        if (num > 32)
            num = 32;
        tlbi_range_is_op(va, scale, (unsigned)(num - 1));
        va += num * unit << TLBI_PAGE_SHIFT;
        pages -= (uint32_t)(num * unit);
    }
}

static inline uint64_t test_read(const volatile uint64_t *p) { return *p; }
static inline void pte_store(volatile uint64_t *pte, uint64_t value) { *pte = value; }
#endif

#endif
