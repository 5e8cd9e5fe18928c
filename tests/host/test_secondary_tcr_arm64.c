/*
 * The TCR the aarch64 app's secondaries load (arch/arm64/include/asm/secondary_tcr.h): they
 * must never walk TTBR1 (UNKNOWN out of PSCI CPU_ON; at EL1 they take the BSP's for its
 * ASID, whose tables the firmware may change unmaintained), so wherever their regime has a
 * second VA range (EL1, or EL2 with HCR_EL2.E2H) EPD1 must be set whatever the firmware left
 * in the BSP's TCR, and every other bit must be the BSP's. Without E2H, TCR_EL2 has one range
 * and bit 23 is RES1, not EPD1: the BSP's TCR goes on whole. QEMU's AAVMF sets EPD1
 * itself, and the model starts its CPUs as host threads, not through boot_params: no boot
 * shows the case. The mutant a64_secondary_ttbr1_walks (208) fails this test
 * (tests/sim/mutants.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "asm/secondary_tcr.h"

/* a firmware's TCR_EL1 with EPD1 clear: T0SZ and T1SZ 16, 4 KiB granules, inner shareable,
 * WB walks, ASID from TTBR0 (A1 0), IPS 48 bits, 16-bit ASIDs (AS) */
#define FW_TCR_EPD1_CLEAR 0x00000015b5103510ull

static void test_el1_secondaries_never_walk_ttbr1(void **state)
{
    (void)state;
    assert_int_equal(FW_TCR_EPD1_CLEAR & TCR_EPD1, 0);
    assert_int_equal(secondary_tcr(FW_TCR_EPD1_CLEAR, 1, 0), FW_TCR_EPD1_CLEAR | TCR_EPD1);
    /* already set (AAVMF): unchanged */
    assert_int_equal(secondary_tcr(FW_TCR_EPD1_CLEAR | TCR_EPD1, 1, 0), FW_TCR_EPD1_CLEAR | TCR_EPD1);
}

static void test_el2_epd1_only_with_e2h(void **state)
{
    /* TCR_EL2 without E2H (T0SZ 16, WB walks, inner shareable, PS 48 bits, bits 31 and 23
     * RES1): one VA range, bit 23 not EPD1; the BSP's TCR whole */
    const uint64_t tcr_el2 = 0x80853510ull;
    (void)state;
    assert_int_equal(secondary_tcr(tcr_el2, 2, 0), tcr_el2);
    /* E2H: the EL2&0 regime has TTBR1_EL2, and EPD1 where TCR_EL1 has it */
    assert_int_equal(secondary_tcr(FW_TCR_EPD1_CLEAR, 2, HCR_E2H), FW_TCR_EPD1_CLEAR | TCR_EPD1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_el1_secondaries_never_walk_ttbr1),
        cmocka_unit_test(test_el2_epd1_only_with_e2h),
    };
    return cmocka_run_group_tests_name("the aarch64 secondaries' TCR", tests, NULL, NULL);
}
