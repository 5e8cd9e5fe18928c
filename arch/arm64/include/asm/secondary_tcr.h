/*
 * The TCR a secondary CPU loads from struct boot_params (arch/arm64/entry.S). The app gives
 * a secondary the BSP's MAIR, TCR, TTBR0 and, at EL1, TTBR1 (out of PSCI CPU_ON TTBR1_EL1
 * is UNKNOWN, Arm ARM: no reset value; where the firmware set TCR_EL1.A1 the ASID every
 * entry is tagged with is TTBR1's, and the tool's TLBIs name the BSP's). The BSP's TTBR1
 * tables are the firmware's, which may change them while the app runs and which the
 * secondaries' TLBs would then cache unmaintained: with TCR.EPD1 clear a TLB miss in the
 * upper VA range walks them, and so may a speculative access at any time. EPD1 set makes
 * every such walk a translation fault that fills nothing. The BSP keeps the firmware's TCR
 * and TTBR1 (valid tables, or EPD1 already set: method.tcr_epd1 says which); the
 * secondaries run no code above TTBR0's range, and are turned off at the end, so nothing
 * of theirs needs giving back.
 * TCR_EL2 has EPD1 only with HCR_EL2.E2H (the EL2&0 regime, two VA ranges); without it,
 * one range, and bit 23 is RES1, not EPD1: the BSP's TCR goes on whole.
 * Target: arch/arm64/smp.c; host: tests/host/test_bringup_arm64.c.
 */
#ifndef TLBSCOPE_ARM64_SECONDARY_TCR_H
#define TLBSCOPE_ARM64_SECONDARY_TCR_H

#include <stdint.h>

#include "core/mutant.h"

#define TCR_EPD1 (1ull << 23) /* TCR_EL1.EPD1 (TCR_EL2's with E2H): no walks from TTBR1 */
#define HCR_E2H (1ull << 34)  /* HCR_EL2.E2H: EL2 runs the two-range EL2&0 regime */

/* the TCR for the secondaries from the BSP's `bsp_tcr` at exception level `el` (hcr:
 * HCR_EL2 at EL2, unused at EL1) */
static inline uint64_t secondary_tcr(uint64_t bsp_tcr, unsigned el, uint64_t hcr)
{
    int two_ranges = el == 1 || (hcr & HCR_E2H);
    /* the mutant hands the BSP's TCR on as it is: EPD1 clear where the firmware left it so */
    if (!two_ranges || MUTANT(a64_secondary_ttbr1_walks))
        return bsp_tcr;
    return bsp_tcr | TCR_EPD1;
}

#endif
