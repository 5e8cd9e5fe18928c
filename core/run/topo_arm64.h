/*
 * The topology class of a pair of aarch64 CPUs, from their MPIDR_EL1 affinity
 * fields: what x86's classes (core/machine/cpu_table.h: smt_sibling, same_l3,
 * same_package, cross_package) are for x86's ipi_roundtrip, these are for
 * aarch64's. Pure: the values in, the class out (tests/host/test_topo_arm64.c).
 *
 * MPIDR_EL1 (Arm ARM, "MPIDR_EL1"): Aff3 [39:32], Aff2 [23:16], Aff1 [15:8],
 * Aff0 [7:0], and MT [24]: set, the lowest level "consists of logical PEs
 * implemented using a multithreading type approach", so Aff0 is the thread of
 * a core, Aff1 the core, Aff2 the cluster, Aff3 the package; clear, Aff0 is
 * the core, Aff1 the cluster, Aff2 the package (socket or die), Aff3 beyond
 * it (taken as the package too). The Arm ARM leaves what each level means to
 * the implementation, so this is a reading, not a fact: Linux reads the
 * firmware's ACPI PPTT on ACPI machines instead (drivers/acpi/pptt.c) and, where
 * it has neither PPTT nor a device tree, no longer trusts MPIDR at all (every
 * CPU its own core, the package its NUMA node: drivers/base/arch_topology.c).
 * This app does the same: the PPTT where it describes every CPU, else MPIDR
 * (topo_run_arm64.c); the report says which (topology.class_source).
 *
 * The MT bit is not in the MADT's GICC entries (ACPI 6.5, "GICC Structure":
 * the MPIDR field holds the affinity fields only, the other bits zero): it is
 * read from the BSP's own MPIDR_EL1 (asm/cpu.h, arm64_cpu_identify) and taken
 * for every CPU (a server's cores are all of one kind; a big.LITTLE phone
 * could mix, which this app does not target).
 *
 * Shapes as machines report them (the affinity fields as Linux prints them,
 * "Booted secondary processor 0x..."; the MT bit from the cores' TRMs):
 *   - Cortex-A55/A76, Neoverse N1 (and, unsure, V1/V2/N2): MT = 1 though
 *     single-threaded, Aff0 = 0, the core in Aff1 (QEMU issue 1608 lists A55,
 *     A76 and N1 as cores that report MT = 1); a 2-cluster A55 model reads
 *     0x81000000, 0x81000100, 0x81010000, 0x81010100;
 *   - Ampere Altra / Altra Max (N1): Aff1 the core of a pair (0/1), Aff2 the
 *     pair, Aff3 the socket (a 2P Altra Max: 0x01001f0100 = socket 1, pair 31,
 *     core 1);
 *   - AWS Graviton2 (N1): the core in Aff1, Aff2 = 0 for all 64 (0x...00 to
 *     0x3f00: unsure whether MT is set; with it, one 64-core "cluster");
 *   - Cortex-A72 (Graviton1 A1, Armv8.0): MT = 0, Aff0 the core, Aff1 the
 *     cluster of 4 (unsure for Graviton1's exact numbering).
 */
#ifndef TLBSCOPE_CORE_RUN_TOPO_ARM64_H
#define TLBSCOPE_CORE_RUN_TOPO_ARM64_H

#include <stdbool.h>
#include <stdint.h>

#define MPIDR_MT_BIT (1ull << 24)

/* nearest first; the names (a64_class_name) are the report's words */
enum a64_class {
    A64_CLASS_SELF = 0,
    A64_CLASS_SMT_SIBLING,   /* another thread of the same core (MT = 1 only) */
    A64_CLASS_SAME_CLUSTER,  /* another core of the same cluster */
    A64_CLASS_SAME_PACKAGE,  /* another cluster of the same package */
    A64_CLASS_SAME_PACKAGE_OTHER_NODE, /* the same package, another NUMA node (SRAT: Altra's
                                        * quadrants, x86's word for SNC and NPS) */
    A64_CLASS_CROSS_PACKAGE, /* another package */
    A64_CLASS_COUNT
};
#define A64_CLASS_FIRST A64_CLASS_SMT_SIBLING

const char *a64_class_name(enum a64_class c);

/*
 * Where one CPU sits, in its source's numbering: equal values, the same node. From MPIDR,
 * the affinity fields above each level; from the PPTT (core/firmware/acpi_pptt.h), the
 * nodes' offsets in the table.
 */
struct a64_place {
    uint64_t cpu, core, cluster, package;
    bool has_cluster; /* false: no level between core and package (a PPTT may have none) */
    int64_t node;     /* the SRAT's proximity domain, -1 where the firmware gives none */
};

/* CPU's place from its MADT MPIDR (affinity fields) and MPIDR_EL1.MT as the BSP reads it */
void a64_place_from_mpidr(uint64_t mpidr, bool mt, struct a64_place *out);
/* the class of CPU b seen from CPU a */
enum a64_class a64_place_class(const struct a64_place *a, const struct a64_place *b);
/* the two together: the class from two MPIDRs */
enum a64_class a64_mpidr_class(uint64_t a, uint64_t b, bool mt);

/* one ordered pair of ipi_roundtrip: CPU numbers (percpu[] indices, up to MAX_CPUS: a 2P
 * AmpereOne has 384) and their class */
struct a64_pair {
    uint16_t initiator, target;
    uint8_t cls;
};

/*
 * ipi_roundtrip's pairs, x86's rule (core/exp/ipi_roundtrip.c choose_pairs): every ordered
 * pair (initiator, target) of cpus[0..n), initiator != target and target != bsp (the
 * BSP, which keeps the firmware's vectors and so cannot take an SGI through ours), when
 * there are at most `limit`; else limit / (classes present) of each class, evenly spaced
 * over the class's pairs in initiator-major order (at least one each). In class order,
 * nearest first. place[] is indexed by CPU number. `out` has room for limit +
 * A64_CLASS_COUNT pairs. Returns the pairs chosen; *all gets the pairs there are.
 */
unsigned a64_choose_pairs(const struct a64_place *place, const unsigned *cpus, unsigned n, unsigned bsp,
                          unsigned limit, struct a64_pair *out, unsigned *all);

#endif
