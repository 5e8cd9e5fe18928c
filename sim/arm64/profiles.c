/*
 * The aarch64 profiles (profiles.h). Register layouts: Arm ARM (DDI 0487),
 * "AArch64 System Register Descriptions": MIDR_EL1 implementer [31:24],
 * variant [23:20], architecture [19:16] (0xf), part [15:4], revision [3:0];
 * ID_AA64ISAR0_EL1.TLB [59:56]: 0 none, 1 FEAT_TLBIOS, 2 FEAT_TLBIOS and
 * FEAT_TLBIRANGE (both mandatory from Armv8.4, neither in Armv8.0 to 8.3).
 * Each value names the TRM table it comes from; "unsure" marks a value we
 * could not check against the TRM here: it is reported, never decided on
 * (only MIDR, ISAR0.TLB and MMFR2.E0PD decide, and those are sure for every
 * profile: E0PD follows from the architecture version each core implements).
 * The other fields the report decodes (arm64_cpu_decode: MMFR2.CnP, TTL, BBM,
 * MMFR1.VH, nTLBPA) are checked against what real parts read at EL1 where a
 * dump was found (the public register dumps of github.com/lelegard/arm-cpusysregs,
 * collect/: an Ampere Altra and an AWS Graviton3 host).
 */
#include "sim/arm64/profiles.h"

#include <string.h>

#include "core/mutant.h"

const struct a64_profile a64_profiles[] = {
    {
        "neoverse-n1", "Arm Neoverse N1 (AWS Graviton2, Ampere Altra): Armv8.2, no TLBI OS or range",
        /* N1 TRM (Arm 100616), "MIDR_EL1": implementer 0x41, part 0xD0C; r3p1, the
         * revision Graviton2 and Altra report (the r4p1 edition of the TRM reads 0x414FD0C1) */
        0x413FD0C1ull,
        /* N1 TRM, "ID_AA64ISAR0_EL1": AES 2, SHA1 1, SHA2 1, CRC32 1, Atomic 2, RDM 1, DP 1;
         * TLB [59:56] = 0 (Armv8.2: neither FEAT_TLBIOS nor FEAT_TLBIRANGE) */
        0x0000100010211120ull,
        /* N1 TRM, "ID_AA64MMFR0_EL1": PARange 0b0101 (48 bits), ASIDBits 16 */
        0x0000000000101125ull,
        /* N1 TRM, "ID_AA64MMFR1_EL1": VH [11:8] 1, nTLBPA [51:48] 0 (an Altra reads the same) */
        0x0000000010212122ull,
        /* N1 TRM, "ID_AA64MMFR2_EL1": CnP 1, UAO 1, ... (unsure beyond CnP); E0PD [63:60] = 0
         * (Armv8.2: Linux runs N1 with KPTI, for KASLR); TTL [51:48] and BBM [55:52] 0. An
         * Altra reads 0x0100000000000011 (IESB 0, EVT 1): the fields decoded agree */
        0x0000000000001011ull,
        /* N1 TRM, "CTR_EL0": IDC 1, DminLine/IminLine 64 bytes (unsure: DIC) */
        0x8444C004ull,
        "Arm Neoverse N1 Core Technical Reference Manual (Arm 100616), AArch64 identification registers",
        /* MPIDR: N1 reports MT = 1, the core in Aff1 (QEMU issue 1608); Ampere Altra's shape,
         * a pair of cores per Aff2 (a 2P Altra Max: 0x01001f0100 = socket 1, pair 31, core 1);
         * 4 pairs a package is the model's, where Altra has 40 (so 16 CPUs reach a second
         * package, as a 2P Altra's would) */
        true, 2, 4,
    },
    {
        "neoverse-v1", "Arm Neoverse V1 (AWS Graviton3): Armv8.4, TLBI OS and range",
        /* V1 TRM (Arm 101427), "MIDR_EL1": part 0xD40; r1p1, as Graviton3 reports */
        0x411FD401ull,
        /* V1 TRM, "ID_AA64ISAR0_EL1": TLB [59:56] = 0b0010 (FEAT_TLBIOS + FEAT_TLBIRANGE,
         * mandatory in Armv8.4, which V1 implements); the other fields (RNDR, TS, FHM, DP,
         * SM3/SM4, SHA3, RDM, Atomic, CRC32, SHA2 512, AES) unsure: QEMU's neoverse-v1
         * model reads 0x1011111110212120, TS 1 and TLB 0, which an Armv8.4 core cannot have
         * (unsure: a Graviton3 host reads that same value at EL1, TLB 0, in the dumps named
         * at the top of this file) */
        0x1221111110212120ull,
        /* V1 TRM, "ID_AA64MMFR0_EL1": PARange 48 bits, ASIDBits 16 */
        0x0000000000101125ull,
        /* V1 TRM, "ID_AA64MMFR1_EL1": VH 1, nTLBPA 0 (a Graviton3 reads the same) */
        0x0000000010212122ull,
        /* V1 TRM, "ID_AA64MMFR2_EL1", the value a Graviton3 reads at EL1 too: CnP 1, BBM
         * [55:52] 2, TTL [51:48] 0 (no FEAT_TTL, though Armv8.4 lists it), E0PD [63:60] 0
         * (FEAT_E0PD is Armv8.5, V1 is Armv8.4: Linux runs it with KPTI) */
        0x0220011102101011ull,
        /* V1 TRM, "CTR_EL0": DIC 1, IDC 1 */
        0xB444C004ull,
        "Arm Neoverse V1 Core Technical Reference Manual (Arm 101427), AArch64 identification registers",
        /* MPIDR: Graviton's flat shape, the core in Aff1 and Aff2 = 0 for every core (as
         * Graviton2 reports; unsure for Graviton3, and whether V1 sets MT = 1 as N1 does) */
        true, 64, 1,
    },
    {
        "neoverse-v2", "Arm Neoverse V2 (NVIDIA Grace, AWS Graviton4): Armv9.0, TLBI OS and range",
        /* V2 TRM (Arm 102375), "MIDR_EL1": part 0xD4F; r0p0 (Grace; Graviton4 may report r0p1: unsure) */
        0x410FD4F0ull,
        /* V2 TRM, "ID_AA64ISAR0_EL1": TLB [59:56] = 0b0010 (Armv9.0 includes Armv8.5: both
         * features mandatory); the other fields unsure, written as V1's */
        0x1221111110212120ull,
        /* V2 TRM, "ID_AA64MMFR0_EL1": PARange 48 bits, ASIDBits 16 (unsure beyond those) */
        0x0000000000101125ull,
        /* V2 TRM, "ID_AA64MMFR1_EL1" (unsure): VH 1, nTLBPA 0 */
        0x0000000010212122ull,
        /* V2 TRM, "ID_AA64MMFR2_EL1": E0PD [63:60] = 1 (FEAT_E0PD, mandatory from Armv8.5, which
         * Armv9.0 includes: Linux runs V2 without KPTI); the other fields unsure, written as
         * Neoverse N2's (its TRM, the same Armv9.0 generation): CnP 1, TTL 1, BBM 2 */
        0x1221011110101011ull,
        /* V2 TRM, "CTR_EL0": DIC 1, IDC 1 (unsure) */
        0xB444C004ull,
        "Arm Neoverse V2 Core Technical Reference Manual (Arm 102375), AArch64 identification registers",
        /* MPIDR: unsure. The model's: MT = 1, the core in Aff1, 8 cores a cluster, one cluster
         * a package (a Grace superchip's two packages at 16 CPUs, scaled down from 72 each) */
        true, 8, 1,
    },
    {
        "cortex-a72", "Arm Cortex-A72 (AWS Graviton1 A1, Raspberry Pi 4, many Armv8.0 boards): no TLBI OS or range",
        /* A72 TRM (Arm 100095), "Main ID Register, EL1": part 0xD08, r0p3 */
        0x410FD083ull,
        /* A72 TRM, "AArch64 Instruction Set Attribute Register 0, EL1": 0x00011120 with the
         * Cryptographic Extension (AES 2, SHA1 1, SHA2 1, CRC32 1); TLB [59:56] = 0 (Armv8.0) */
        0x0000000000011120ull,
        /* A72 TRM, "AArch64 Memory Model Feature Register 0, EL1": PARange 44 bits, ASIDBits 16 */
        0x0000000000001124ull,
        /* A72 TRM: ID_AA64MMFR1_EL1 reads 0 (Armv8.0 has none of its features: no VHE) */
        0x0ull,
        /* ID_AA64MMFR2_EL1 is RES0 / reads 0 on Armv8.0 cores (unsure whether the A72 TRM lists it) */
        0x0ull,
        /* A72 TRM, "Cache Type Register": 64-byte lines, PIPT instruction cache */
        0x8444C004ull,
        "Arm Cortex-A72 MPCore Processor Technical Reference Manual (Arm 100095), AArch64 register summary",
        /* MPIDR: A72 TRM, "Multiprocessor Affinity Register": MT = 0, Aff0 the core (0-3),
         * Aff1 the cluster; Graviton1's 16 cores as 4 clusters of 4 (unsure) */
        false, 4, 4,
    },
};

const unsigned a64_profile_count = sizeof(a64_profiles) / sizeof(a64_profiles[0]);

const struct a64_profile *a64_profile_find(const char *name)
{
    unsigned i;
    for (i = 0; name && i < a64_profile_count; i++)
        if (strcmp(a64_profiles[i].name, name) == 0)
            return &a64_profiles[i];
    return NULL;
}

uint64_t a64_profile_mpidr(const struct a64_profile *p, unsigned i)
{
    uint64_t core = i % p->cores_per_cluster, cluster = i / p->cores_per_cluster % p->clusters_per_package;
    uint64_t package = i / p->cores_per_cluster / p->clusters_per_package;
    return p->mt ? package << 32 | cluster << 16 | core << 8 : package << 16 | cluster << 8 | core;
}

void a64_profile_identify(const struct a64_profile *p, struct arm64_cpu_id *c)
{
    memset(c, 0, sizeof(*c));
    c->midr = p->midr;
    c->isar0 = p->isar0;
    c->mmfr0 = p->mmfr0;
    c->mmfr1 = p->mmfr1;
    c->mmfr2 = p->mmfr2;
    c->mpidr = 0x80000000ull | (p->mt ? 1ull << 24 : 0) | a64_profile_mpidr(p, 0); /* RES1 [31] */
    arm64_cpu_decode(c); /* the app's own decoding of the registers */
    if (MUTANT(a64sim_profile_tlb_ignored))
        c->tlbi_os = c->tlbi_range = true; /* every profile with range TLBI: the ISAR0 evidence ignored */
}
