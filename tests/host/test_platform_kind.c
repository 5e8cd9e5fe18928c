/*
 * What the aarch64 app runs on (core/run/platform_kind.c), from the evidence it gathers:
 * KVM's vendor hypervisor UID makes a virtual machine whatever the firmware's tables name
 * (QEMU with KVM names itself QEMU too), QEMU named without a hypervisor's UID is TCG
 * (emulated), PSCI through HVC at EL1 with no other evidence a virtual machine, and a machine
 * otherwise. The mutant platform_uid_ignored (a KVM guest taken for TCG) fails
 * test_kvm_uid_is_virtualised (tests/sim/mutants.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/run/platform_kind.h"

static void test_kvm_uid_is_virtualised(void **state)
{
    struct platform_evidence ev = { .el = 1, .psci_hvc = true, .hyp_uid_asked = true, .hyp_uid_answered = true,
                                    .hyp_uid = { 0xb66fb428u, 0xe911c52eu, 0x564bcaa9u, 0x743a004du },
                                    .sm_manufacturer = "QEMU", .acpi_oem_id = "BOCHS " };
    struct platform_verdict v;
    (void)state;
    platform_classify(&ev, &v);
    assert_int_equal(v.kind, PLATFORM_VIRTUALISED);
    assert_string_equal(v.hypervisor, "KVM");
    assert_non_null(strstr(v.evidence, "KVM's"));
    ev.hyp_uid[3] ^= 1; /* another hypervisor's UID: still a virtual machine, unnamed */
    platform_classify(&ev, &v);
    assert_int_equal(v.kind, PLATFORM_VIRTUALISED);
    assert_string_equal(v.hypervisor, "unnamed");
}

static void test_qemu_without_uid_is_emulated(void **state)
{
    struct platform_evidence ev = { .el = 1, .psci_hvc = true, .sm_manufacturer = "QEMU", .acpi_oem_id = "BOCHS " };
    struct platform_verdict v;
    (void)state;
    platform_classify(&ev, &v);
    assert_int_equal(v.kind, PLATFORM_EMULATED);
    assert_string_equal(v.hypervisor, "QEMU");
    assert_non_null(strstr(v.evidence, "no SMCCC 1.1 over HVC"));
    ev.sm_manufacturer = ""; /* the ACPI OEM ID alone names it too */
    platform_classify(&ev, &v);
    assert_int_equal(v.kind, PLATFORM_EMULATED);
    assert_string_equal(platform_kind_name(v.kind), "emulated");
}

static void test_hvc_at_el1_is_virtualised(void **state)
{
    struct platform_evidence ev = { .el = 1, .psci_hvc = true, .sm_manufacturer = "Ampere(R)", .acpi_oem_id = "Ampere" };
    struct platform_verdict v;
    (void)state;
    platform_classify(&ev, &v);
    assert_int_equal(v.kind, PLATFORM_VIRTUALISED);
    ev.psci_hvc = false; /* a machine's firmware: PSCI through SMC */
    platform_classify(&ev, &v);
    assert_int_equal(v.kind, PLATFORM_BARE_METAL);
    assert_null(v.hypervisor);
    ev.el = 2; /* the app at EL2: HVC would trap to itself, SMC it is */
    platform_classify(&ev, &v);
    assert_int_equal(v.kind, PLATFORM_BARE_METAL);
    assert_string_equal(platform_kind_name(v.kind), "bare_metal");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kvm_uid_is_virtualised),
        cmocka_unit_test(test_qemu_without_uid_is_emulated),
        cmocka_unit_test(test_hvc_at_el1_is_virtualised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
