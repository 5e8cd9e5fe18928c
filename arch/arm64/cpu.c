/* The exception level the app runs at, the names of MIDR implementers and parts, the ID
 * register fields the report decodes. */
#include "asm/cpu.h"
#include "asm/tlbi.h"
#include "core/mutant.h"

unsigned arch_el;
bool tlbi_el2;

/* MIDR_EL1.Implementer codes (Arm ARM, MIDR_EL1 "Implementer" field) */
const char *arm64_implementer_name(unsigned implementer)
{
    switch (implementer) {
    case 0x41: return "Arm";
    case 0x42: return "Broadcom";
    case 0x43: return "Cavium";
    case 0x46: return "Fujitsu";
    case 0x48: return "HiSilicon";
    case 0x4e: return "NVIDIA";
    case 0x50: return "Applied Micro";
    case 0x51: return "Qualcomm";
    case 0x61: return "Apple";
    case 0xc0: return "Ampere";
    default: return 0; /* 0x00 ("reserved for software use": QEMU's -cpu max) and unknown */
    }
}

/*
 * ID_AA64MMFR2_EL1.E0PD, bits [63:60] (Arm ARM, ID_AA64MMFR2_EL1): 0 none, 1 FEAT_E0PD.
 * Linux's kaslr_requires_kpti() keeps KPTI off where every CPU has it (and, with KASLR,
 * on where one lacks it): Neoverse N1 and V1 (Armv8.2, 8.4) lack it, V2 (Armv9.0) has it.
 */
bool arm64_e0pd(uint64_t mmfr2)
{
    /* the mutant reads the lowest field (CnP), a shift slip */
    unsigned shift = MUTANT(arm_e0pd_wrong_field) ? 0 : 60;
    return ((mmfr2 >> shift) & 0xf) >= 1;
}

/* a 4-bit ID register field at bits [shift+3:shift] */
static unsigned id_field(uint64_t reg, unsigned shift)
{
    return (unsigned)((reg >> shift) & 0xf);
}

/*
 * The fields as the Arm ARM (DDI 0487, "AArch64 System Register Descriptions") lays them out;
 * each is an unsigned ID field, so a larger value includes what the smaller ones mean.
 */
void arm64_cpu_decode(struct arm64_cpu_id *c)
{
    /* the mutant reads BBM from TTL's bits [51:48], the next field down: a shift slip */
    unsigned bbm_shift = MUTANT(arm_bbm_wrong_field) ? 48 : 52;
    /* MIDR_EL1: Implementer [31:24], Variant [23:20], PartNum [15:4], Revision [3:0] */
    c->implementer = (unsigned)((c->midr >> 24) & 0xff);
    c->variant = id_field(c->midr, 20);
    c->part = (unsigned)((c->midr >> 4) & 0xfff);
    c->revision = id_field(c->midr, 0);
    /* ID_AA64ISAR0_EL1.TLB [59:56]: 1 FEAT_TLBIOS, 2 FEAT_TLBIOS and FEAT_TLBIRANGE */
    c->tlbi_os = id_field(c->isar0, 56) >= 1;
    c->tlbi_range = id_field(c->isar0, 56) >= 2;
    /* ID_AA64MMFR2_EL1.CnP [3:0]: FEAT_TTCNP, TTBR_ELx.CnP (bit 0) may let PEs share TLB
     * entries of the same tables (the app clears it in its TTBR0: arch/arm64/paging.c) */
    c->cnp = id_field(c->mmfr2, 0) >= 1;
    /* ID_AA64MMFR2_EL1.TTL [51:48]: FEAT_TTL, a by-VA TLBI's operand may name the level of
     * the leaf (TTL, operand bits [47:44]; Linux's __tlbi_level) */
    c->ttl = id_field(c->mmfr2, 48) >= 1;
    /* ID_AA64MMFR2_EL1.BBM [55:52]: FEAT_BBM's level 0, 1 or 2 (how far a block's size may
     * change without break-before-make) */
    c->bbm = id_field(c->mmfr2, bbm_shift);
    c->e0pd = arm64_e0pd(c->mmfr2);
    /* ID_AA64MMFR1_EL1.VH [11:8]: FEAT_VHE (HCR_EL2.E2H: a kernel that runs at EL2) */
    c->vhe = id_field(c->mmfr1, 8) >= 1;
    /* ID_AA64MMFR1_EL1.nTLBPA [51:48]: FEAT_nTLBPA, the caching of intermediate walk results
     * includes no non-coherent physical translation caches */
    c->ntlbpa = id_field(c->mmfr1, 48) >= 1;
}

/* MIDR_EL1.PartNum of the server cores the app is likely to meet, per implementer (each
 * core's Technical Reference Manual, "MIDR_EL1"); NULL for any other */
const char *arm64_part_name(unsigned implementer, unsigned part)
{
    static const struct {
        unsigned implementer, part;
        const char *name;
    } parts[] = {
        { 0x41, 0xd03, "Cortex-A53" },   { 0x41, 0xd07, "Cortex-A57" },
        { 0x41, 0xd08, "Cortex-A72" },   { 0x41, 0xd0b, "Cortex-A76" },
        { 0x41, 0xd0c, "Neoverse N1" },  { 0x41, 0xd40, "Neoverse V1" },
        { 0x41, 0xd49, "Neoverse N2" },  { 0x41, 0xd4f, "Neoverse V2" },
        { 0x41, 0xd84, "Neoverse V3" },  { 0x41, 0xd8e, "Neoverse N3" },
        { 0x46, 0x001, "A64FX" },        { 0x48, 0xd01, "TaiShan v110" },
        { 0x43, 0x0af, "ThunderX2" },    { 0xc0, 0xac3, "AmpereOne" },
    };
    unsigned i;
    for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        if (parts[i].implementer == implementer && parts[i].part == part)
            return parts[i].name;
    return 0;
}
