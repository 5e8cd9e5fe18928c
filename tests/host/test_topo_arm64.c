/*
 * aarch64 topology classes from MPIDR (core/run/topo_arm64.c) on the shapes
 * machines report (topo_arm64.h says where each comes from, and which are
 * unsure), and ipi_roundtrip's choice of pairs: every ordered pair up to the
 * limit, secondaries initiating too, the BSP never a target; above it an even
 * share of every class. tests/sim/mutants.sh builds this file with
 * a64_mpidr_mt_ignored and a64_pairs_sampled_in_order and expects it to fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/run/topo_arm64.h"

#define C(a, b, mt) a64_mpidr_class(a, b, mt)

/* Ampere Altra (Max) 2P, N1, MT = 1: Aff1 the core of a pair, Aff2 the pair, Aff3 the
 * socket (0x01001f0100: socket 1, pair 31, core 1, from a 2P Altra Max's boot log) */
static void test_altra_pairs_and_sockets(void **state)
{
    (void)state;
    assert_int_equal(C(0x0000000000, 0x0000000000, true), A64_CLASS_SELF);
    assert_int_equal(C(0x0000000000, 0x0000000100, true), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(C(0x0000000100, 0x0000010000, true), A64_CLASS_SAME_PACKAGE);
    assert_int_equal(C(0x0000000000, 0x0100000000, true), A64_CLASS_CROSS_PACKAGE);
    assert_int_equal(C(0x01001f0000, 0x01001f0100, true), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(C(0x0100000000, 0x01001f0100, true), A64_CLASS_SAME_PACKAGE);
    /* read as MT = 0 the same values would split every pair into two clusters */
    assert_int_equal(C(0x0000000000, 0x0000000100, false), A64_CLASS_SAME_PACKAGE);
}

/* AWS Graviton2 (N1): the core in Aff1, Aff2 = 0 for all 64 (unsure whether MT is set):
 * with MT one cluster, without it 64 clusters of one core in one package */
static void test_graviton2_flat(void **state)
{
    (void)state;
    assert_int_equal(C(0x0000, 0x3f00, true), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(C(0x0100, 0x0200, true), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(C(0x0100, 0x0200, false), A64_CLASS_SAME_PACKAGE);
}

/* MT = 0 (Cortex-A72, Graviton1's A1: Aff0 the core, Aff1 the cluster of 4; Aff2 the
 * package, Aff3 beyond it) */
static void test_mt0_core_cluster_package(void **state)
{
    (void)state;
    assert_int_equal(C(0x000, 0x003, false), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(C(0x003, 0x100, false), A64_CLASS_SAME_PACKAGE);
    assert_int_equal(C(0x00000, 0x10000, false), A64_CLASS_CROSS_PACKAGE);
    assert_int_equal(C(0x0000000000, 0x0100000000, false), A64_CLASS_CROSS_PACKAGE);
}

/* SMT (MT = 1, Aff0 the thread: Neoverse E1's 2 threads, Cavium ThunderX2's 4; the other
 * levels of those parts unsure) */
static void test_smt_threads(void **state)
{
    (void)state;
    assert_int_equal(C(0x0100, 0x0101, true), A64_CLASS_SMT_SIBLING);
    assert_int_equal(C(0x0103, 0x0200, true), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(C(0x10100, 0x10103, true), A64_CLASS_SMT_SIBLING);
    /* without MT, threads read as cores of a cluster */
    assert_int_equal(C(0x0100, 0x0101, false), A64_CLASS_SAME_CLUSTER);
    assert_string_equal(a64_class_name(A64_CLASS_SMT_SIBLING), "smt_sibling");
    assert_string_equal(a64_class_name(A64_CLASS_CROSS_PACKAGE), "cross_package");
}

/* places from a PPTT (node offsets): threads of one core, a package with no cluster level,
 * where two cores are of one package only */
static void test_pptt_places(void **state)
{
    static const struct a64_place t0 = { 100, 80, 40, 36, true, -1 }, t1 = { 120, 80, 40, 36, true, -1 },
                                  c1 = { 140, 140, 40, 36, true, -1 }, c2 = { 160, 160, 60, 36, true, -1 },
                                  d0 = { 200, 200, 0, 180, false, -1 }, d1 = { 220, 220, 0, 180, false, -1 };
    (void)state;
    assert_int_equal(a64_place_class(&t0, &t1), A64_CLASS_SMT_SIBLING);
    assert_int_equal(a64_place_class(&t1, &c1), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(a64_place_class(&c1, &c2), A64_CLASS_SAME_PACKAGE);
    assert_int_equal(a64_place_class(&d0, &d1), A64_CLASS_SAME_PACKAGE);
    assert_int_equal(a64_place_class(&c2, &d1), A64_CLASS_CROSS_PACKAGE);
    assert_int_equal(a64_place_class(&d1, &d1), A64_CLASS_SELF);
}

/* 4 CPUs in 2 Altra pairs: 9 pairs (3 x 3), every CPU an initiator, the BSP never a
 * target, nearest class first */
static void test_every_pair_below_the_limit(void **state)
{
    static const uint64_t mpidr[4] = { 0x00000, 0x00100, 0x10000, 0x10100 };
    static const unsigned cpus[4] = { 0, 1, 2, 3 };
    struct a64_pair out[64 + A64_CLASS_COUNT];
    struct a64_place place[4];
    unsigned all, n, i, initiated[4] = { 0 }, targeted[4] = { 0 };
    (void)state;
    for (i = 0; i < 4; i++)
        a64_place_from_mpidr(mpidr[i], true, &place[i]);
    n = a64_choose_pairs(place, cpus, 4, 0, 64, out, &all);
    assert_int_equal(all, 9);
    assert_int_equal(n, 9);
    for (i = 0; i < n; i++) {
        assert_int_not_equal(out[i].initiator, out[i].target);
        assert_int_equal(out[i].cls, a64_place_class(&place[out[i].initiator], &place[out[i].target]));
        if (i)
            assert_true(out[i].cls >= out[i - 1].cls);
        initiated[out[i].initiator]++;
        targeted[out[i].target]++;
    }
    assert_int_equal(targeted[0], 0);
    for (i = 0; i < 4; i++)
        assert_int_equal(initiated[i], i == 0 ? 3 : 2);
    /* 0->1, 2->3 and 3->2: the pairs' own cluster */
    assert_int_equal(out[0].cls, A64_CLASS_SAME_CLUSTER);
    assert_int_equal(out[3].cls, A64_CLASS_SAME_PACKAGE);
}

/* an Altra in quadrant mode: the SRAT puts the package's cores in four NUMA nodes the MPIDRs
 * and the PPTT do not show; two CPUs of one package in other nodes are their own class, taken
 * before the cluster, and without nodes (-1) the classes stay as they were */
static void test_srat_nodes_split_a_package(void **state)
{
    struct a64_place a, b, c, d;
    (void)state;
    a64_place_from_mpidr(0x00000, true, &a);
    a64_place_from_mpidr(0x00100, true, &b); /* a's pair */
    a64_place_from_mpidr(0x10000, true, &c); /* another pair of the package */
    a64_place_from_mpidr(0x100000000ull, true, &d); /* the other socket */
    assert_int_equal(a.node, -1);
    assert_int_equal(a64_place_class(&a, &c), A64_CLASS_SAME_PACKAGE);
    a.node = b.node = 0;
    c.node = 1;
    d.node = 4;
    assert_int_equal(a64_place_class(&a, &b), A64_CLASS_SAME_CLUSTER);
    assert_int_equal(a64_place_class(&a, &c), A64_CLASS_SAME_PACKAGE_OTHER_NODE);
    assert_int_equal(a64_place_class(&c, &a), A64_CLASS_SAME_PACKAGE_OTHER_NODE);
    assert_int_equal(a64_place_class(&a, &d), A64_CLASS_CROSS_PACKAGE);
    /* a pair split over two nodes (a firmware's odd map): the node decides */
    b.node = 1;
    assert_int_equal(a64_place_class(&a, &b), A64_CLASS_SAME_PACKAGE_OTHER_NODE);
    assert_string_equal(a64_class_name(A64_CLASS_SAME_PACKAGE_OTHER_NODE), "same_package_other_node");
}

/* 384 CPUs (a 2P AmpereOne: 192 single-threaded cores a socket, MT clear): the pairs name
 * CPUs past 255 as they are (a byte wide, CPU 300 was CPU 44), each pair's class its CPUs' */
static void test_pairs_name_cpus_past_255(void **state)
{
    static struct a64_place place[384];
    static unsigned cpus[384];
    struct a64_pair out[60 + A64_CLASS_COUNT];
    unsigned all, n, i, highest = 0;
    (void)state;
    for (i = 0; i < 384; i++) {
        cpus[i] = i;
        a64_place_from_mpidr((uint64_t)(i / 192) << 16 | (uint64_t)(i % 192 / 4) << 8 | (i % 4), false, &place[i]);
    }
    n = a64_choose_pairs(place, cpus, 384, 0, 60, out, &all);
    assert_int_equal(all, 384 * 383 - 383);
    for (i = 0; i < n; i++) {
        assert_true(out[i].initiator < 384 && out[i].target < 384);
        assert_int_equal(out[i].cls, a64_place_class(&place[out[i].initiator], &place[out[i].target]));
        highest = out[i].initiator > highest ? out[i].initiator : highest;
    }
    assert_true(highest >= 256);
}

/* 16 CPUs, 2 sockets of 4 pairs (the model's neoverse-n1 shape): 225 pairs over a limit of
 * 30: 10 of each class, spread over the class (secondary initiators among them) */
static void test_sample_gives_each_class_its_share(void **state)
{
    struct a64_place place[16];
    unsigned cpus[16], all, n, i, per[A64_CLASS_COUNT] = { 0 }, from_secondary = 0;
    struct a64_pair out[30 + A64_CLASS_COUNT];
    (void)state;
    for (i = 0; i < 16; i++) {
        cpus[i] = i;
        a64_place_from_mpidr((uint64_t)(i / 8) << 32 | (uint64_t)(i % 8 / 2) << 16 | (uint64_t)(i % 2) << 8, true,
                             &place[i]);
    }
    n = a64_choose_pairs(place, cpus, 16, 0, 30, out, &all);
    assert_int_equal(all, 225);
    assert_int_equal(n, 30);
    for (i = 0; i < n; i++) {
        per[out[i].cls]++;
        from_secondary += out[i].initiator != 0;
        assert_int_not_equal(out[i].target, 0);
    }
    assert_int_equal(per[A64_CLASS_SAME_CLUSTER], 10);
    assert_int_equal(per[A64_CLASS_SAME_PACKAGE], 10);
    assert_int_equal(per[A64_CLASS_CROSS_PACKAGE], 10);
    assert_true(from_secondary >= 25);
    /* evenly spaced: the last cross-package pair is one of the last initiators' */
    assert_true(out[n - 1].initiator >= 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_altra_pairs_and_sockets),
        cmocka_unit_test(test_graviton2_flat),
        cmocka_unit_test(test_mt0_core_cluster_package),
        cmocka_unit_test(test_smt_threads),
        cmocka_unit_test(test_pptt_places),
        cmocka_unit_test(test_every_pair_below_the_limit),
        cmocka_unit_test(test_sample_gives_each_class_its_share),
        cmocka_unit_test(test_pairs_name_cpus_past_255),
        cmocka_unit_test(test_srat_nodes_split_a_package),
    };
    return cmocka_run_group_tests_name("aarch64 topology classes and ipi_roundtrip's pairs", tests, NULL, NULL);
}
