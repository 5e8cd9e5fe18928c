/*
 * The TLB invalidation Linux's arm64 code issues when a process unmaps
 * `pages` of its pages (mmu_gather's tlb_flush() -> __flush_tlb_range() with
 * last_level and the level hint of a page table entry), on the machine the
 * tool runs on: what it would choose from the ID registers and the MIDR,
 * and the instructions themselves (linux_tlbi_flush(), which the strict
 * model runs on the host too).
 *
 *   __flush_tlb_range_limit_excess(): past MAX_DVM_OPS pages without range
 *     TLBI (512, PTRS_PER_PTE of the 4 KiB granule), or past
 *     MAX_TLBI_RANGE_PAGES with it, flush_tlb_mm() instead: DSB ISHST, TLBI
 *     ASIDE1IS (and the user ASID's under KPTI), then the sync below.
 *   else: DSB ISHST (the descriptor stores visible to every walker), then
 *     __flush_tlb_range_op(): TLBI VALE1IS per page, with the TTL hint
 *     "4 KiB granule, level 3" where FEAT_TTL exists (__tlbi_level), or,
 *     with FEAT_TLBIRANGE, TLBI RVALE1IS ranges taken by decreasing SCALE
 *     (a single page, or an odd one left, by VALE1IS), their TTL the level;
 *     under KPTI (no E0PD: kaslr_requires_kpti()) each TLBI again for the
 *     user ASID (__tlbi_user).
 *   __tlbi_sync_s1ish(): DSB ISH; on a CPU of arm64_repeat_tlbi_list
 *     (ARM64_WORKAROUND_REPEAT_TLBI) then TLBI VALE1IS, XZR and DSB ISH again.
 * The tool adds an ISB last: what ERET gives the process Linux returns to.
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_LINUX_TLBI_H
#define TLBSCOPE_CORE_EXP_ARM64_LINUX_TLBI_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpu.h"

#define LINUX_MAX_DVM_OPS 512u                /* arch/arm64: PTRS_PER_PTE, 4 KiB granule */
#define LINUX_MAX_TLBI_RANGE_PAGES (1u << 21) /* (31 + 1) << (5 * 3 + 1): NUM 31, SCALE 3 */

struct linux_tlbi {
    bool range;  /* FEAT_TLBIRANGE (system_supports_tlb_range()) */
    bool ttl;    /* FEAT_TTL: ID_AA64MMFR2_EL1.TTL [51:48] >= 1 (ARM64_HAS_ARMv8_4_TTL) */
    bool kpti;   /* no FEAT_E0PD: Linux keeps KPTI, every TLBI twice (kernel, user ASID) */
    bool repeat; /* the CPU is in arm64_repeat_tlbi_list */
    const char *repeat_part, *repeat_erratum; /* "Arm Neoverse N1", "4193800"; NULL when not */
    bool repeat_every_revision;               /* the entry names every variant and revision */
    int asid;    /* the ASID the TLBIs name; -1 at EL2 (no ASIDs without HCR_EL2.E2H) */
};

enum linux_tlbi_path { LINUX_TLBI_PER_PAGE, LINUX_TLBI_RANGE, LINUX_TLBI_MM };

/* Linux's choices on a CPU with these ID registers, its TLBIs naming `asid` (-1: none). */
void linux_tlbi_choose(const struct arm64_cpu_id *cpu, int asid, struct linux_tlbi *out);
/* per page, ranges, or flush_tlb_mm: what Linux does for `pages` */
enum linux_tlbi_path linux_tlbi_path_for(const struct linux_tlbi *l, uint32_t pages);
/* The whole sequence for pages [va, va + pages * 4 KiB), DSB ISHST first; returns the path. */
enum linux_tlbi_path linux_tlbi_flush(const struct linux_tlbi *l, uint64_t va, uint32_t pages);
/*
 * Reclaim's batching (mm/rmap.c's try_to_unmap_flush on arm64): each page's
 * arch_tlbbatch_add_pending() is __flush_tlb_range_nosync() of one page (DSB ISHST, its leaf
 * TLBI, the user ASID's under KPTI) with no DSB ISH; arch_tlbbatch_flush() then one
 * __tlbi_sync_s1ish_batch() for all of them (DSB ISH, the repeat-TLBI workaround); ISB.
 */
void linux_tlbi_batch_flush(const struct linux_tlbi *l, uint64_t va, uint32_t pages);

#endif
