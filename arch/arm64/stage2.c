/* The tool's stage-2 context on the target: see asm/stage2.h. */
#include "asm/stage2.h"

#include "asm/barrier.h"
#include "asm/sysreg.h"

/* the app's image is identity mapped (UEFI): this array's address is its physical address */
static uint64_t s2_root[512] __attribute__((aligned(4096)));

uint64_t stage2_root_pa(void)
{
    unsigned i;
    /* all invalid: a walk (none happens with HCR_EL2.VM 0) would find nothing mapped */
    for (i = 0; i < 512; i++)
        s2_root[i] = 0;
    return (uint64_t)(uintptr_t)s2_root;
}

bool stage2_host_in_el20(void)
{
    uint64_t hcr = read_sysreg(HCR_EL2);
    /* HCR_EL2.E2H [34], TGE [27] */
    return ((hcr >> 34) & 1) && ((hcr >> 27) & 1);
}

void stage2_switch(uint64_t vtcr, uint64_t vttbr, struct stage2_regs *old)
{
    old->vtcr = read_sysreg(VTCR_EL2);
    old->vttbr = read_sysreg(VTTBR_EL2);
    /* VTCR first, as KVM's __load_stage2(): the table's shape before the table */
    write_sysreg(VTCR_EL2, vtcr);
    isb();
    write_sysreg(VTTBR_EL2, vttbr);
    isb();
}
