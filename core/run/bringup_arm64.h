/*
 * Which CPUs the aarch64 app starts and where each one's per-CPU slot is: from the MADT's
 * GICC entries, in one place for the app (efi/arm64/main.c) and its model run
 * (sim/arm64/app.c), so the model exercises the indices the firmware build uses.
 *
 * Slot 0 is the BSP wherever the MADT lists it (first on QEMU, anywhere on a server: a
 * firmware may list the cores of socket 0 after socket 1's, or the boot core in the middle);
 * then every usable (Enabled or Online Capable) GICC that is not the BSP, in MADT order. The
 * topology rows (run->topo) are the BSP first, then the MADT's others, each with its slot.
 */
#ifndef TLBSCOPE_CORE_RUN_BRINGUP_ARM64_H
#define TLBSCOPE_CORE_RUN_BRINGUP_ARM64_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/run_arm64.h"

/* GICC flags (ACPI 6.5, "GICC CPU Interface Flags") */
#define GICC_ENABLED (1u << 0)
#define GICC_ONLINE_CAPABLE (1u << 3)

/* an MPIDR no CPU has (bits [63:40] and 31 are not affinity): a slot nobody filled */
#define A64_NO_MPIDR (~0ull)

/* what the MADT says of one CPU: the GICC's ACPI Processor UID, Flags and MPIDR */
struct a64_madt_cpu {
    uint64_t mpidr;
    uint32_t uid;
    uint32_t flags;
};

/* per-CPU slots a run needs for this MADT: the BSP and every usable GICC that is not the
 * BSP, at most limit (the build's MAX_CPUS); *beyond gets the usable CPUs past it */
unsigned a64_slots_needed(const struct a64_madt_cpu *madt, unsigned n, uint64_t bsp, unsigned limit,
                          unsigned *beyond);

/*
 * run->topo from the MADT and the BSP's MPIDR; slot_mpidr[0..slots) the MPIDR of each slot
 * (slot_mpidr[0] the BSP's). A usable CPU past the slots is recorded absent with a note
 * naming the MADT's count, never given an index; with not_started (why no CPU may be
 * started: PSCI's check) every other CPU is, with that reason. Returns the slots filled. Sets
 * run->every_cpu_started when every usable MADT CPU has a slot (the precondition of an
 * SGI to "all but self").
 */
unsigned a64_topology_build(struct arm64_run *run, const struct a64_madt_cpu *madt, unsigned n, uint64_t bsp,
                            unsigned slots, uint64_t *slot_mpidr, const char *not_started);

#endif
