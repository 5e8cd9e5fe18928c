/*
 * Finding a CPU's GICv3 redistributor. A server has one GICR discovery range per socket or
 * die (ACPI 6.5 MADT "GIC Redistributor (GICR) Structure", several of them: Altra's two
 * sockets, Grace's chips), each a run of frames that ends at its length or at the frame
 * whose GICR_TYPER.Last is set (IHI 0069, GICR_TYPER). The search goes over every range:
 * a CPU of the second socket is only in the second.
 */
#ifndef TLBSCOPE_ARM64_GIC_REDIST_H
#define TLBSCOPE_ARM64_GIC_REDIST_H

#include <stdint.h>

#define GIC_MAX_REDIST_RANGES 16 /* MADT GICR structures kept; more are named in run.warnings */

struct gic_redist_range {
    uint64_t base; /* "Discovery Range Base Address" */
    uint64_t len;  /* "Discovery Range Length" */
};

#define GICR_TYPER 0x0008
#define GICR_TYPER_VLPIS (1ull << 1) /* GICv4 VLPI frames: 256 KiB a redistributor, not 128 */
#define GICR_TYPER_LAST (1ull << 4)  /* the last redistributor of its range */

/* GICR_TYPER.Affinity_Value [63:32] is Aff3.Aff2.Aff1.Aff0 (IHI 0069, GICR_TYPER) */
uint32_t gic_redist_aff(uint64_t mpidr);

/* RD_base of the redistributor whose GICR_TYPER.Affinity_Value is gic_redist_aff(mpidr),
 * looked for in every range; 0 when none has it. read64 reads one GICR_TYPER (MMIO on the
 * machine, an array in the unit test). */
uint64_t gic_redist_find(const struct gic_redist_range *range, unsigned n, uint64_t mpidr,
                         uint64_t (*read64)(uint64_t addr));

#endif
