/*
 * aarch64 CPU identification (Arm ARM, "AArch64 System Register
 * Descriptions"): MIDR_EL1 (implementer [31:24], variant [23:20], part
 * [15:4], revision [3:0]) and the TLB field of ID_AA64ISAR0_EL1 ([59:56]:
 * 0 none, 1 FEAT_TLBIOS = outer-shareable TLBI, 2 FEAT_TLBIOS +
 * FEAT_TLBIRANGE = range TLBI), and the E0PD field of ID_AA64MMFR2_EL1
 * ([63:60]: 1 = FEAT_E0PD, Armv8.5: EL0 accesses to the kernel's half fault
 * in constant time, so Linux with KASLR needs no KPTI; without it Linux
 * unmaps the kernel at EL0, kaslr_requires_kpti()). aarch64 has no CPUID hypervisor bit: the
 * app names an emulator from the firmware tables instead (efi/arm64/).
 */
#ifndef TLBSCOPE_ARM64_CPU_H
#define TLBSCOPE_ARM64_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/sysreg.h"

struct arm64_cpu_id {
    uint64_t midr, isar0, mmfr0, mmfr2;
    /* the reading CPU's MPIDR_EL1 whole: MT [24] (core/run/topo_arm64.h), which the MADT's
     * GICC entries leave out */
    uint64_t mpidr;
    unsigned implementer, part, variant, revision;
    bool tlbi_os, tlbi_range;
    bool e0pd; /* FEAT_E0PD (arm64_e0pd): Linux then runs without KPTI */
};

/* ID_AA64MMFR2_EL1.E0PD [63:60] >= 1 (arch/arm64/cpu.c) */
bool arm64_e0pd(uint64_t mmfr2);

static inline void arm64_cpu_identify(struct arm64_cpu_id *c)
{
    c->midr = read_sysreg(MIDR_EL1);
    c->isar0 = read_sysreg(ID_AA64ISAR0_EL1);
    c->mmfr0 = read_sysreg(ID_AA64MMFR0_EL1);
    /* ID_AA64MMFR2_EL1 as its encoding: older assemblers lack the name */
    c->mmfr2 = read_sysreg(S3_0_C0_C7_2);
    c->mpidr = read_sysreg(MPIDR_EL1);
    c->implementer = (unsigned)((c->midr >> 24) & 0xff);
    c->variant = (unsigned)((c->midr >> 20) & 0xf);
    c->part = (unsigned)((c->midr >> 4) & 0xfff);
    c->revision = (unsigned)(c->midr & 0xf);
    c->tlbi_os = ((c->isar0 >> 56) & 0xf) >= 1;
    c->tlbi_range = ((c->isar0 >> 56) & 0xf) >= 2;
    c->e0pd = arm64_e0pd(c->mmfr2);
}

/* "Arm", "Ampere"...: the MIDR implementer codes of the Arm ARM; NULL when
 * unknown or 0 (QEMU's -cpu max has implementer 0) */
const char *arm64_implementer_name(unsigned implementer);
/* "Neoverse N1"...: the part of a known implementer's MIDR; NULL when not in the table */
const char *arm64_part_name(unsigned implementer, unsigned part);

#endif
