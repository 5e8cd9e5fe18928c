/*
 * The last-level cache's size, decoded from CPUID.
 *
 * flush_ceiling's cold working-set form (core/exp/flush_ceiling.c) evicts
 * the page tables from every cache before each refill by reading a buffer
 * larger than this cache. Pure decoding over a cpuid_fn, so host tests run
 * it on the recorded dumps of ../shared/data/cpuid.
 *
 * Sources, in the order tried:
 *   Intel  leaf 4 (deterministic cache parameters, SDM vol. 2A CPUID): the
 *          sub-leaf of the highest level that is a data or unified cache
 *          (EAX[4:0] = 1 or 3, level EAX[7:5]); size = ways (EBX[31:22] + 1)
 *          x partitions (EBX[21:12] + 1) x line (EBX[11:0] + 1) x sets
 *          (ECX + 1).
 *   AMD    leaf 0x8000001D (cache topology, APM vol. 3 E.4.15), the same
 *          layout, when TopologyExtensions (8000_0001 ECX[22]) says it
 *          exists: on Zen the L3 of one core complex (32 MiB on Zen 3/4),
 *          the cache a CPU's loads can evict;
 *          else 0x80000006 EDX[31:18] (L3 size in 512 KiB units), which
 *          Zen fills with the whole package's L3 (256 MiB on an EPYC 7763),
 *          and QEMU's TCG with its made-up 16 MiB.
 */
#ifndef TLBSCOPE_ARCH_X86_CACHE_INFO_H
#define TLBSCOPE_ARCH_X86_CACHE_INFO_H

#include "arch/x86/cpuid.h"

/* struct llc_info is in arch/x86/cpuid.h: cpuid_decode() fills cpu_features.llc. */
void cpuid_decode_llc(cpuid_fn fn, void *ctx, enum cpu_vendor vendor, uint32_t max_basic,
                      uint32_t max_ext, struct llc_info *out);

#endif
