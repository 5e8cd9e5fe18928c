/* The GIC generation chosen at run time: see asm/gic.h. */
#include "asm/gic.h"
#include "asm/sysreg.h"

unsigned gic_version;

int gic_init(const struct gic_config *cfg)
{
    gic_dist_save(cfg); /* before either generation touches it: the hand-back's (gic_pm.c) */
    /* GICv4 is a GICv3 for SGIs; GICv1 (no ACPI GICv1 server we know of)
     * and unknown values are refused rather than guessed */
    if (cfg->version == 3 || cfg->version == 4) {
        gic_version = 3;
        return gic3_init(cfg);
    }
    if (cfg->version == 2) {
        gic_version = 2;
        return gic2_init(cfg);
    }
    return -4;
}

int gic_cpu_init(struct percpu *pc)
{
    gic_cpu_save(pc);
    return gic_version == 2 ? gic2_cpu_init(pc) : gic3_cpu_init(pc);
}

void gic_send_sgi(uint64_t mpidr, unsigned intid)
{
    if (gic_version == 2)
        gic2_send_sgi(mpidr, intid);
    else
        gic3_send_sgi(mpidr, intid);
}

unsigned gic_send_sgi_list(const uint64_t *mpidr, unsigned n, unsigned intid)
{
    return gic_version == 2 ? gic2_send_sgi_list(mpidr, n, intid) : gic3_send_sgi_list(mpidr, n, intid);
}

void gic_send_sgi_others(unsigned intid)
{
    if (gic_version == 2)
        gic2_send_sgi_others(intid);
    else
        gic3_send_sgi_others(intid);
}

uint32_t gic_ack(void)
{
    return gic_version == 2 ? gic2_ack() : gic3_ack();
}

void gic_eoi(uint32_t intid)
{
    if (gic_version == 2)
        gic2_eoi(intid);
    else
        gic3_eoi(intid);
}

uint32_t gic_pmr(void)
{
    return gic_version == 2 ? gic2_pmr() : (uint32_t)read_sysreg(ICC_PMR_EL1);
}

void gic_set_pmr(uint32_t pmr)
{
    if (gic_version == 2) {
        gic2_set_pmr(pmr);
        return;
    }
    write_sysreg(ICC_PMR_EL1, pmr);
    __asm__ volatile("isb" ::: "memory");
}
