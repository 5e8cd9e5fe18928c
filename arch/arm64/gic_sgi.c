/*
 * The tool's SGIs as the GIC took them (asm/gic.h): plain C on the values
 * gic_cpu_init read back, so the GICv3 and GICv2 drivers and the host
 * model's GIC (sim/arm64/host_gic.c) decide alike.
 *
 * Why read back: with two security states a non-secure write to a Secure
 * interrupt's group, group modifier or enable bit is ignored (IHI 0069,
 * "GICR_IGROUPR0": RAZ/WI to Non-secure accesses for Secure interrupts;
 * IHI 0048B likewise for GICD_ISENABLERn). Nothing faults: the SGI is
 * simply never delivered, and without this check every secondary would be
 * recorded as having stopped answering instead of the one cause.
 */
#include "asm/gic.h"
#include "core/mutant.h"

struct gic_security gic_security;
struct gic_sgi_check gic_sgi_check[MAX_CPUS];

static int refuse(struct gic_sgi_check *out, const char *reg, uint32_t value, uint32_t want)
{
    if (MUTANT(arm_sgi_readback_ignored))
        return 0;
    out->reg = reg;
    out->value = value;
    out->want = want;
    return -3;
}

/* plain C too, so the GICv3 driver and the model's GIC decide alike */
int gic_rss_check(uint64_t mpidr, bool gicd_rss, bool icc_rss)
{
    if (MUTANT(a64_rss_unchecked))
        return 0;
    if (MUTANT(a64_rss_icc_ignored))
        icc_rss = true;
    return (mpidr & 0xff) > 15 && !(gicd_rss && icc_rss) ? GICV3_NO_RSS : 0;
}

int gic_sgi_readback(const struct gic_sgi_regs *r, struct gic_sgi_check *out)
{
    *out = (struct gic_sgi_check){ 0 };
    /* Group 1 (IGROUPR0 = 1) and, where the modifier exists, Non-secure
     * Group 1 rather than Secure Group 1 (IGRPMODR0 = 0) */
    if (r->igroupr && (r->igroupr0 & SGI_BITS) != SGI_BITS)
        return refuse(out, r->igroupr, r->igroupr0, SGI_BITS);
    if (r->igrpmodr && (r->igrpmodr0 & SGI_BITS) != 0)
        return refuse(out, r->igrpmodr, r->igrpmodr0, 0);
    if ((r->isenabler0 & SGI_BITS) != SGI_BITS)
        return refuse(out, r->isenabler, r->isenabler0, SGI_BITS);
    return 0;
}
