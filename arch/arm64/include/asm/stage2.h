/*
 * A stage-2 context for EL2 TLB maintenance by VMID (Arm ARM, VTCR_EL2 and VTTBR_EL2): what
 * KVM's __tlb_switch_to_guest() loads before its TLBI IPAS2E1IS and VMALLE1IS, which act on the
 * VMID in VTTBR_EL2. The tool's stage 2 is one zeroed level-1 table (4 KiB granule, 39-bit
 * IPAs, starting at level 1): it maps nothing, and nothing walks it, because HCR_EL2.VM stays 0
 * (no guest runs). It exists so that VTTBR_EL2 names a table of the right shape while the
 * tool's VMID is loaded; the firmware's VTCR_EL2 and VTTBR_EL2 go back after.
 * Target: arch/arm64/stage2.c; host: the model (sim/arm64/host_stage2.c).
 */
#ifndef TLBSCOPE_ARM64_STAGE2_H
#define TLBSCOPE_ARM64_STAGE2_H

#include <stdbool.h>
#include <stdint.h>

#include "core/mutant.h"

#define STAGE2_IPA_BITS 39
#define VTCR_T0SZ (64u - STAGE2_IPA_BITS) /* [5:0] */
#define VTCR_SL0_LEVEL1 (1u << 6)         /* [7:6] 4 KiB granule: 1 = start at level 1 */
#define VTCR_IRGN0_WBWA (1u << 8)         /* [9:8] walks: inner write-back */
#define VTCR_ORGN0_WBWA (1u << 10)        /* [11:10] outer write-back */
#define VTCR_SH0_INNER (3u << 12)         /* [13:12] inner shareable; TG0 [15:14] 0: 4 KiB */
#define VTCR_PS_SHIFT 16                  /* [18:16] the output size: ID_AA64MMFR0_EL1.PARange */
#define VTCR_RES1 (1u << 31)
#define VTTBR_VMID_SHIFT 48               /* VMID [55:48] (8 bits: VTCR_EL2.VS 0) */

struct stage2_regs {
    uint64_t vtcr, vttbr;
};

/* VTCR_EL2 for the tool's stage 2 on a CPU whose ID_AA64MMFR0_EL1.PARange [3:0] is `parange`
 * (PS at most 0b101, 48 bits: 52-bit output needs FEAT_LPA's table formats) */
static inline uint64_t stage2_vtcr(unsigned parange)
{
    uint64_t ps = (parange & 0xf) > 5 ? 5 : (parange & 0xf);
    return VTCR_RES1 | (ps << VTCR_PS_SHIFT) | VTCR_SH0_INNER | VTCR_ORGN0_WBWA | VTCR_IRGN0_WBWA |
           VTCR_SL0_LEVEL1 | VTCR_T0SZ;
}

/* VTTBR_EL2: the root table's address [47:1] and `vmid` */
static inline uint64_t stage2_vttbr(uint64_t root_pa, uint16_t vmid)
{
    /* the mutant leaves the VMID out: the TLBIs would act on VMID 0, a host's or the firmware's */
    uint64_t v = MUTANT(a64_s2_vmid_unloaded) ? 0 : (uint64_t)(vmid & 0xff);
    return (v << VTTBR_VMID_SHIFT) | (root_pa & 0x0000fffffffff000ull);
}

/* The tool's stage-2 root table (zeroed here, 4 KiB aligned), its physical address. */
uint64_t stage2_root_pa(void);
/* EL2 only: true when HCR_EL2 has E2H and TGE both set (a VHE host's EL2&0 regime): there a
 * TLBI VMALLE1IS acts on the EL2&0 regime, not on the VMID in VTTBR_EL2, and KVM clears TGE
 * (__tlb_switch_to_guest) before its stage-2 sequence; the tool does not, and leaves the row
 * out. The model runs no VHE host: false there. */
bool stage2_host_in_el20(void);
/* EL2 only: this CPU's VTCR_EL2 and VTTBR_EL2 become `vtcr`, `vttbr` (then ISB); what they held
 * before in *old (the firmware's, for the way back through this same call) */
void stage2_switch(uint64_t vtcr, uint64_t vttbr, struct stage2_regs *old);

#endif
