/*
 * The check before the aarch64 app's first CPU_ON (arch/arm64/psci_fn.c psci_smp_check)
 * against PSCI firmwares that lack what the bring-up and the hand-back need: no PSCI
 * compliant flag, PSCI 0.1, PSCI_VERSION answering NOT_SUPPORTED in w0 with garbage above
 * it (SMCCC leaves x0's upper half unknown for an SMC32 call), and PSCI 1.x whose
 * PSCI_FEATURES denies CPU_ON, CPU_OFF or AFFINITY_INFO. Each must refuse, say why, and
 * call no function the firmware lacks; PSCI 0.2 (the three mandatory, no PSCI_FEATURES)
 * and 1.1 pass. tests/sim/mutants.sh builds this with psci_features_unchecked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "asm/psci.h"

/* the firmware this test plays: PSCI_VERSION's raw x0, the functions PSCI_FEATURES names */
static struct {
    uint64_t version_x0;
    bool cpu_on, cpu_off, affinity_info;
    unsigned calls[4]; /* PSCI_FEATURES, CPU_ON, CPU_OFF, AFFINITY_INFO made */
} fw;

int64_t psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    (void)a2;
    (void)a3;
    switch (fn) {
    case PSCI_VERSION:
        return (int64_t)fw.version_x0;
    case PSCI_FEATURES:
        fw.calls[0]++;
        if ((int32_t)(uint32_t)fw.version_x0 < PSCI_VER(1, 0))
            return PSCI_NOT_SUPPORTED;
        return (a1 == PSCI_CPU_ON_64 && fw.cpu_on) || (a1 == PSCI_CPU_OFF && fw.cpu_off) ||
                       (a1 == PSCI_AFFINITY_INFO_64 && fw.affinity_info)
                   ? 0
                   : PSCI_NOT_SUPPORTED;
    case PSCI_CPU_ON_64: fw.calls[1]++; break;
    case PSCI_CPU_OFF: fw.calls[2]++; break;
    case PSCI_AFFINITY_INFO_64: fw.calls[3]++; break;
    }
    return PSCI_NOT_SUPPORTED;
}

static void firmware(uint64_t version_x0, bool cpu_on, bool cpu_off, bool affinity_info)
{
    memset(&fw, 0, sizeof(fw));
    fw.version_x0 = version_x0;
    fw.cpu_on = cpu_on;
    fw.cpu_off = cpu_off;
    fw.affinity_info = affinity_info;
}

/* the check's answer; no CPU_ON, CPU_OFF or AFFINITY_INFO is ever made by it */
static bool check(bool fadt, struct psci_caps *caps, char *why)
{
    bool ok = psci_smp_check(fadt, caps, why, 120);
    assert_int_equal(fw.calls[1] + fw.calls[2] + fw.calls[3], 0);
    return ok;
}

static void test_psci_not_compliant_asks_nothing(void **state)
{
    struct psci_caps caps;
    char why[120];
    (void)state;
    firmware(PSCI_VER(1, 1), true, true, true);
    assert_false(check(false, &caps, why));
    assert_non_null(strstr(why, "PSCI compliant"));
    assert_int_equal(fw.calls[0], 0);
}

static void test_psci_0_1_refused(void **state)
{
    struct psci_caps caps;
    char why[120];
    (void)state;
    firmware(PSCI_VER(0, 1), true, true, true);
    assert_false(check(true, &caps, why));
    assert_non_null(strstr(why, "0.2 or later"));
    assert_false(caps.cpu_on);
}

/* NOT_SUPPORTED in w0, the upper half of x0 left as the SMC32 call found it */
static void test_psci_version_error_in_w0_refused(void **state)
{
    struct psci_caps caps;
    char why[120];
    (void)state;
    firmware(0x12345678ffffffffull, true, true, true);
    assert_false(check(true, &caps, why));
    assert_non_null(strstr(why, "NOT_SUPPORTED"));
}

static void test_psci_features_without_cpu_on_refused(void **state)
{
    struct psci_caps caps;
    char why[120];
    (void)state;
    firmware(PSCI_VER(1, 0), false, true, true);
    assert_false(check(true, &caps, why));
    assert_non_null(strstr(why, "CPU_ON is not implemented"));
    assert_false(caps.cpu_on);
    firmware(PSCI_VER(1, 1), true, false, true);
    assert_false(check(true, &caps, why));
    assert_non_null(strstr(why, "CPU_OFF"));
    firmware(PSCI_VER(1, 1), true, true, false);
    assert_false(check(true, &caps, why));
    assert_non_null(strstr(why, "AFFINITY_INFO"));
}

static void test_psci_0_2_and_1_1_pass(void **state)
{
    struct psci_caps caps;
    char why[120];
    (void)state;
    /* 0.2 has no PSCI_FEATURES: the three are mandatory there, nothing is asked */
    firmware(PSCI_VER(0, 2), false, false, false);
    assert_true(check(true, &caps, why));
    assert_int_equal(fw.calls[0], 0);
    assert_true(caps.cpu_on && caps.cpu_off && caps.affinity_info);
    firmware(PSCI_VER(1, 1), true, true, true);
    assert_true(check(true, &caps, why));
    assert_int_equal(fw.calls[0], 3);
    assert_string_equal(why, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_psci_not_compliant_asks_nothing),
        cmocka_unit_test(test_psci_0_1_refused),
        cmocka_unit_test(test_psci_version_error_in_w0_refused),
        cmocka_unit_test(test_psci_features_without_cpu_on_refused),
        cmocka_unit_test(test_psci_0_2_and_1_1_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
