/*
 * Which IPI mode Linux would pick (core/machine/linux_apic.c, issue 21) on the
 * inputs a report records: x2APIC with interrupt remapping is cluster mode
 * unless the FADT forces physical destinations; without remapping Linux
 * turns x2APIC off on bare metal (physflat) and runs it physical under KVM.
 * tests/sim/mutants.sh builds this file with linux_apic_ignores_fadt and
 * expects test_fadt_physical_flag_forces_x2apic_phys to fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/machine/linux_apic.h"
#include "core/lib/mem.h"
#include "core/run/method.h"
#include "sim/hostmem.h"

/* A 2-socket Intel server: x2APIC, VT-d with interrupt remapping, FADT 6.x, 112 CPUs. */
static struct linux_apic_inputs server(void)
{
    struct linux_apic_inputs in;
    memset(&in, 0, sizeof(in));
    in.cpu_x2apic = true;
    in.firmware_x2apic = true;
    in.has_fadt = true;
    in.fadt_revision = 6;
    in.has_dmar = true;
    in.dmar_flags = DMAR_INTR_REMAP;
    in.cpus = 112;
    return in;
}

static void expect_mode(const struct linux_apic_inputs *in, const char *want)
{
    char reason[200];
    const char *got = linux_apic_mode(in, reason, sizeof(reason));
    if (strcmp(got, want) != 0)
        fail_msg("Linux would run %s, got %s (%s)", want, got, reason);
    assert_true(reason[0] != 0);
}

static void test_x2apic_with_remapping_is_cluster_mode(void **state)
{
    struct linux_apic_inputs in = server();
    (void)state;
    expect_mode(&in, "x2apic_cluster");
    in.has_dmar = false;
    in.has_ivrs = true; /* AMD's IOMMU */
    expect_mode(&in, "x2apic_cluster");
}

static void test_fadt_physical_flag_forces_x2apic_phys(void **state)
{
    struct linux_apic_inputs in = server();
    (void)state;
    in.fadt_flags = FADT_APIC_PHYSICAL;
    expect_mode(&in, "x2apic_phys");
    in.fadt_revision = 1; /* the flag is read from revision 2 on only */
    expect_mode(&in, "x2apic_cluster");
}

static void test_without_remapping(void **state)
{
    struct linux_apic_inputs in = server();
    (void)state;
    in.dmar_flags = DMAR_INTR_REMAP | DMAR_X2APIC_OPT_OUT;
    expect_mode(&in, "physflat"); /* bare metal: x2APIC turned off */
    in.has_dmar = false;
    in.hypervisor_kvm = true;
    expect_mode(&in, "x2apic_phys");
    in.cpu_x2apic = false;
    expect_mode(&in, "physflat");
}

/*
 * Issue 32: the shootdown experiments send IPIs the way Linux would on the
 * run's machine (method_linux_cluster_ipis(), core/exp/common.h
 * exp_linux_ipis): cluster mode where Linux picks x2apic_cluster and the APIC
 * runs in x2APIC mode; physical where Linux turns x2APIC off or the tool runs
 * xAPIC. Mutant cluster_only_seq_conc (physical everywhere) fails here.
 */
static void test_shootdowns_send_ipis_as_linux(void **state)
{
    struct run *r = mem_zalloc(sizeof(*r));
    char why[200];
    (void)state;
    assert_non_null(r);
    r->cpu.x2apic = true;
    r->firmware_x2apic = true;
    r->fw.acpi.has_fadt = true;
    r->fw.acpi.fadt_revision = 6;
    r->fw.acpi.has_dmar = true;
    r->fw.acpi.dmar_flags = DMAR_INTR_REMAP;
    r->topo.count = 112;
    r->method.apic_mode = "x2apic";
    assert_string_equal(method_linux_ipi_mode(r, why, sizeof(why)), "x2apic_cluster");
    assert_true(method_linux_cluster_ipis(r));
    r->method.apic_mode = "xapic"; /* no logical x2APIC destinations to send to */
    assert_false(method_linux_cluster_ipis(r));
    r->method.apic_mode = "x2apic";
    r->fw.acpi.has_dmar = false; /* no remapping: Linux runs physflat */
    assert_false(method_linux_cluster_ipis(r));
    mem_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x2apic_with_remapping_is_cluster_mode),
        cmocka_unit_test(test_fadt_physical_flag_forces_x2apic_phys),
        cmocka_unit_test(test_without_remapping),
        cmocka_unit_test(test_shootdowns_send_ipis_as_linux),
    };
    host_init(); /* mem_zalloc() */
    return cmocka_run_group_tests_name("linux_apic", tests, NULL, NULL);
}
