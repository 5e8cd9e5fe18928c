/*
 * The aarch64 shootdown mechanisms, as Linux's arm64 flush_tlb_range() and
 * the IPI-based alternative proposed for it: what the experiments of this
 * folder time, and what the strict model runs on the host (the same code:
 * it reaches the TLB only through asm/tlbi.h and asm/barrier.h).
 * `va` is page aligned; the PTE writes (pte_store) come before, with the
 * caller's dsb_ishst() so the walkers see them before any invalidation.
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_TLBI_FLUSH_H
#define TLBSCOPE_CORE_EXP_ARM64_TLBI_FLUSH_H

#include <stdbool.h>
#include <stdint.h>

/* per page TLBI VAE1IS, then DSB ISH (complete everywhere) and ISB */
void tlbi_flush_broadcast(uint64_t va, uint32_t pages);
/* TLBI RVAE1IS ranges (FEAT_TLBIRANGE), then DSB ISH and ISB */
void tlbi_flush_range(uint64_t va, uint32_t pages);
/* per page TLBI VAE1OS (FEAT_TLBIOS), then DSB OSH (its domain's completion) and ISB */
void tlbi_flush_broadcast_os(uint64_t va, uint32_t pages);
/*
 * Linux's __flush_tlb_range_op() for a process's non-global pages: per page TLBI VAE1IS
 * under `asid` and, with `user` (KPTI: __tlbi_user), again under tlbi_user_asid(asid); then
 * DSB ISH and ISB (EL1 only: the EL2 regime has no ASIDs)
 */
void tlbi_flush_broadcast_asid(uint64_t va, uint32_t pages, uint16_t asid, bool user);
/* TLBI ASIDE1IS: every non-global entry of `asid`, then DSB ISH and ISB (EL1 only) */
void tlbi_flush_asid(uint16_t asid);
/* TLBI VMALLE1IS (ALLE2IS at EL2): every entry of the regime, global ones too, then DSB ISH
 * and ISB: the full flush for global mappings, which ASIDE1IS leaves alone */
void tlbi_flush_all(void);
/* an IPI target's work: per page TLBI VAE1 on this CPU, then DSB NSH and ISB, before its ack */
void tlbi_flush_local(uint64_t va, uint32_t pages);

#endif
