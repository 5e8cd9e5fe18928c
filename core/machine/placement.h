/*
 * Where the targets of a shootdown sit (issue 21): drawn from one topology
 * class at a time, as seen from the initiator (core/machine/cpu_table.h, enum
 * topo_class), or spread placement-blind over the machine as Linux's
 * mm_cpumask is: a process's threads run wherever the scheduler put them,
 * and a shootdown interrupts every CPU in the mask, whatever its distance.
 * "spread" takes k CPUs round-robin over the machine's (NUMA node,
 * package, L3) domains (issue 32: it took them evenly over the firmware's
 * CPU numbering, which blocks or alternates packages and says nothing of
 * L3s): the domains ordered so that consecutive ones differ at the highest
 * level first (a first L3 of each package of each node, then the second
 * L3s...), then the first CPU of every domain, the second, and so on; so
 * 2 targets span 2 nodes (or packages), and k targets as many L3s as k
 * allows, never the initiator's neighbourhood alone.
 *
 * Pure on a CPU table and a predicate, so host tests check each placement
 * picks CPUs of its class (tests/host/test_placement.c).
 */
#ifndef TLBSCOPE_CORE_PLACEMENT_H
#define TLBSCOPE_CORE_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/machine/cpu_table.h"

/* A placement: a topology class (TOPO_SMT_SIBLING .. TOPO_CROSS_PACKAGE), or spread. */
#define PLACE_SPREAD ((uint32_t)TOPO_CLASS_COUNT)
#define PLACE_COUNT (PLACE_SPREAD + 1)

/* "smt_sibling" ... "cross_package" (the class names), "spread" */
const char *placement_name(uint32_t placement);

/* Whether CPU `cpu` may be a target (smp_usable() on the tool, anything in tests). */
typedef bool (*placement_usable_fn)(const void *ctx, uint32_t cpu);

/* How many usable CPUs of class `cls` the initiator has (spread: every usable CPU but it). */
uint32_t placement_size(const struct cpu_table *t, placement_usable_fn usable, const void *ctx,
                        uint32_t initiator, uint32_t placement);

/*
 * How many classes the initiator has usable CPUs of. Below 2 every
 * placement is the nearest-first order the experiments' grids already
 * measure (one class: its CPUs in index order, spread among the same
 * distances), so the experiments measure no placement points then.
 */
uint32_t placement_classes(const struct cpu_table *t, placement_usable_fn usable, const void *ctx,
                           uint32_t initiator);

/*
 * Up to k targets of `placement` seen from `initiator` into out (room for
 * k): a class's first k usable CPUs in index order; spread's k evenly
 * spaced ones. Returns how many (fewer than k when the placement has fewer).
 */
uint32_t placement_pick(const struct cpu_table *t, placement_usable_fn usable, const void *ctx,
                        uint32_t initiator, uint32_t placement, uint32_t k, uint32_t *out);

/*
 * "2,3,8,9" into buf: the CPUs of a pick, at most 16 of them and "..." (a
 * note says which CPUs a placement took, so a reader and the model test
 * can check their class in topology.pair_classes).
 */
void placement_list(char *buf, size_t cap, const uint32_t *cpus, uint32_t n);
/* How many of `cpus` (n) fall in each class seen from `initiator`: count[enum topo_class]. */
void placement_count(const struct cpu_table *t, uint32_t initiator, const uint32_t *cpus,
                     uint32_t n, uint32_t count[TOPO_CLASS_COUNT]);
/*
 * The class mix of a pick seen from `initiator`: "same_l3 1, cross_node 3"
 * (each class it holds, nearest first, with its count).
 */
void placement_mix(char *buf, size_t cap, const struct cpu_table *t, uint32_t initiator,
                   const uint32_t *cpus, uint32_t n);

#endif
