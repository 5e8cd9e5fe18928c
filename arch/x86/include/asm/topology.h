/*
 * CPU topology from the APIC ID: which package, core and SMT thread a
 * logical CPU is, decoded from the bit-field widths CPUID enumerates.
 *
 * The widths ("shifts") are computed once, on the BSP, with
 * topology_decode(); they are the same on every CPU of a homogeneous
 * system (hybrid parts such as Alder Lake share them too: P- and E-cores
 * differ in SMT, not in the APIC ID layout). Each CPU's APIC ID (its own
 * CPUID 0Bh/1Fh EDX, or the MADT entry) is then split with
 * topology_split(). No CPUID is executed here: `fn` reads it, so host
 * tests run this on recorded dumps.
 *
 * Sources, in order of preference:
 *   1. CPUID 1Fh (V2 extended topology), Intel SDM vol. 2A, and AMD Zen 5;
 *   2. CPUID 0Bh (extended topology), Intel and AMD family 17h+;
 *   3. AMD 80000008h ECX ApicIdCoreIdSize / NC and 8000001Eh EBX
 *      ThreadsPerCore (AMD APM vol. 3, E.4.7 and E.4.15), when 0Bh is absent;
 *   4. CPUID 1 EBX[23:16] (logical IDs per package) with CPUID 4
 *      EAX[31:26] (core IDs per package, Intel) - the legacy method.
 */
#ifndef TLBSCOPE_ARCH_X86_TOPOLOGY_H
#define TLBSCOPE_ARCH_X86_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpuid.h"

enum topo_source {
    TOPO_SRC_NONE = 0,   /* nothing enumerated: every CPU is its own package */
    TOPO_SRC_LEAF_1F,
    TOPO_SRC_LEAF_0B,
    TOPO_SRC_AMD_EXT,    /* 80000008h / 8000001Eh */
    TOPO_SRC_LEGACY,     /* leaf 1 + leaf 4 */
};

/*
 * Bit positions in the (x2)APIC ID. Each *_shift is the number of low bits
 * that hold the IDs of everything below that level: thread = bits
 * [smt_shift-1:0], core-in-package = bits [package_shift-1:smt_shift],
 * package = bits [31:package_shift]. Levels that are not enumerated get the
 * shift of the level below (zero-width field).
 */
struct topo_shifts {
    enum topo_source source;
    uint32_t smt_shift;
    uint32_t core_shift;    /* bits below the level above the core (module/tile/die/package) */
    uint32_t module_shift;
    uint32_t tile_shift;
    uint32_t die_shift;
    uint32_t package_shift;
    bool has_module, has_tile, has_die; /* enumerated by leaf 1Fh */
    uint32_t threads_per_core;          /* as CPUID reports it (1 when no SMT) */
    uint32_t amd_nodes_per_package;     /* 8000001Eh ECX[10:8] + 1; 0 when not read */
    uint32_t amd_node_id;               /* 8000001Eh ECX[7:0] of the CPU decoded */
    /*
     * The L3: APIC IDs that agree above bit l3_shift share one (Intel CPUID 4,
     * AMD 8000001Dh with TopologyExtensions: EAX[25:14] + 1 logical IDs share
     * the cache, rounded up to a power of two). has_l3 false: no L3 enumerated.
     */
    bool has_l3;
    uint32_t l3_shift;
    const char *l3_source; /* "leaf_4", "leaf_8000001d" or "none" */
};

/* Fully split APIC ID; die/module are 0 when the level is not enumerated. */
struct topo_ids {
    uint32_t package;
    uint32_t die;    /* within the package */
    uint32_t module; /* within the die (or package) */
    uint32_t core;   /* within the package: the core field, not a dense index */
    uint32_t thread; /* within the core */
    uint32_t l3;     /* APIC ID >> l3_shift: equal for CPUs sharing an L3 (0 without has_l3) */
};

void topology_decode(cpuid_fn fn, void *ctx, const struct cpu_features *f, struct topo_shifts *out);

/* package, core (within the package: two CPUs with equal package and core are SMT siblings)
 * and thread (within the core). Any output pointer may be NULL. */
void topology_split(const struct topo_shifts *s, uint32_t apic_id, uint32_t *package,
                    uint32_t *core, uint32_t *thread);
void topology_split_ids(const struct topo_shifts *s, uint32_t apic_id, struct topo_ids *out);

/* "leaf_1f", "leaf_0b", "amd_ext", "legacy", "none" */
const char *topo_source_name(enum topo_source s);

#endif
