/*
 * Sub-NUMA nodes from a real SRAT (issue 32): the Supermicro H8DGU's 2 x
 * Opteron 6172 (Magny-Cours: two 6-core dies per package, each its own
 * proximity domain, so the SRAT has 4 domains for 2 packages; data:
 * ../shared/data/acpi, README there). The CPU table comes from its MADT
 * (24 CPUs, the BSP APIC ID 16), each CPU's node from its SRAT, and the
 * package and core from the APIC ID as CPUID 8000_0008 splits it on that
 * part (4 core bits: packages at APIC IDs 16-27 and 32-43); no L3 is
 * enumerated. The other die of a package is then same_package_other_node,
 * never same_package (mutant snc_class_folded), as the machines of the
 * same shape today (Intel SNC2/4, AMD NPS2/4) are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/firmware/acpi.h"
#include "core/lib/mem.h"
#include "core/lib/msglist.h"
#include "core/machine/cpu_table.h"
#include "tests/host/support_data.h"
#include "tests/host/support_host.h"

#define H8DGU_CPUS 24

static void test_h8dgu_dies_are_nodes_of_one_package(void **state)
{
    struct acpi_numa_map map;
    struct cpu_table t;
    struct msg_list msgs;
    uint32_t per_class[TOPO_CLASS_COUNT] = { 0 }, i, j;
    size_t madt_len, srat_len;
    uint8_t *madt, *srat;
    (void)state;
    memset(&msgs, 0, sizeof(msgs));
    LOAD_SHARED_DATA(madt, madt_len, "acpi/supermicro-h8dgu-apic.bin");
    LOAD_SHARED_DATA(srat, srat_len, "acpi/supermicro-h8dgu-srat.bin");
    assert_int_equal(cpu_table_from_madt(&t, madt, madt_len, 16, 64, &msgs), H8DGU_CPUS);
    assert_true(acpi_numa_map_init(&map, 64));
    assert_true(acpi_numa_map_add_srat(&map, srat, srat_len, &msgs));
    assert_int_equal(map.domains, 4); /* more proximity domains than the 2 packages */
    for (i = 0; i < t.count; i++) {
        t.cpus[i].package = t.cpus[i].apic_id >> 4;
        t.cpus[i].core = t.cpus[i].apic_id & 0xf;
        t.cpus[i].numa_node = acpi_numa_node_of(&map, t.cpus[i].apic_id);
        assert_true(t.cpus[i].numa_node >= 0);
    }
    for (i = 0; i < t.count; i++)
        for (j = 0; j < t.count; j++)
            per_class[cpu_topo_class(&t.cpus[i], &t.cpus[j])]++;
    /* each CPU: 5 more on its die, 6 on the package's other die, 12 in the other package */
    assert_int_equal(per_class[TOPO_SAME_PACKAGE], H8DGU_CPUS * 5);
    assert_int_equal(per_class[TOPO_SAME_PACKAGE_OTHER_NODE], H8DGU_CPUS * 6);
    assert_int_equal(per_class[TOPO_CROSS_NODE], H8DGU_CPUS * 12);
    assert_int_equal(per_class[TOPO_SAME_NODE] + per_class[TOPO_CROSS_PACKAGE] +
                     per_class[TOPO_SMT_SIBLING] + per_class[TOPO_SAME_L3], 0);
    /* the BSP (APIC ID 16, domain 0) and APIC ID 22 (domain 1): one package, two nodes */
    for (i = 0; i < t.count && t.cpus[i].apic_id != 22; i++)
        ;
    assert_true(i < t.count);
    assert_int_equal(cpu_topo_class(&t.cpus[0], &t.cpus[i]), TOPO_SAME_PACKAGE_OTHER_NODE);
    acpi_numa_map_release(&map);
    mem_free(t.cpus);
    free(madt);
    free(srat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h8dgu_dies_are_nodes_of_one_package),
    };
    host_init();
    return cmocka_run_group_tests_name("numa_classes", tests, NULL, NULL);
}
