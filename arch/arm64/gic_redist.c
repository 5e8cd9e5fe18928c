/* A CPU's GICv3 redistributor over every discovery range: see asm/gic_redist.h. */
#include "asm/gic_redist.h"

#include "core/mutant.h"

uint32_t gic_redist_aff(uint64_t mpidr)
{
    return (uint32_t)((mpidr & 0xffffff) | (((mpidr >> 32) & 0xff) << 24));
}

uint64_t gic_redist_find(const struct gic_redist_range *range, unsigned n, uint64_t mpidr,
                         uint64_t (*read64)(uint64_t addr))
{
    uint32_t aff = gic_redist_aff(mpidr);
    unsigned r;
    for (r = 0; r < n; r++) {
        uint64_t a = range[r].base, end = range[r].base + range[r].len;
        /* every frame is read within the range's length; Last ends the range early */
        while (a && a < end) {
            uint64_t typer = read64(a + GICR_TYPER);
            if ((uint32_t)(typer >> 32) == aff)
                return a;
            if (typer & GICR_TYPER_LAST)
                break;
            a += (typer & GICR_TYPER_VLPIS) ? 0x40000 : 0x20000;
        }
        if (MUTANT(a64_gicr_first_range_only))
            break;
    }
    return 0;
}
