/*
 * GICv2 SGIs between CPUs (Arm IHI 0048B, "GIC architecture specification
 * v1.0 and v2.0"): see asm/gic.h. Everything is memory-mapped: the
 * distributor (GICD, MADT GICD entry) and the CPU interface (GICC, the MADT
 * GICC entry's Physical Base Address; one address, banked per CPU). The
 * firmware's page tables map both as Device memory (UEFI uses the GIC for
 * its own timer), and so do ours, which copy them outside the test region.
 *
 * GICv2 names CPUs by CPU interface number (0-7), not MPIDR: a GIC has at
 * most 8 CPU interfaces. Each CPU learns its own from the banked
 * GICD_ITARGETSR0, which reads as the reading CPU's own bit (IHI 0048B,
 * "GICD_ITARGETSRn": "for SGIs and PPIs ... each field returns a value that
 * corresponds only to the processor reading the register").
 */
#include "asm/gic.h"
#include "asm/barrier.h"
#include "asm/timer.h"

/* Distributor (IHI 0048B, "Distributor register map") */
#define GICD_CTLR 0x000
#define GICD_CTLR_ENABLE 3u /* EnableGrp0|EnableGrp1 (one Enable bit with Security Extensions, NS view) */
#define GICD_TYPER 0x004
#define GICD_TYPER_SECURITYEXTN (1u << 10)
#define GICD_ISENABLER0 0x100
#define GICD_ICPENDR0 0x280
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR 0x800
#define GICD_SGIR 0xf00
/* CPU interface (IHI 0048B, "CPU interface register map") */
#define GICC_CTLR 0x0000
#define GICC_CTLR_ENABLE 3u /* EnableGrp0|EnableGrp1 */
#define GICC_CTLR_EOIMODE (1u << 9) /* EOImodeNS (the non-secure view; EOImode without Security Extensions) */
#define GICC_PMR 0x0004
#define GICC_BPR 0x0008
#define GICC_IAR 0x000c
#define GICC_EOIR 0x0010
#define GICC_IAR_ID 0x3ffu /* InterruptID [9:0]; CPUID [12:10] names an SGI's source */

static uint64_t gicd, gicc;

static inline uint32_t rd32(uint64_t a) { return *(volatile uint32_t *)a; }
static inline uint8_t rd8(uint64_t a) { return *(volatile uint8_t *)a; }
static inline void wr32(uint64_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline void wr8(uint64_t a, uint8_t v) { *(volatile uint8_t *)a = v; }

int gic2_init(const struct gic_config *cfg)
{
    gicd = cfg->gicd;
    gicc = cfg->gicc;
    if (!gicd || !gicc)
        return -2;
    uint32_t typer = rd32(gicd + GICD_TYPER);
    /* without Security Extensions the GIC has one security state, every group ours */
    gic_security = (struct gic_security){ true, !(typer & GICD_TYPER_SECURITYEXTN), "GICD_TYPER.SecurityExtn", typer };
    if (!(rd32(gicd + GICD_CTLR) & GICD_CTLR_ENABLE)) {
        wr32(gicd + GICD_CTLR, rd32(gicd + GICD_CTLR) | GICD_CTLR_ENABLE);
        dsb_sy();
        if (!(rd32(gicd + GICD_CTLR) & GICD_CTLR_ENABLE))
            return -3;
    }
    return 0;
}

/*
 * The groups: a GICv2 with Security Extensions shows a non-secure caller no
 * group at all (GICD_IGROUPRn RAZ/WI), and its Group 0 (Secure) interrupts'
 * enable bits read 0 (RAZ/WI) there, so GICD_ISENABLER0 read back is the
 * check; the firmware's Group 1 SGIs (TF-A: all but 8-15) are the ones a
 * non-secure OS can use. With one security state GICD_IGROUPR0 is left as
 * reset has it, Group 0, as Linux's GICv2 driver leaves it (it never writes
 * GICD_IGROUPRn): the CPU interface below signals Group 0 as IRQ (FIQEn 0)
 * and GICC_IAR acknowledges it, where a Group 1 SGI would read back 1022
 * from GICC_IAR unless AckCtl were set, which Arm deprecates.
 */
int gic2_cpu_init(struct percpu *pc)
{
    uint32_t bits = SGI_BITS;
    /* SGI and PPI registers are banked: each CPU sets up its own */
    pc->gic_cpumask = rd8(gicd + GICD_ITARGETSR);
    if (!pc->gic_cpumask)
        return -1; /* no CPU interface answers for this CPU (a 9th CPU?) */
    /* our two SGIs at high priority, so the BSP can mask firmware interrupts
     * with PMR; SGI enables may be fixed to 1 (IHI 0048B, "GICD_ISENABLERn":
     * implementation defined for SGIs), writing them is harmless */
    wr8(gicd + GICD_IPRIORITYR + SGI_CMD, SGI_PRIO);
    wr8(gicd + GICD_IPRIORITYR + SGI_PING, SGI_PRIO);
    wr32(gicd + GICD_ISENABLER0, bits);
    if (pc->idx != 0) { /* the BSP keeps the firmware's PMR and enables */
        wr32(gicc + GICC_PMR, 0xf0);
        wr32(gicc + GICC_BPR, 0);
        /* EOImode(NS) 0: an EOI also deactivates (arch/arm64/exception.c) */
        wr32(gicc + GICC_CTLR, (rd32(gicc + GICC_CTLR) & ~GICC_CTLR_EOIMODE) | GICC_CTLR_ENABLE);
    }
    dsb_sy(); /* the MMIO writes reach the GIC before we rely on them */
    struct gic_sgi_regs rb = { 0, 0, "GICD_ISENABLER0", 0, 0, rd32(gicd + GICD_ISENABLER0) };
    return gic_sgi_readback(&rb, &gic_sgi_check[pc->idx]);
}

/*
 * GICD_SGIR (IHI 0048B, "Software Generated Interrupt Register"):
 * TargetListFilter [25:24] = 0 (the list), CPUTargetList [23:16], NSATT
 * [15] = 0, SGIINTID [3:0]. The target's interface bit comes from its
 * percpu (at most 8 entries to look through).
 */
void gic2_send_sgi(uint64_t mpidr, unsigned intid)
{
    uint32_t mask = 0;
    for (unsigned i = 0; i < ncpus; i++)
        if (percpu[i].mpidr == mpidr)
            mask = percpu[i].gic_cpumask;
    /* a store to Device memory: DSB orders our mailbox stores before it as
     * the GICv3 path does (the receiver may read the mailbox at once) */
    dsb_ishst();
    wr32(gicd + GICD_SGIR, (mask & 0xff) << 16 | (intid & 0xf));
}

/* the CPU interfaces of every listed CPU in one GICD_SGIR write */
unsigned gic2_send_sgi_list(const uint64_t *mpidr, unsigned n, unsigned intid)
{
    uint32_t mask = 0;
    for (unsigned t = 0; t < n; t++)
        for (unsigned i = 0; i < ncpus; i++)
            if (percpu[i].mpidr == mpidr[t])
                mask |= percpu[i].gic_cpumask;
    dsb_ishst(); /* as gic2_send_sgi */
    wr32(gicd + GICD_SGIR, (mask & 0xff) << 16 | (intid & 0xf));
    return 1;
}

/* TargetListFilter [25:24] = 0b01: "forward the interrupt to all CPU
 * interfaces except that of the processor that requested the interrupt" */
void gic2_send_sgi_others(unsigned intid)
{
    dsb_ishst();
    wr32(gicd + GICD_SGIR, 1u << 24 | (intid & 0xf));
}

uint32_t gic2_ack(void)
{
    uint32_t iar = rd32(gicc + GICC_IAR);
    dsb_sy(); /* the acknowledge completes before we act on the interrupt */
    this_cpu()->gic_iar = iar;
    return iar & GICC_IAR_ID;
}

/* GICC_EOIR wants the acknowledged value whole: for an SGI, the source CPU
 * too (IHI 0048B, "End of Interrupt Register") */
void gic2_eoi(uint32_t intid)
{
    struct percpu *pc = this_cpu();
    wr32(gicc + GICC_EOIR, (pc->gic_iar & GICC_IAR_ID) == intid ? pc->gic_iar : intid);
}

uint32_t gic2_pmr(void)
{
    return rd32(gicc + GICC_PMR);
}

void gic2_set_pmr(uint32_t pmr)
{
    wr32(gicc + GICC_PMR, pmr);
    dsb_sy();
}
