/* The exception level the app runs at, the names of MIDR implementers and parts, the E0PD field. */
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
