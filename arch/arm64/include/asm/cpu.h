/*
 * aarch64 CPU identification (Arm ARM, "AArch64 System Register
 * Descriptions"): MIDR_EL1 (implementer [31:24], variant [23:20], part
 * [15:4], revision [3:0]) and the TLB field of ID_AA64ISAR0_EL1 ([59:56]:
 * 0 none, 1 FEAT_TLBIOS = outer-shareable TLBI, 2 FEAT_TLBIOS +
 * FEAT_TLBIRANGE = range TLBI), and the E0PD field of ID_AA64MMFR2_EL1
 * ([63:60]: 1 = FEAT_E0PD, Armv8.5: EL0 accesses to the kernel's half fault
 * in constant time, so Linux with KASLR needs no KPTI; without it Linux
 * unmaps the kernel at EL0, kaslr_requires_kpti()); the other fields a TLB measurement
 * depends on are decoded by arm64_cpu_decode (arch/arm64/cpu.c, each with its bits).
 * aarch64 has no CPUID hypervisor bit: the app names an emulator from the firmware tables
 * instead (efi/arm64/).
 */
#ifndef TLBSCOPE_ARM64_CPU_H
#define TLBSCOPE_ARM64_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/sysreg.h"

struct arm64_cpu_id {
    uint64_t midr, isar0, mmfr0, mmfr1, mmfr2;
    /* the reading CPU's MPIDR_EL1 whole: MT [24] (core/run/topo_arm64.h), which the MADT's
     * GICC entries leave out */
    uint64_t mpidr;
    unsigned implementer, part, variant, revision;
    bool tlbi_os, tlbi_range;
    bool e0pd; /* FEAT_E0PD (arm64_e0pd): Linux then runs without KPTI */
    /* ID_AA64MMFR2_EL1: CnP (FEAT_TTCNP), TTL (FEAT_TTL), BBM's level (FEAT_BBM, 0-2);
     * ID_AA64MMFR1_EL1: nTLBPA (FEAT_nTLBPA), VH (FEAT_VHE). Reported, never decided on. */
    bool cnp, ttl, ntlbpa, vhe;
    unsigned bbm;
};

/* ID_AA64MMFR2_EL1.E0PD [63:60] >= 1 (arch/arm64/cpu.c) */
bool arm64_e0pd(uint64_t mmfr2);
/* every field above from the raw registers midr, isar0, mmfr1 and mmfr2 (arch/arm64/cpu.c) */
void arm64_cpu_decode(struct arm64_cpu_id *c);

static inline void arm64_cpu_identify(struct arm64_cpu_id *c)
{
    c->midr = read_sysreg(MIDR_EL1);
    c->isar0 = read_sysreg(ID_AA64ISAR0_EL1);
    c->mmfr0 = read_sysreg(ID_AA64MMFR0_EL1);
    /* ID_AA64MMFR1_EL1 and MMFR2 as their encodings: older assemblers lack the names */
    c->mmfr1 = read_sysreg(S3_0_C0_C7_1);
    c->mmfr2 = read_sysreg(S3_0_C0_C7_2);
    c->mpidr = read_sysreg(MPIDR_EL1);
    arm64_cpu_decode(c);
}

/* "Arm", "Ampere"...: the MIDR implementer codes of the Arm ARM; NULL when
 * unknown or 0 (QEMU's -cpu max has implementer 0) */
const char *arm64_implementer_name(unsigned implementer);
/* "Neoverse N1"...: the part of a known implementer's MIDR; NULL when not in the table */
const char *arm64_part_name(unsigned implementer, unsigned part);

#endif
