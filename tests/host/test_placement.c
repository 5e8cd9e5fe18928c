/*
 * Topology classes and placements (issue 21) on a described machine of 2
 * packages x 2 L3s x 2 cores x 2 SMT threads, numbered as sim/machine.c's
 * --shape numbers them (APIC ID = index: thread, core, L3, package), one
 * NUMA node per package, then one node for both, then no SRAT:
 *   - cpu_topo_class() gives every class of the shape, with the pair
 *     counts the geometry implies (tests/sim/mutants.sh builds this file
 *     with l3_class_ignored and node_class_ignored and expects failures);
 *   - each placement picks CPUs of its class only, as many as asked up to
 *     the class's size, and spread spans both packages (placement_ignored);
 *   - sub-NUMA nodes of a package and a point's class mix (issue 32).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/machine/cpu_table.h"
#include "core/machine/placement.h"
#include "core/run/record.h"

#define NCPUS 16

static struct cpu_info cpus[NCPUS];
static struct cpu_table table = { NCPUS, cpus };

/* nodes: 4 (two per package, one per L3: AMD NPS2), 2 (one per package), 1 (both packages
 * in one), 0 (no SRAT) */
static void describe(uint32_t nodes)
{
    uint32_t i;
    memset(cpus, 0, sizeof(cpus));
    for (i = 0; i < NCPUS; i++) {
        cpus[i].index = cpus[i].apic_id = i;
        cpus[i].thread = i % 2;
        cpus[i].core = (i % 8) / 2;
        cpus[i].package = i / 8;
        cpus[i].l3 = i / 4;
        cpus[i].l3_known = true;
        cpus[i].numa_node = nodes == 4 ? (int32_t)(i / 4)
                            : nodes == 2 ? (int32_t)(i / 8) : nodes == 1 ? 0 : -1;
        cpus[i].state = CPU_OK;
    }
}

static void count_classes(uint32_t *per_class)
{
    uint32_t i, j;
    memset(per_class, 0, TOPO_CLASS_COUNT * sizeof(*per_class));
    for (i = 0; i < NCPUS; i++)
        for (j = 0; j < NCPUS; j++)
            per_class[cpu_topo_class(&cpus[i], &cpus[j])]++;
}

static void test_classes_of_two_sockets_two_l3s_smt(void **state)
{
    uint32_t n[TOPO_CLASS_COUNT];
    (void)state;
    describe(2);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[0]), TOPO_SELF);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[1]), TOPO_SMT_SIBLING);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[2]), TOPO_SAME_L3);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[4]), TOPO_SAME_PACKAGE);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[8]), TOPO_CROSS_NODE);
    assert_int_equal(cpu_topo_class(&cpus[13], &cpus[12]), TOPO_SMT_SIBLING);
    assert_int_equal(cpu_topo_class(&cpus[13], &cpus[14]), TOPO_SAME_L3);
    assert_int_equal(cpu_topo_class(&cpus[13], &cpus[9]), TOPO_SAME_PACKAGE);
    count_classes(n);
    /* each CPU: 1 sibling, 2 more in its L3, 4 in the other L3, 8 in the other package */
    assert_int_equal(n[TOPO_SELF], NCPUS);
    assert_int_equal(n[TOPO_SMT_SIBLING], NCPUS * 1);
    assert_int_equal(n[TOPO_SAME_L3], NCPUS * 2);
    assert_int_equal(n[TOPO_SAME_PACKAGE], NCPUS * 4);
    assert_int_equal(n[TOPO_CROSS_NODE], NCPUS * 8);
    assert_int_equal(n[TOPO_SAME_NODE] + n[TOPO_CROSS_PACKAGE], 0);
    /* both packages in one node: the other package is same_node */
    describe(1);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[8]), TOPO_SAME_NODE);
    count_classes(n);
    assert_int_equal(n[TOPO_SAME_NODE], NCPUS * 8);
    /* no SRAT: cross_package; no L3 enumerated: the package is one class */
    describe(0);
    cpus[0].l3_known = cpus[2].l3_known = false;
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[8]), TOPO_CROSS_PACKAGE);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[2]), TOPO_SAME_PACKAGE);
    assert_string_equal(topo_class_name(TOPO_SAME_L3), "same_l3");
    assert_int_equal(topo_class_code(TOPO_CROSS_NODE), 'x');
}

static bool usable(const void *ctx, uint32_t cpu)
{
    (void)ctx;
    return cpus[cpu].state == CPU_OK;
}

static void check_pick(uint32_t initiator, uint32_t placement, uint32_t k, uint32_t want)
{
    uint32_t out[NCPUS], n, i, packages[2] = { 0, 0 };
    n = placement_pick(&table, usable, NULL, initiator, placement, k, out);
    if (n != want)
        fail_msg("placement %s from CPU %u, %u asked: %u picked, want %u",
                 placement_name(placement), initiator, k, n, want);
    for (i = 0; i < n; i++) {
        if (out[i] == initiator || !usable(NULL, out[i]))
            fail_msg("placement %s picked CPU %u", placement_name(placement), out[i]);
        if (placement != PLACE_SPREAD &&
            cpu_topo_class(&cpus[initiator], &cpus[out[i]]) != (enum topo_class)placement)
            fail_msg("placement %s from CPU %u picked CPU %u, of class %s",
                     placement_name(placement), initiator, out[i],
                     topo_class_name(cpu_topo_class(&cpus[initiator], &cpus[out[i]])));
        if (i && out[i] <= out[i - 1])
            fail_msg("placement %s picked CPU %u twice or out of order", placement_name(placement),
                     out[i]);
        packages[cpus[out[i]].package]++;
    }
    /* spread is placement-blind: from 2 targets on, both packages */
    if (placement == PLACE_SPREAD && n >= 2 && (!packages[0] || !packages[1]))
        fail_msg("spread of %u from CPU %u stayed in one package", n, initiator);
}

static void test_each_placement_picks_its_class(void **state)
{
    uint32_t init, p;
    (void)state;
    describe(2);
    for (init = 0; init < NCPUS; init += 5) {
        check_pick(init, TOPO_SMT_SIBLING, 4, 1);
        check_pick(init, TOPO_SAME_L3, 1, 1);
        check_pick(init, TOPO_SAME_L3, 4, 2);
        check_pick(init, TOPO_SAME_PACKAGE, 4, 4);
        check_pick(init, TOPO_CROSS_NODE, 8, 8);
        check_pick(init, TOPO_SAME_NODE, 2, 0);
        check_pick(init, PLACE_SPREAD, 2, 2);
        check_pick(init, PLACE_SPREAD, 4, 4);
        check_pick(init, PLACE_SPREAD, 15, 15);
        for (p = TOPO_FIRST_CLASS; p < PLACE_COUNT; p++)
            assert_true(placement_size(&table, usable, NULL, init, p) <= NCPUS - 1);
    }
    assert_int_equal(placement_size(&table, usable, NULL, 0, TOPO_CROSS_NODE), 8);
    /* a CPU out of the run is never picked, and the class shrinks */
    cpus[9].state = CPU_HUNG;
    check_pick(0, TOPO_CROSS_NODE, 8, 7);
    describe(1);
    check_pick(3, TOPO_SAME_NODE, 3, 3);
    assert_string_equal(placement_name(PLACE_SPREAD), "spread");
}

/*
 * Issue 32: spread is round-robin over (node, package, L3), not even over
 * the firmware's numbering. Numbered alternating packages (CPU i in package
 * i % 2, L3s of 4 CPUs each: 0,2,4,6 | 8,10,12,14 in package 0), evenly
 * spaced CPU numbers land in one package; round-robin spans both with 2
 * targets and every L3 with 4 (mutant spread_by_numbering).
 */
static void test_spread_round_robin_over_domains(void **state)
{
    uint32_t out[NCPUS], n, i, l3s[4] = { 0, 0, 0, 0 }, pk[2] = { 0, 0 };
    (void)state;
    describe(0);
    for (i = 0; i < NCPUS; i++) {
        cpus[i].package = i % 2;
        cpus[i].l3 = (i % 2) * 2 + i / 8; /* package 0: L3 0 (0..6), 1 (8..14); package 1: 2, 3 */
        cpus[i].core = i / 2;             /* no SMT: a core per CPU of a package */
        cpus[i].thread = 0;
    }
    n = placement_pick(&table, usable, NULL, 0, PLACE_SPREAD, 2, out);
    assert_int_equal(n, 2);
    for (i = 0; i < n; i++)
        pk[cpus[out[i]].package]++;
    assert_int_equal(pk[0], 1);
    assert_int_equal(pk[1], 1);
    n = placement_pick(&table, usable, NULL, 0, PLACE_SPREAD, 4, out);
    assert_int_equal(n, 4);
    for (i = 0; i < n; i++)
        l3s[cpus[out[i]].l3]++;
    for (i = 0; i < 4; i++)
        assert_int_equal(l3s[i], 1);
    /* the point's note names the classes the pick holds (no SRAT: the other package) */
    {
        char mix[160];
        placement_mix(mix, sizeof(mix), &table, 0, out, n);
        assert_non_null(strstr(mix, "same_package 1"));
        assert_non_null(strstr(mix, "cross_package 2"));
    }
    /* every candidate once, in index order */
    n = placement_pick(&table, usable, NULL, 0, PLACE_SPREAD, 20, out);
    assert_int_equal(n, NCPUS - 1);
    for (i = 0; i < n; i++)
        assert_int_equal(out[i], i + 1);
}

/*
 * Issue 32: sub-NUMA nodes (SRAT proximity domains finer than packages) are
 * a class between same_package and the other packages, under AMD NPS2
 * (each L3 its node) and Intel SNC2 (one L3 per package reported across
 * both nodes): never same_l3 or same_package (mutant snc_class_folded).
 */
static void test_sub_numa_nodes_of_a_package(void **state)
{
    static const struct {
        uint32_t from, to;
        enum topo_class cls;
    } nps2[] = { { 0, 2, TOPO_SAME_L3 }, { 0, 4, TOPO_SAME_PACKAGE_OTHER_NODE },
                 { 13, 9, TOPO_SAME_PACKAGE_OTHER_NODE }, { 0, 12, TOPO_CROSS_NODE } };
    uint32_t n[TOPO_CLASS_COUNT], out[NCPUS], k, i;
    (void)state;
    describe(4);
    for (i = 0; i < sizeof(nps2) / sizeof(nps2[0]); i++)
        assert_int_equal(cpu_topo_class(&cpus[nps2[i].from], &cpus[nps2[i].to]), nps2[i].cls);
    count_classes(n);
    assert_int_equal(n[TOPO_SAME_PACKAGE_OTHER_NODE], NCPUS * 4);
    assert_int_equal(n[TOPO_SAME_PACKAGE], 0);
    assert_string_equal(topo_class_name(TOPO_SAME_PACKAGE_OTHER_NODE), "same_package_other_node");
    assert_int_equal(topo_class_code(TOPO_SAME_PACKAGE_OTHER_NODE), 'o');
    /* SNC2: CPUID reports one L3 for the whole package, spanning both nodes */
    for (i = 0; i < NCPUS; i++)
        cpus[i].l3 = cpus[i].package;
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[2]), TOPO_SAME_L3);
    assert_int_equal(cpu_topo_class(&cpus[0], &cpus[4]), TOPO_SAME_PACKAGE_OTHER_NODE);
    count_classes(n);
    assert_int_equal(n[TOPO_SAME_L3], NCPUS * 2);
    assert_int_equal(n[TOPO_SAME_PACKAGE_OTHER_NODE], NCPUS * 4);
    k = placement_pick(&table, usable, NULL, 0, TOPO_SAME_PACKAGE_OTHER_NODE, 8, out);
    assert_int_equal(k, 4);
    for (i = 0; i < k; i++)
        assert_int_equal(out[i], 4 + i);
}

/*
 * Issue 32: a point's class mix counts its targets from the initiator, here
 * CPU 9 (mutant class_mix_wrong_cpu counts from the first target: "self").
 */
static void test_class_mix_counted_from_the_initiator(void **state)
{
    static const uint32_t targets[] = { 8, 10, 12, 0, 1 };
    struct result_point pt;
    uint32_t count[TOPO_CLASS_COUNT];
    (void)state;
    describe(2);
    placement_count(&table, 9, targets, 5, count);
    assert_int_equal(count[TOPO_SELF], 0);
    assert_int_equal(count[TOPO_SMT_SIBLING], 1);
    assert_int_equal(count[TOPO_SAME_L3], 1);
    assert_int_equal(count[TOPO_SAME_PACKAGE], 1);
    assert_int_equal(count[TOPO_CROSS_NODE], 2);
    memset(&pt, 0, sizeof(pt));
    point_class_mix(&pt, &table, 9, targets, 5);
    assert_true(pt.has_class_mix);
    assert_int_equal(pt.class_mix[TOPO_SMT_SIBLING], 1);
    assert_int_equal(pt.class_mix[TOPO_CROSS_NODE], 2);
    assert_int_equal(pt.class_mix[TOPO_SELF], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_of_two_sockets_two_l3s_smt),
        cmocka_unit_test(test_each_placement_picks_its_class),
        cmocka_unit_test(test_spread_round_robin_over_domains),
        cmocka_unit_test(test_sub_numa_nodes_of_a_package),
        cmocka_unit_test(test_class_mix_counted_from_the_initiator),
    };
    return cmocka_run_group_tests_name("placement", tests, NULL, NULL);
}
