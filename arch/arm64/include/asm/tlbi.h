/*
 * aarch64 TLB invalidation (Arm ARM DDI 0487, C5.5 "A64 system instructions
 * for TLB maintenance" and D8.13 "TLB maintenance"). The shootdown protocols
 * (core/exp/arm64/) reach the TLB only through this header and asm/barrier.h.
 *
 * Two halves, so the strict host model runs the real operand encodings:
 *  (a) pure inline functions that build each TLBI's 64-bit operand, and the
 *      per-page/range loops on top of them: the same code for the target and
 *      for the host build (TLBSCOPE_HOST);
 *  (b) one primitive, tlbi_issue(op, operand), that executes an operation:
 *      on the target the instruction itself (inline asm per op), under
 *      TLBSCOPE_HOST a call into sim/arm64/ (host_tlbi.c), whose model decodes
 *      the operand's bits as hardware does. An encoding slip (a field at the
 *      wrong bit, NUM off by one, the local form where the broadcast one was
 *      meant) therefore shows in the host tests.
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
 *   TLBI RVALE1IS = SYS #0, C8, C2, #5    TLBI RVALE2IS = SYS #4, C8, C2, #5
 * An outer-shareable TLBI (FEAT_TLBIOS) reaches every PE of the outer
 * shareable domain and is complete only after the issuer's DSB OSH (a DSB
 * of its own domain; DSB ISH covers only the inner one).
 * The test mappings are global (nG = 0), which a by-VA TLBI of any ASID
 * matches: ASID 0 in the by-VA operands. tlbi_asid_is drops only non-global
 * entries of one ASID (global ones stay): the experiment that times it maps
 * the test pages non-global first. It has no EL2 form here (the EL2 regime
 * without HCR_EL2.E2H has no ASIDs): callers use it at EL1 only. So is
 * tlbi_va_is_asid, the by-VA form with an ASID of the caller's (KPTI's
 * kernel and user ASIDs over non-global test pages).
 */
#ifndef TLBSCOPE_ARM64_TLBI_H
#define TLBSCOPE_ARM64_TLBI_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/abort.h"
#include "core/mutant.h"

#define TLBI_PAGE_SHIFT 12

/* The operations the tool issues (the EL1 names; tlbi_el2 picks the EL2 form on the target). */
enum tlbi_op {
    TLBI_VAE1IS,    /* by VA, inner shareable (broadcast) */
    TLBI_VAE1,      /* by VA, this CPU only */
    TLBI_VAE1OS,    /* by VA, outer shareable (FEAT_TLBIOS) */
    TLBI_RVAE1IS,   /* a range of VAs, inner shareable (FEAT_TLBIRANGE) */
    TLBI_VMALLE1IS, /* everything of this regime, inner shareable (no operand) */
    TLBI_ASIDE1IS,  /* non-global entries of one ASID, inner shareable */
    TLBI_VALE1IS,   /* by VA, last level only (leaf entries), inner shareable */
    TLBI_RVALE1IS,  /* a range of VAs, last level only, inner shareable (FEAT_TLBIRANGE) */
    /* stage 2, issued at EL2 only, acting on VTTBR_EL2's VMID (asm/stage2.h): */
    TLBI_IPAS2E1IS, /* stage-2 entries of one IPA, inner shareable */
    TLBI_VMALLE1IS_VMID, /* VMALLE1IS itself at EL2: every stage-1 (and combined) entry of the VMID */
};

/* ---- (a) the operands (Arm ARM C5.5, the "Xt" layout of each TLBI) ---- */

/* by-VA (VAE1IS, VAE1, VAE1OS): ASID [63:48], TTL [47:44], VA[55:12] in [43:0] */
#define TLBI_ASID_SHIFT 48
#define TLBI_VA_TTL_SHIFT 44
#define TLBI_VA_FIELD_BITS 44
/*
 * TTL (FEAT_TTL, Armv8.4): [3:2] the granule (0b00: no hint at all, whatever [1:0] holds;
 * 0b01 4 KiB, 0b10 16 KiB, 0b11 64 KiB), [1:0] the level of the leaf entry. A 4 KiB page's
 * leaf entry is level 3: 0b0111 (Linux's __tlbi_level: level | granule << 2); a 2 MiB
 * block's level 2, 0b0110. The range form's TTL [38:37] is the level alone (its granule is
 * TG's): 3 for a page. A hint names one level only: the walk cache's entries need not go.
 */
#define TLBI_TTL_NONE 0u
#define TLBI_TTL_4K_L3 ((1u << 2) | 3u)
#define TLBI_TTL_4K_L2 ((1u << 2) | 2u)
#define TLBI_RANGE_TTL_L3 3u

static inline uint64_t tlbi_asid_field(uint16_t asid)
{
    /* the mutant places it at bit 32, inside the by-VA operand's VA field (RES0 in ASIDE1IS) */
    return (uint64_t)asid << (MUTANT(arm_asid_bit32) ? 32 : TLBI_ASID_SHIFT);
}

static inline uint64_t tlbi_va_operand(uint64_t va, uint16_t asid, unsigned ttl)
{
    return tlbi_asid_field(asid) | ((uint64_t)(ttl & 0xf) << TLBI_VA_TTL_SHIFT) |
           ((va >> TLBI_PAGE_SHIFT) & ((1ull << TLBI_VA_FIELD_BITS) - 1));
}

/* ASIDE1IS: ASID [63:48], [47:0] RES0 (an 8-bit ASID has [63:56] zero) */
static inline uint64_t tlbi_asid_operand(uint16_t asid) { return tlbi_asid_field(asid); }

/*
 * RVAE1IS: ASID [63:48], TG [47:46] (0b01 = 4 KiB granule), SCALE [45:44],
 * NUM [43:39], TTL [38:37] (0 = no level hint), BaseADDR [36:0] = VA[48:12]
 * for the 4 KiB granule. It covers (NUM + 1) << (5 * SCALE + 1) pages from
 * BaseADDR (tlbi_range_pages).
 */
#define TLBI_RANGE_TG_SHIFT 46
#define TLBI_RANGE_TG_4K 1u
#define TLBI_RANGE_SCALE_SHIFT 44
#define TLBI_RANGE_NUM_SHIFT 39
#define TLBI_RANGE_NUM_MAX 31u
#define TLBI_RANGE_TTL_SHIFT 37
#define TLBI_RANGE_BASE_BITS 37

static inline uint64_t tlbi_range_pages(unsigned scale, unsigned num)
{
    return (uint64_t)(num + 1) << (5 * scale + 1);
}

/* with a level hint `ttl` (TLBI_TTL_NONE or TLBI_RANGE_TTL_L3) */
static inline uint64_t tlbi_range_operand_ttl(uint64_t va, uint16_t asid, unsigned scale, unsigned num,
                                              unsigned ttl)
{
    if (MUTANT(arm_range_num_off_by_one))
        num++; /* one unit more than the loop accounts for: the page after the range goes too */
    return tlbi_asid_field(asid) | ((uint64_t)TLBI_RANGE_TG_4K << TLBI_RANGE_TG_SHIFT) |
           ((uint64_t)(scale & 3) << TLBI_RANGE_SCALE_SHIFT) |
           ((uint64_t)(num & TLBI_RANGE_NUM_MAX) << TLBI_RANGE_NUM_SHIFT) |
           ((uint64_t)(ttl & 3) << TLBI_RANGE_TTL_SHIFT) |
           ((va >> TLBI_PAGE_SHIFT) & ((1ull << TLBI_RANGE_BASE_BITS) - 1));
}

static inline uint64_t tlbi_range_operand(uint64_t va, uint16_t asid, unsigned scale, unsigned num)
{
    return tlbi_range_operand_ttl(va, asid, scale, num, TLBI_TTL_NONE);
}

/* ---- (b) the one primitive that executes an operation ---- */

#ifdef TLBSCOPE_HOST
/* the modelled CPU the calling thread plays executes it (sim/arm64/host_tlbi.c) */
void tlbi_issue(enum tlbi_op op, uint64_t operand);
/* a load the verifier makes through this CPU's TLB (TEST_READ_FAULTED: a translation fault
 * inside the CPU's abort window, asm/abort.h) */
uint64_t test_read(const volatile uint64_t *p);
/* a PTE write: the model invalidates nothing here, it only notes the new translation */
void pte_store(volatile uint64_t *pte, uint64_t value);
#else
extern bool tlbi_el2; /* the app runs at EL2: the EL2 forms */

/* the EL1 or the EL2 form (asm templates), as tlbi_el2 says, with the operand in a register */
#define TLBI_EL1_OR_EL2(el1, el2, operand)                              \
    do {                                                                \
        if (tlbi_el2)                                                   \
            __asm__ volatile(el2 ", %0" ::"r"(operand) : "memory");    \
        else                                                            \
            __asm__ volatile(el1 ", %0" ::"r"(operand) : "memory");    \
    } while (0)

/* `op` is a constant at every call (the wrappers below): the switch folds to one instruction */
static inline __attribute__((always_inline)) void tlbi_issue(enum tlbi_op op, uint64_t operand)
{
    switch (op) {
    case TLBI_VAE1IS:
        TLBI_EL1_OR_EL2("tlbi vae1is", "tlbi vae2is", operand);
        break;
    case TLBI_VAE1:
        TLBI_EL1_OR_EL2("tlbi vae1", "tlbi vae2", operand);
        break;
    case TLBI_VAE1OS:
        TLBI_EL1_OR_EL2("sys #0, c8, c1, #1", "sys #4, c8, c1, #1", operand);
        break;
    case TLBI_RVAE1IS:
        TLBI_EL1_OR_EL2("sys #0, c8, c2, #1", "sys #4, c8, c2, #1", operand);
        break;
    case TLBI_VMALLE1IS: /* no operand */
        if (tlbi_el2)
            __asm__ volatile("tlbi alle2is" ::: "memory");
        else
            __asm__ volatile("tlbi vmalle1is" ::: "memory");
        break;
    case TLBI_ASIDE1IS: /* EL1 only (see above) */
        __asm__ volatile("tlbi aside1is, %0" ::"r"(operand) : "memory");
        break;
    case TLBI_VALE1IS:
        TLBI_EL1_OR_EL2("tlbi vale1is", "tlbi vale2is", operand);
        break;
    case TLBI_RVALE1IS:
        TLBI_EL1_OR_EL2("sys #0, c8, c2, #5", "sys #4, c8, c2, #5", operand);
        break;
    case TLBI_IPAS2E1IS: /* EL2 only: no EL1 form */
        __asm__ volatile("tlbi ipas2e1is, %0" ::"r"(operand) : "memory");
        break;
    case TLBI_VMALLE1IS_VMID: /* the EL1 regime's form, whatever tlbi_el2 says */
        __asm__ volatile("tlbi vmalle1is" ::: "memory");
        break;
    }
}

/* one LDR into a register that holds TEST_READ_FAULTED: inside an abort window (asm/abort.h)
 * the handler steps over a faulting load, which leaves the marker */
static inline uint64_t test_read(const volatile uint64_t *p)
{
    uint64_t v = TEST_READ_FAULTED;
    __asm__ volatile("ldr %0, [%1]" : "+r"(v) : "r"(p) : "memory");
    return v;
}
static inline void pte_store(volatile uint64_t *pte, uint64_t value) { *pte = value; }
#endif

/* ---- the primitives the protocols call: operand + operation ---- */

/* TLBI VAE1IS: broadcast, one page (global entries, or ASID 0's) */
static inline void tlbi_va_is(uint64_t va)
{
    /* the mutant issues the local form: the broadcast path reaches this CPU only */
    tlbi_issue(MUTANT(arm_vae1_not_is) ? TLBI_VAE1 : TLBI_VAE1IS,
               tlbi_va_operand(va, 0, TLBI_TTL_NONE));
}

/*
 * KPTI (Linux's arm64_kernel_unmapped_at_el0()): a process has two ASIDs, the kernel's
 * (even) and the user's, the same with ASID bit 0 set (Linux's USER_ASID_BIT: bit 48 of
 * a TLBI operand, bit 0 of its ASID field). A user address has entries under both.
 */
#define TLBI_USER_ASID_BIT 1u
static inline uint16_t tlbi_user_asid(uint16_t kernel_asid)
{
    return (uint16_t)(kernel_asid | TLBI_USER_ASID_BIT);
}

/* TLBI VAE1IS of one page's entries under `asid` (non-global ones of that ASID, and global) */
static inline void tlbi_va_is_asid(uint64_t va, uint16_t asid)
{
    tlbi_issue(TLBI_VAE1IS, tlbi_va_operand(va, asid, TLBI_TTL_NONE));
}

/* TLBI VAE1: this CPU only */
static inline void tlbi_va_local(uint64_t va)
{
    tlbi_issue(TLBI_VAE1, tlbi_va_operand(va, 0, TLBI_TTL_NONE));
}

/* TLBI VAE1OS: outer shareable, one page */
static inline void tlbi_va_os(uint64_t va)
{
    tlbi_issue(TLBI_VAE1OS, tlbi_va_operand(va, 0, TLBI_TTL_NONE));
}

/* TLBI VALE1IS: one page's leaf entry under `asid` (global ones too), with a level hint `ttl` */
static inline void tlbi_va_last_is(uint64_t va, uint16_t asid, unsigned ttl)
{
    tlbi_issue(TLBI_VALE1IS, tlbi_va_operand(va, asid, ttl));
}

/* TLBI RVALE1IS: tlbi_range_pages(scale, num) pages' leaf entries from va, with a level hint */
static inline void tlbi_range_last_is_op(uint64_t va, uint16_t asid, unsigned scale, unsigned num, unsigned ttl)
{
    tlbi_issue(TLBI_RVALE1IS, tlbi_range_operand_ttl(va, asid, scale, num, ttl));
}

/*
 * TLBI VALE1IS, XZR: the operand zero (VA 0, ASID 0), which names no entry of the test region.
 * Linux's repeat-TLBI workaround issues it after a completed TLBI sequence so that a second
 * broadcast TLBI and its DSB complete the memory accesses the first may have left behind
 * (Arm's errata 4193780 and its siblings: arm64_repeat_tlbi_list).
 */
static inline void tlbi_repeat_dummy_is(void) { tlbi_issue(TLBI_VALE1IS, 0); }

/* TLBI VMALLE1IS */
static inline void tlbi_all_is(void) { tlbi_issue(TLBI_VMALLE1IS, 0); }

/*
 * Stage 2 (EL2 only, on the VMID VTTBR_EL2 holds): TLBI IPAS2E1IS's operand is IPA[47:12] in
 * [35:0] (4 KiB granule, IPAs up to 48 bits) and TTL in [47:44] as the by-VA forms'; then
 * VMALLE1IS issued at EL2, which drops the VMID's stage-1 and combined stage-1+2 entries (KVM's
 * __kvm_tlb_flush_vmid_ipa: a stage-2 change may be cached inside combined entries too).
 */
#define TLBI_IPA_FIELD_BITS 36
static inline uint64_t tlbi_ipa_operand(uint64_t ipa, unsigned ttl)
{
    return ((uint64_t)(ttl & 0xf) << TLBI_VA_TTL_SHIFT) | ((ipa >> TLBI_PAGE_SHIFT) & ((1ull << TLBI_IPA_FIELD_BITS) - 1));
}
static inline void tlbi_ipa_s2_is(uint64_t ipa, unsigned ttl) { tlbi_issue(TLBI_IPAS2E1IS, tlbi_ipa_operand(ipa, ttl)); }
static inline void tlbi_vmid_all_is(void) { tlbi_issue(TLBI_VMALLE1IS_VMID, 0); }

/* TLBI ASIDE1IS: the non-global entries of one ASID */
static inline void tlbi_asid_is(uint16_t asid) { tlbi_issue(TLBI_ASIDE1IS, tlbi_asid_operand(asid)); }

/* One TLBI RVAE1IS: tlbi_range_pages(scale, num) pages from va. */
static inline void tlbi_range_is_op(uint64_t va, unsigned scale, unsigned num)
{
    tlbi_issue(TLBI_RVAE1IS, tlbi_range_operand(va, 0, scale, num));
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
        uint64_t num;
        if (pages == 1) {
            tlbi_va_is(va);
            return;
        }
        while (tlbi_range_pages(scale, 0) > pages)
            scale--;
        num = pages / tlbi_range_pages(scale, 0);
        if (num > TLBI_RANGE_NUM_MAX + 1)
            num = TLBI_RANGE_NUM_MAX + 1;
        tlbi_range_is_op(va, scale, (unsigned)(num - 1));
        va += tlbi_range_pages(scale, (unsigned)(num - 1)) << TLBI_PAGE_SHIFT;
        pages -= (uint32_t)tlbi_range_pages(scale, (unsigned)(num - 1));
    }
}

#endif
