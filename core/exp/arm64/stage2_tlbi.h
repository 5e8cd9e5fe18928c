/*
 * tlbi_broadcast_vs_ipi's stage2_kvm method: what KVM's nVHE hypervisor issues to invalidate
 * `pages` IPAs of one VM (arch/arm64/kvm/hyp/nvhe/tlb.c, __kvm_tlb_flush_vmid_ipa, which
 * kvm_pgtable's stage-2 unmap calls per page; __kvm_tlb_flush_vmid_range without range TLBI
 * for several): DSB ISHST (enter_vmid_context's, the descriptor stores before the TLBIs),
 * TLBI IPAS2E1IS per IPA (IPA >> 12, the level-3 TTL hint where FEAT_TTL exists), DSB ISH,
 * TLBI VMALLE1IS, DSB ISH, ISB. The TLBIs act on the VMID in VTTBR_EL2, so the tool loads its
 * own (VMID 1, over an empty stage-2 table: asm/stage2.h) on every CPU for the method only and
 * puts the firmware's VTCR_EL2 and VTTBR_EL2 back after. EL2 only: a guest kernel at EL1
 * cannot issue stage-2 TLBIs. HCR_EL2.VM stays 0, no guest runs, so no stage-2 entry was
 * ever filled: nothing is read back, the row times the broadcast invalidation sequence.
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_STAGE2_TLBI_H
#define TLBSCOPE_CORE_EXP_ARM64_STAGE2_TLBI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/run_arm64.h"

#define STAGE2_KVM_VMID 1

/* The tool's VMID on the BSP and every other usable CPU; false (and the firmware's registers
 * back where they were loaded) when a CPU did not answer. EL2 only. */
bool stage2_kvm_enter(struct arm64_run *run, struct experiment_record *e);
/* The firmware's VTCR_EL2 and VTTBR_EL2 back on every CPU stage2_kvm_enter loaded; sets
 * run->stage2_restored */
void stage2_kvm_leave(struct arm64_run *run, struct experiment_record *e);
/* KVM's sequence for the IPAs of pages [0, pages) of the test region's pool A (their
 * physical addresses: the IPAs of a guest whose stage 2 maps its RAM one to one); `ttl`:
 * FEAT_TTL's level-3 hint */
void stage2_kvm_flush(uint32_t pages, bool ttl);
/* the experiment's note on stage2_kvm: what it issued, or why it was not measured */
void stage2_kvm_note(const struct arm64_run *run, struct experiment_record *e, bool measured, bool ttl);

#endif
