/* GICv3 SGIs between CPUs: see asm/gic.h. */
#include <stdbool.h>

#include "asm/gic.h"
#include "asm/barrier.h"
#include "asm/timer.h"

/* Distributor registers (IHI 0069, "The GIC Distributor register map") */
#define GICD_CTLR 0x0000
#define GICD_CTLR_RWP (1u << 31)
#define GICD_CTLR_DS (1u << 6)
#define GICD_CTLR_ARE (1u << 4) /* ARE_S/ARE with DS=1 */
#define GICD_CTLR_GRP1 (1u << 1) /* EnableGrp1 (DS=1) / EnableGrp1NS */
#define GICD_TYPER 0x0004
#define GICD_TYPER_RSS (1u << 26) /* SGIs take targets of Aff0 0..255 (range selector) */
#define ICC_CTLR_EOIMODE (1ull << 1)
#define ICC_CTLR_RSS (1ull << 18) /* this CPU interface sends and takes RS-selected SGIs */

/* Redistributor RD_base frame and SGI_base frame, 64 KiB above it (IHI 0069,
 * "The GIC Redistributor register map") */
#define GICR_CTLR 0x0000
#define GICR_WAKER 0x0014
#define GICR_WAKER_PSLEEP (1u << 1)
#define GICR_WAKER_CASLEEP (1u << 2)
#define GICR_SGI 0x10000
#define GICR_IGROUPR0 (GICR_SGI + 0x0080)
#define GICR_ISENABLER0 (GICR_SGI + 0x0100)
#define GICR_ICPENDR0 (GICR_SGI + 0x0280)
#define GICR_IPRIORITYR (GICR_SGI + 0x0400)
#define GICR_IGRPMODR0 (GICR_SGI + 0x0d00)

static uint64_t gicd;
static bool gicd_rss; /* GICD_TYPER.RSS */

static inline uint32_t rd32(uint64_t a) { return *(volatile uint32_t *)a; }
static inline uint64_t rd64(uint64_t a) { return *(volatile uint64_t *)a; }
static inline void wr32(uint64_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline void wr8(uint64_t a, uint8_t v) { *(volatile uint8_t *)a = v; }

static uint64_t typer_read(uint64_t a)
{
    return rd64(a);
}

int gic3_init(const struct gic_config *cfg)
{
    unsigned i;
    int found = 0;
    uint32_t ctlr;
    gicd = cfg->gicd;
    gicd_rss = (rd32(gicd + GICD_TYPER) & GICD_TYPER_RSS) != 0;
    ctlr = rd32(gicd + GICD_CTLR);
    /* DS reads 1 only with one security state: in the non-secure view of a
     * GIC with two, bit 6 is RES0 (IHI 0069, GICD_CTLR) */
    gic_security = (struct gic_security){ true, (ctlr & GICD_CTLR_DS) != 0, "GICD_CTLR.DS", ctlr };
    if (!(ctlr & GICD_CTLR_ARE))
        return -1; /* system-register SGIs need affinity routing */
    if (!(ctlr & GICD_CTLR_GRP1)) {
        uint64_t deadline = ticks() + tick_freq() / 10;
        wr32(gicd + GICD_CTLR, ctlr | GICD_CTLR_GRP1);
        while (rd32(gicd + GICD_CTLR) & GICD_CTLR_RWP)
            if (ticks() > deadline)
                return -3; /* the write never completed */
    }
    /* Redistributors: MADT GICC.GICRBaseAddress when given (the caller put
     * it in percpu[].gicr), otherwise looked for in every GICR discovery
     * range (asm/gic_redist.h). QEMU gives no GICC base. */
    for (i = 0; i < ncpus; i++) {
        struct percpu *pc = &percpu[i];
        if (!pc->gicr)
            pc->gicr = gic_redist_find(cfg->range, cfg->nranges, pc->mpidr, typer_read);
        found += pc->gicr != 0;
    }
    return found == (int)ncpus ? 0 : -2;
}

int gic3_cpu_init(struct percpu *pc)
{
    uint64_t r = pc->gicr;
    if (!r)
        return -1;
    /* Wake the redistributor: clear ProcessorSleep, then wait until
     * ChildrenAsleep reads 0 (IHI 0069, GICR_WAKER, "Redistributor
     * Wake Register", and the power management chapter). */
    wr32(r + GICR_WAKER, rd32(r + GICR_WAKER) & ~GICR_WAKER_PSLEEP);
    uint64_t deadline = ticks() + tick_freq() / 10;
    while (rd32(r + GICR_WAKER) & GICR_WAKER_CASLEEP)
        if (ticks() > deadline)
            return -2;
    /* our two SGIs: Non-secure Group 1 (IGROUPR0=1, IGRPMODR0=0), high
     * priority so the BSP can mask firmware interrupts with PMR, enabled */
    uint32_t bits = SGI_BITS;
    wr32(r + GICR_IGROUPR0, rd32(r + GICR_IGROUPR0) | bits);
    wr32(r + GICR_IGRPMODR0, rd32(r + GICR_IGRPMODR0) & ~bits);
    wr8(r + GICR_IPRIORITYR + SGI_CMD, SGI_PRIO);
    wr8(r + GICR_IPRIORITYR + SGI_PING, SGI_PRIO);
    wr32(r + GICR_ICPENDR0, bits);
    wr32(r + GICR_ISENABLER0, bits);
    dsb_sy(); /* the MMIO writes reach the GIC before we rely on them */
    /* and read back: a Secure SGI ignores all of it (gic_sgi.c) */
    struct gic_sgi_regs rb = { "GICR_IGROUPR0", "GICR_IGRPMODR0", "GICR_ISENABLER0", rd32(r + GICR_IGROUPR0),
                               rd32(r + GICR_IGRPMODR0), rd32(r + GICR_ISENABLER0) };
    int bad = gic_sgi_readback(&rb, &gic_sgi_check[pc->idx]);
    if (bad)
        return bad;

    /* CPU interface: system registers on (ICC_SRE_ELx.SRE; at EL2 also
     * Enable, which lets EL1 use them too), then priority mask and Group 1
     * enable (IHI 0069: ICC_SRE_EL1/EL2, ICC_PMR_EL1, ICC_IGRPEN1_EL1).
     * The ISB makes the SRE change visible before any other ICC_ access. */
    if (pc->el == 2)
        write_sysreg(ICC_SRE_EL2, read_sysreg(ICC_SRE_EL2) | 0xf);
    else
        write_sysreg(ICC_SRE_EL1, read_sysreg(ICC_SRE_EL1) | 0x7);
    __asm__ volatile("isb" ::: "memory");
    /* EOImode 0 (bit 1; it resets UNKNOWN) on every CPU, the BSP too: an EOI
     * also deactivates, which the IRQ handler relies on (arch/arm64/irq.c),
     * and which the firmware's own GIC driver, which writes EOIR alone, needs
     * as well. At EL2 too: ICC_CTLR_EL1's EOImode is the non-secure EL1 and
     * EL2 one. */
    write_sysreg(ICC_CTLR_EL1, read_sysreg(ICC_CTLR_EL1) & ~ICC_CTLR_EOIMODE);
    if (pc->idx != 0) { /* the BSP keeps the firmware's PMR and enables */
        write_sysreg(ICC_PMR_EL1, 0xf0);
        write_sysreg(ICC_BPR1_EL1, 0);
        write_sysreg(ICC_IGRPEN1_EL1, 1);
    }
    __asm__ volatile("isb" ::: "memory");
    /* Aff0 above 15: ICC_SGI1R_EL1's TargetList covers 16 Aff0 values, RS
     * picks which 16; the CPU interfaces and the distributor must both
     * support it (ICC_CTLR_EL1.RSS, GICD_TYPER.RSS), or no SGI reaches this
     * CPU: it runs commands by polling, and bring-up names it unreachable */
    return gic_rss_check(pc->mpidr, gicd_rss, (read_sysreg(ICC_CTLR_EL1) & ICC_CTLR_RSS) != 0);
}

/*
 * ICC_SGI1R_EL1 (IHI 0069, "Interrupt Controller Software Generated
 * Interrupt Group 1 Register"): Aff3 [55:48], RS [47:44] (which group of
 * 16 Aff0 values TargetList means), Aff2 [39:32], INTID [27:24], Aff1
 * [23:16], TargetList [15:0].
 */
/* everything of an ICC_SGI1R_EL1 value but TargetList: the CPU's cluster
 * (Aff3.Aff2.Aff1), its RS group and the INTID */
static uint64_t sgi1r_cluster(uint64_t mpidr, unsigned intid)
{
    return (((mpidr >> 32) & 0xff) << 48) | (((mpidr & 0xff) >> 4) << 44) | (((mpidr >> 16) & 0xff) << 32) |
           ((uint64_t)(intid & 0xf) << 24) | (((mpidr >> 8) & 0xff) << 16);
}

static void sgi1r_write(uint64_t v)
{
    /* A system-register write is not a memory access: DMB does not order it
     * after our mailbox stores, DSB does (the receiver may read the mailbox
     * as soon as the SGI arrives). */
    dsb_ishst();
    write_sysreg(ICC_SGI1R_EL1, v);
    __asm__ volatile("isb" ::: "memory");
}

void gic3_send_sgi(uint64_t mpidr, unsigned intid)
{
    uint64_t v = sgi1r_cluster(mpidr, intid) | (1ull << (mpidr & 0xf));
    sgi1r_write(v);
}

/* Targets that share a cluster and RS group share one write (Linux's
 * gic_ipi_send_mask does the same); the list is walked once per cluster,
 * at most n writes for n CPUs. */
unsigned gic3_send_sgi_list(const uint64_t *mpidr, unsigned n, unsigned intid)
{
    uint64_t sent[MAX_CPUS / 64] = { 0 }; /* bit i: mpidr[i] already in a write */
    unsigned writes = 0, i, j;
    if (n > MAX_CPUS)
        n = MAX_CPUS;
    for (i = 0; i < n; i++) {
        uint64_t key, v;
        if (sent[i / 64] & (1ull << (i % 64)))
            continue;
        key = sgi1r_cluster(mpidr[i], intid);
        v = key;
        for (j = i; j < n; j++)
            if (!(sent[j / 64] & (1ull << (j % 64))) && sgi1r_cluster(mpidr[j], intid) == key) {
                v |= 1ull << (mpidr[j] & 0xf);
                sent[j / 64] |= 1ull << (j % 64);
            }
        sgi1r_write(v);
        writes++;
    }
    return writes;
}

/* IRM [40] = 1: "interrupts routed to all PEs in the system, excluding
 * self"; the affinity fields and TargetList are ignored */
void gic3_send_sgi_others(unsigned intid)
{
    sgi1r_write((1ull << 40) | ((uint64_t)(intid & 0xf) << 24));
}

uint32_t gic3_ack(void)
{
    uint32_t v = (uint32_t)read_sysreg(ICC_IAR1_EL1) & 0xffffff;
    dsb_sy(); /* the acknowledge completes before we act on the interrupt */
    return v;
}

void gic3_eoi(uint32_t intid)
{
    write_sysreg(ICC_EOIR1_EL1, intid);
    __asm__ volatile("isb" ::: "memory");
}
