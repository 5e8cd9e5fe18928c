/*
 * The second-level TLB's size for 4 KiB pages, decoded from CPUID.
 *
 * flush_ceiling (core/exp/flush_ceiling.c) uses it as one of its working
 * sets: a working set as large as the L2 TLB is where a full flush costs
 * the most refills. Pure decoding over a cpuid_fn, so host tests run it on
 * the recorded dumps of ../shared/data/cpuid.
 *
 * Also its associativity (ways_4k), from which tlbscope-sim takes the
 * geometry of its modelled TLB (sets = entries / ways).
 *
 * Sources, in the order tried:
 *   Intel  leaf 0x18 (deterministic address translation parameters, SDM
 *          vol. 2A CPUID): every sub-leaf of level 2 (EDX[7:5]) that is a
 *          data or unified TLB (EDX[4:0] = 1 or 3) and holds 4 KiB pages
 *          (EBX[0]) adds ways (EBX[31:16]) x sets (ECX), or ways when fully
 *          associative (EDX[8]). Ice Lake and later split the STLB in two
 *          such sub-leaves (4K+2M/4M and 4K+1G): their sum is the STLB, and
 *          the sum of their ways its associativity (128 sets of 8 + 8).
 *   Intel  leaf 2 descriptors, for CPUs without leaf 0x18 (Skylake-SP
 *          reports 0xC3, "STLB 4K/2M, 6-way, 1536 entries"). Descriptor 0xFE
 *          says "use leaf 0x18".
 *   AMD    leaf 0x80000006 EBX[27:16] (L2DTlb4KSize) and EBX[31:28]
 *          (L2DTlb4KAssoc, the L2 associativity encoding of APM vol. 3
 *          E.4.5: 6 = 8-way, 0xF = fully associative).
 */
#ifndef TLBSCOPE_ARCH_X86_TLB_INFO_H
#define TLBSCOPE_ARCH_X86_TLB_INFO_H

#include "asm/cpuid.h"

/* struct l2_tlb_info is in arch/x86/include/asm/cpuid.h: cpuid_decode() fills cpu_features.l2_tlb. */
void cpuid_decode_l2_tlb(cpuid_fn fn, void *ctx, enum cpu_vendor vendor, uint32_t max_basic,
                         uint32_t max_ext, struct l2_tlb_info *out);

#endif
