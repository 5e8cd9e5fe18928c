/*
 * The GIC, just enough for SGIs between CPUs, in the two generations servers
 * ship: GICv3 (Arm IHI 0069: system-register CPU interface, ICC_SGI1R_EL1,
 * gic_v3.c) and GICv2 (Arm IHI 0048: memory-mapped CPU interface GICC_IAR /
 * GICC_EOIR, SGIs through GICD_SGIR, gic_v2.c) on older boards. The version
 * is chosen once at run time from the MADT's GICD entry (gic_init); the
 * functions below dispatch on it (gic.c). The distributor is left as
 * firmware configured it; each CPU sets up its own SGIs and CPU interface.
 */
#ifndef TLBSCOPE_ARM64_GIC_H
#define TLBSCOPE_ARM64_GIC_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/gic_redist.h"
#include "asm/percpu.h"
#include "core/mutant.h"

/*
 * The tool's two SGIs come from 0-7, the non-secure world's share: Arm's
 * secure firmware (TF-A's platforms) keeps SGIs 8-15 for itself as Secure
 * interrupts, and with two security states a non-secure write to their
 * group, enable or priority is ignored (RAZ/WI), so an SGI sent on one never
 * arrives. Linux numbers its IPIs from 0 for the same reason
 * (arch/arm64/kernel/smp.c). gic_cpu_init reads back what it set.
 */
#define SGI_CMD 0 /* "look at your mailbox" */
#define SGI_PING (MUTANT(arm_sgi_ping_secure) ? 9 : 1) /* the IPI round-trip test */
#define SGI_FIRST_SECURE 8 /* from here on the secure firmware's */
#define SGI_BITS ((1u << SGI_CMD) | (1u << SGI_PING))
#define SGI_PRIO 0x20
#define GIC_SPURIOUS 1023

extern unsigned gic_version; /* 2 or 3, set by gic_init */

/* Where the firmware's MADT says the GIC is */
struct gic_config {
    unsigned version;    /* MADT GICD "GIC version" (ACPI 6.5: 1 GICv1, 2 GICv2, 3 GICv3, 4 GICv4) */
    uint64_t gicd;       /* MADT GICD physical base */
    uint64_t gicc;       /* MADT GICC "Physical Base Address" (GICv2 CPU interface) */
    unsigned nranges;    /* MADT GICR discovery ranges (GICv3), 0: none (GICC.GICRBaseAddress each) */
    struct gic_redist_range range[GIC_MAX_REDIST_RANGES];
};

/* BSP: distributor checks. GICv3: each percpu[].gicr not yet known is found
 * in the GICR discovery ranges (all of them: asm/gic_redist.h). 0, or negative: -1 no affinity routing (v3),
 * -2 a redistributor missing (v3) or no CPU interface base (v2), -3 the
 * distributor did not take its enable, -4 a GIC version we do not drive. */
int gic_init(const struct gic_config *cfg);
/* On each CPU, for itself: 0, or negative; -1 no redistributor (v3), -2 it
 * did not wake (v3), -3: a write to the tool's SGIs did not stick
 * (gic_sgi_check[pc->idx] names the register and its value), -5: no SGI can
 * reach the CPU, Aff0 above 15 without the range selector (GICV3_NO_RSS). */
#define GICV3_NO_RSS (-5) /* ICC_CTLR_EL1.RSS and GICD_TYPER.RSS both needed */
int gic_cpu_init(struct percpu *pc);

/* Whether the GIC has one security state (the groups are all ours) or two
 * (the secure firmware owns some interrupts), as gic_init read it: GICv3
 * GICD_CTLR.DS [6] (0 in the non-secure view of a GIC with two states),
 * GICv2 GICD_TYPER.SecurityExtn [10]. */
struct gic_security {
    bool known;
    bool disabled;    /* one security state */
    const char *from; /* "GICD_CTLR.DS" or "GICD_TYPER.SecurityExtn" */
    uint32_t reg;     /* that register as read */
};
extern struct gic_security gic_security;

/* The tool's SGIs read back after gic_cpu_init set them (gic_sgi.c) */
struct gic_sgi_regs {
    const char *igroupr, *igrpmodr, *isenabler; /* the registers' names; igroupr NULL: not readable
                                                   (a GICv2's non-secure view with Security Extensions) */
    uint32_t igroupr0, igrpmodr0, isenabler0;
};
/* what a CPU's check found: reg NULL when every write stuck */
struct gic_sgi_check {
    const char *reg;
    uint32_t value; /* reg as read back */
    uint32_t want;  /* the bits of the tool's SGIs that had to read 1 (0 for IGRPMODR0) */
};
extern struct gic_sgi_check gic_sgi_check[MAX_CPUS];
/* 0 when the tool's SGIs (SGI_BITS) read back as Non-secure Group 1
 * (IGROUPR0 set, IGRPMODR0 clear) and enabled; else -3, with *out naming
 * the first register that did not take the write */
int gic_sgi_readback(const struct gic_sgi_regs *r, struct gic_sgi_check *out);
/* whether SGIs can reach the CPU of this MPIDR: ICC_SGI1R_EL1's TargetList covers 16 Aff0
 * values and its RS field picks which 16, so an Aff0 above 15 needs the range selector in the
 * distributor (GICD_TYPER.RSS) and the CPU interfaces (ICC_CTLR_EL1.RSS). 0, or GICV3_NO_RSS */
int gic_rss_check(uint64_t mpidr, bool gicd_rss, bool icc_rss);
void gic_send_sgi(uint64_t mpidr, unsigned intid);
/* one SGI to n CPUs with the fewest writes the GIC takes: GICv3 one
 * ICC_SGI1R_EL1 per Aff3.Aff2.Aff1 cluster (and RS group of 16 Aff0 values)
 * with the target-list bits, GICv2 one GICD_SGIR with the CPU target list.
 * Returns the register writes made. */
unsigned gic_send_sgi_list(const uint64_t *mpidr, unsigned n, unsigned intid);
/* one SGI to every CPU but the sender, in one write: GICv3 ICC_SGI1R_EL1.IRM
 * = 1, GICv2 GICD_SGIR TargetListFilter 0b01 */
void gic_send_sgi_others(unsigned intid);
/* the INTID of the highest pending interrupt, acknowledged (1020..1023:
 * none); gic_eoi ends it (GICv2 also needs the SGI's source CPU from the
 * acknowledge, which the running CPU's percpu keeps in between) */
uint32_t gic_ack(void);
void gic_eoi(uint32_t intid);
/* the running CPU's priority mask (ICC_PMR_EL1 / GICC_PMR) */
uint32_t gic_pmr(void);
void gic_set_pmr(uint32_t pmr);

/* Hand-back (gic_pm.c): what gic_init and gic_cpu_init change, saved first (they call
 * the saves) and given back at the end of the run. gic_cpu_restore runs on the CPU
 * itself (its SGIs, CPU interface and, for a secondary, a redistributor the firmware left
 * asleep put back to sleep), gic_dist_restore on the BSP, last. 0, or -1 when the GIC did
 * not settle within 100 ms. */
void gic_dist_save(const struct gic_config *cfg);
void gic_cpu_save(struct percpu *pc);
int gic_cpu_restore(struct percpu *pc);
int gic_dist_restore(void);

/* the generation-specific halves gic.c dispatches to */
int gic3_init(const struct gic_config *cfg);
int gic3_cpu_init(struct percpu *pc);
void gic3_send_sgi(uint64_t mpidr, unsigned intid);
unsigned gic3_send_sgi_list(const uint64_t *mpidr, unsigned n, unsigned intid);
void gic3_send_sgi_others(unsigned intid);
uint32_t gic3_ack(void);
void gic3_eoi(uint32_t intid);
int gic2_init(const struct gic_config *cfg);
int gic2_cpu_init(struct percpu *pc);
void gic2_send_sgi(uint64_t mpidr, unsigned intid);
unsigned gic2_send_sgi_list(const uint64_t *mpidr, unsigned n, unsigned intid);
void gic2_send_sgi_others(unsigned intid);
uint32_t gic2_ack(void);
void gic2_eoi(uint32_t intid);
uint32_t gic2_pmr(void);
void gic2_set_pmr(uint32_t pmr);

#endif
