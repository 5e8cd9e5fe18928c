/*
 * What the tool changed in the GIC, saved before it changes it and given back at the end of
 * the run (asm/gic.h, "hand-back"): a later run of the app, or an OS booted afterwards, must
 * find each CPU's SGIs, CPU interface and redistributor, and the distributor's enables, as
 * the firmware left them. gic_init and gic_cpu_init (gic.c) call the saves; the restores run
 * last, each CPU for itself (the SGI and CPU-interface registers are the CPU's own: banked
 * on GICv2, system registers or its redistributor on GICv3), the distributor on the BSP.
 *
 * All 16 SGIs are saved and given back, not only the ones the tool uses: which those are is
 * asm/gic.h's business, and a wider restore is still exact.
 */
#include <stdbool.h>

#include "asm/gic.h"
#include "asm/barrier.h"
#include "asm/timer.h"

/* Offsets both generations share, and those of each (IHI 0069 GICv3, IHI 0048B GICv2) */
#define DIST_CTLR 0x0000
#define V3_CTLR_RWP (1u << 31)     /* GICD_CTLR / GICR_CTLR (bit 3 there): a write still pending */
#define V3_CTLR_GRP1 (1u << 1)     /* GICD_CTLR.EnableGrp1(NS), the one gic3_init may set */
#define V3R_CTLR_RWP (1u << 3)
#define V3R_WAKER 0x0014
#define V3R_WAKER_PSLEEP (1u << 1)
#define V3R_WAKER_CASLEEP (1u << 2)
#define V3R_SGI_FRAME 0x10000
#define V3R_IGROUPR0 (V3R_SGI_FRAME + 0x0080)
#define V3R_ISENABLER0 (V3R_SGI_FRAME + 0x0100)
#define V3R_ICENABLER0 (V3R_SGI_FRAME + 0x0180)
#define V3R_ICPENDR0 (V3R_SGI_FRAME + 0x0280)
#define V3R_IPRIORITYR (V3R_SGI_FRAME + 0x0400)
#define V3R_IGRPMODR0 (V3R_SGI_FRAME + 0x0d00)
#define V2_CTLR_ENABLE 3u          /* GICD_CTLR's enables, the ones gic2_init may set */
#define V2D_ISENABLER0 0x100
#define V2D_ICENABLER0 0x180
#define V2D_ICPENDR0 0x280
#define V2D_IPRIORITYR 0x400
#define V2C_CTLR 0x0000
#define V2C_PMR 0x0004
#define V2C_BPR 0x0008
#define ALL_SGI_BITS 0xffffu /* every SGI: the hand-back restores all 16 */
#define SGI_PRIO_WORDS 4           /* 16 one-byte priorities */
#define RESTORE_WAIT_DIV 10        /* 100 ms for a write or a redistributor to settle */

struct gic_saved_cpu {
    bool saved;
    uint32_t group, grpmod, enabled, prio[SGI_PRIO_WORDS], waker;
    uint64_t sre, pmr, bpr, ctlr, grpen1; /* GICv3 system registers; GICv2: GICC_CTLR, PMR, BPR */
};

static uint64_t gicd, gicc;
static uint32_t dist_ctlr;
static bool dist_saved;
static struct gic_saved_cpu saved[MAX_CPUS]; /* each CPU writes and reads its own */

static inline uint32_t rd32(uint64_t a) { return *(volatile uint32_t *)a; }
static inline void wr32(uint64_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

/* until (reg & bit) == want, 100 ms at most; false on the deadline */
static bool wait_bit(uint64_t reg, uint32_t bit, uint32_t want)
{
    uint64_t deadline = ticks() + tick_freq() / RESTORE_WAIT_DIV;
    while ((rd32(reg) & bit) != want)
        if (ticks() > deadline)
            return false;
    return true;
}

void gic_dist_save(const struct gic_config *cfg)
{
    gicd = cfg->gicd;
    gicc = cfg->gicc;
    dist_saved = gicd != 0;
    if (dist_saved)
        dist_ctlr = rd32(gicd + DIST_CTLR);
}

int gic_dist_restore(void)
{
    uint32_t mask = gic_version == 2 ? V2_CTLR_ENABLE : V3_CTLR_GRP1, cur;
    if (!dist_saved)
        return 0;
    cur = rd32(gicd + DIST_CTLR);
    if ((cur & mask) == (dist_ctlr & mask))
        return 0;
    wr32(gicd + DIST_CTLR, (cur & ~mask) | (dist_ctlr & mask));
    dsb_sy();
    if (gic_version == 2)
        return (rd32(gicd + DIST_CTLR) & mask) == (dist_ctlr & mask) ? 0 : -1;
    return wait_bit(gicd + DIST_CTLR, V3_CTLR_RWP, 0) ? 0 : -1;
}

/* The SGIs' group, enables and priorities of the CPU's redistributor (v3) or banked
 * distributor registers (v2): at `base`, with the generation's offsets */
static void save_sgis(struct gic_saved_cpu *s, uint64_t enabler, uint64_t prio)
{
    s->enabled = rd32(enabler) & ALL_SGI_BITS;
    for (unsigned i = 0; i < SGI_PRIO_WORDS; i++)
        s->prio[i] = rd32(prio + 4 * i);
}

static void restore_sgis(const struct gic_saved_cpu *s, uint64_t enabler, uint64_t disabler, uint64_t unpend,
                         uint64_t prio)
{
    /* an SGI the firmware had off was the tool's: off again, nothing left pending */
    wr32(disabler, ~s->enabled & ALL_SGI_BITS);
    wr32(enabler, s->enabled);
    wr32(unpend, ~s->enabled & ALL_SGI_BITS);
    for (unsigned i = 0; i < SGI_PRIO_WORDS; i++)
        wr32(prio + 4 * i, s->prio[i]);
}

void gic_cpu_save(struct percpu *pc)
{
    struct gic_saved_cpu *s = &saved[pc->idx];
    *s = (struct gic_saved_cpu){ 0 };
    if (gic_version == 2) {
        save_sgis(s, gicd + V2D_ISENABLER0, gicd + V2D_IPRIORITYR);
        s->ctlr = rd32(gicc + V2C_CTLR);
        s->pmr = rd32(gicc + V2C_PMR);
        s->bpr = rd32(gicc + V2C_BPR);
        s->saved = gicc != 0;
        return;
    }
    if (!pc->gicr)
        return;
    s->waker = rd32(pc->gicr + V3R_WAKER);
    s->group = rd32(pc->gicr + V3R_IGROUPR0) & ALL_SGI_BITS;
    s->grpmod = rd32(pc->gicr + V3R_IGRPMODR0) & ALL_SGI_BITS;
    save_sgis(s, pc->gicr + V3R_ISENABLER0, pc->gicr + V3R_IPRIORITYR);
    s->sre = pc->el == 2 ? read_sysreg(ICC_SRE_EL2) : read_sysreg(ICC_SRE_EL1);
    /* with SRE clear the other ICC_ registers are not accessible (they UNDEF): the
     * firmware never used them, and their reset values are what goes back */
    if (s->sre & 1) {
        s->pmr = read_sysreg(ICC_PMR_EL1);
        s->bpr = read_sysreg(ICC_BPR1_EL1);
        s->ctlr = read_sysreg(ICC_CTLR_EL1);
        s->grpen1 = read_sysreg(ICC_IGRPEN1_EL1);
    }
    s->saved = true;
}

static int gic3_cpu_restore(struct percpu *pc, const struct gic_saved_cpu *s)
{
    uint64_t r = pc->gicr;
    int rc = 0;
    if (pc->idx != 0) { /* the BSP's CPU interface was never changed (gic_v3.c) */
        /* Group 1 off first, so nothing is signalled while the rest goes back */
        write_sysreg(ICC_IGRPEN1_EL1, s->grpen1);
        isb();
        write_sysreg(ICC_PMR_EL1, s->pmr);
        write_sysreg(ICC_BPR1_EL1, s->bpr);
        write_sysreg(ICC_CTLR_EL1, s->ctlr);
        isb();
    }
    restore_sgis(s, r + V3R_ISENABLER0, r + V3R_ICENABLER0, r + V3R_ICPENDR0, r + V3R_IPRIORITYR);
    wr32(r + V3R_IGROUPR0, (rd32(r + V3R_IGROUPR0) & ~ALL_SGI_BITS) | s->group);
    wr32(r + V3R_IGRPMODR0, (rd32(r + V3R_IGRPMODR0) & ~ALL_SGI_BITS) | s->grpmod);
    dsb_sy();
    if (!wait_bit(r, V3R_CTLR_RWP, 0)) /* GICR_CTLR.RWP: the disables have taken effect */
        rc = -1;
    /* the system-register interface last: no ICC_ access after this on a CPU that had it off */
    if (pc->el == 2)
        write_sysreg(ICC_SRE_EL2, s->sre);
    else
        write_sysreg(ICC_SRE_EL1, s->sre);
    isb();
    /* a redistributor the firmware left asleep goes back to sleep: ProcessorSleep, then
     * ChildrenAsleep (IHI 0069, GICR_WAKER; Linux's gic_enable_redist(false) on CPU down) */
    if (pc->idx != 0 && (s->waker & V3R_WAKER_PSLEEP)) {
        wr32(r + V3R_WAKER, rd32(r + V3R_WAKER) | V3R_WAKER_PSLEEP);
        if (!wait_bit(r + V3R_WAKER, V3R_WAKER_CASLEEP, V3R_WAKER_CASLEEP))
            rc = -1;
    }
    return rc;
}

static int gic2_cpu_restore(struct percpu *pc, const struct gic_saved_cpu *s)
{
    if (pc->idx != 0) {
        wr32(gicc + V2C_CTLR, (uint32_t)s->ctlr);
        wr32(gicc + V2C_PMR, (uint32_t)s->pmr);
        wr32(gicc + V2C_BPR, (uint32_t)s->bpr);
    }
    restore_sgis(s, gicd + V2D_ISENABLER0, gicd + V2D_ICENABLER0, gicd + V2D_ICPENDR0, gicd + V2D_IPRIORITYR);
    dsb_sy();
    return 0;
}

int gic_cpu_restore(struct percpu *pc)
{
    const struct gic_saved_cpu *s = &saved[pc->idx];
    if (!s->saved)
        return 0;
    return gic_version == 2 ? gic2_cpu_restore(pc, s) : gic3_cpu_restore(pc, s);
}
