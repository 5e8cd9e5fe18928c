/*
 * ACPI PPTT (ACPI 6.5, 5.2.30 "Processor Properties Topology Table"): the
 * processor hierarchy the firmware describes, node by node (type 0,
 * "Processor Hierarchy Node Structure": Flags, Parent, ACPI Processor ID),
 * each node pointing at its parent by its offset in the table. Where an
 * aarch64 machine has it, it says what MPIDR's affinity levels only hint at
 * (core/run/topo_arm64.h): which CPUs are threads of one core, which cores
 * share a cluster, which share a package. Linux takes its topology from here
 * on ACPI machines (drivers/acpi/pptt.c, from arch/arm64/kernel/topology.c).
 * Byte buffers only, bounded as every parser here (acpi.h).
 */
#ifndef TLBSCOPE_CORE_ACPI_PPTT_H
#define TLBSCOPE_CORE_ACPI_PPTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lib/msglist.h"

/* Processor Hierarchy Node flags (ACPI 6.5, Table 5.158) */
#define PPTT_PHYSICAL_PACKAGE (1u << 0)
#define PPTT_ID_VALID (1u << 1)
#define PPTT_THREAD (1u << 2) /* "Processor is a Thread" (PPTT revision 2 and later) */
#define PPTT_LEAF (1u << 3)   /* "Node is a Leaf" (revision 2 and later) */

/* Where one processor sits: each level named by its node's offset in the table. */
struct pptt_cpu {
    uint32_t leaf;    /* the processor's own node */
    uint32_t core;    /* the leaf, or its parent when the leaf is a thread */
    uint32_t cluster; /* the core's parent when it lies below the package; 0: no such level */
    uint32_t package; /* the nearest node flagged Physical package from the core up, else the root */
    bool thread;      /* the leaf is flagged a thread */
};

/*
 * The nodes above the processor whose ACPI Processor UID (the MADT GICC's) is `uid`: its
 * leaf is the node of that valid ID that no node names as parent (or flagged a leaf).
 * `pptt` holds `len` readable bytes. False, with a message in msgs (may be NULL), when the
 * table is malformed, has no leaf for uid, or a parent chain leaves the table or loops.
 */
bool acpi_pptt_cpu(const uint8_t *pptt, size_t len, uint32_t uid, struct pptt_cpu *out, struct msg_list *msgs);

#endif
