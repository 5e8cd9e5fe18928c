/*
 * The PPTT's processor hierarchy (core/firmware/acpi_pptt.c) on a synthetic
 * table shaped as firmware writes them: two packages, the first with two
 * clusters, one core of two threads (revision 2+ flags), cores whose leaves
 * carry no leaf flag (revision 1), a cluster with a valid ID that collides
 * with a processor's UID, a package with cores directly under it; then the
 * table corrupted (a parent outside the table, a loop, a bad checksum).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <string.h>

#include "core/firmware/acpi.h"
#include "core/firmware/acpi_pptt.h"

#define NODE 20 /* a hierarchy node without private resources */

static uint8_t table[ACPI_HEADER_LEN + 16 * NODE];
static uint32_t used;

static void le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* appends a node; returns its offset */
static uint32_t node(uint32_t flags, uint32_t parent, uint32_t id)
{
    uint32_t off = used;
    uint8_t *n = table + off;
    memset(n, 0, NODE);
    n[1] = NODE;
    le32(n + 4, flags);
    le32(n + 8, parent);
    le32(n + 12, id);
    used += NODE;
    return off;
}

/* header with Length and checksum for what was appended */
static void seal(void)
{
    uint8_t sum = 0;
    uint32_t i;
    memcpy(table, "PPTT", 4);
    table[8] = 3;
    le32(table + 4, used);
    table[9] = 0;
    for (i = 0; i < used; i++)
        sum = (uint8_t)(sum + table[i]);
    table[9] = (uint8_t)-sum;
}

static uint32_t pkg0, pkg1, cl0, cl1, core0, core1, core2, core3;

/* package 0: cluster 0 {core 0: threads UID 0, 1; core 1: UID 2}, cluster 1 (ID 3) {core 2:
 * UID 3}; package 1 (no cluster level): core 3, UID 4 */
static void build(void)
{
    used = ACPI_HEADER_LEN;
    pkg0 = node(PPTT_PHYSICAL_PACKAGE, 0, 0);
    cl0 = node(0, pkg0, 0);
    cl1 = node(PPTT_ID_VALID, pkg0, 3);
    core0 = node(0, cl0, 0);
    node(PPTT_ID_VALID | PPTT_THREAD | PPTT_LEAF, core0, 0);
    node(PPTT_ID_VALID | PPTT_THREAD | PPTT_LEAF, core0, 1);
    core1 = node(PPTT_ID_VALID, cl0, 2);
    core2 = node(PPTT_ID_VALID, cl1, 3);
    pkg1 = node(PPTT_PHYSICAL_PACKAGE | PPTT_ID_VALID, 0, 1);
    core3 = node(PPTT_ID_VALID, pkg1, 4);
    seal();
}

static void test_levels_of_each_processor(void **state)
{
    struct pptt_cpu c;
    (void)state;
    build();
    assert_true(acpi_pptt_cpu(table, used, 0, &c, NULL));
    assert_true(c.thread);
    assert_int_equal(c.core, core0);
    assert_int_equal(c.cluster, cl0);
    assert_int_equal(c.package, pkg0);
    assert_true(acpi_pptt_cpu(table, used, 1, &c, NULL));
    assert_int_equal(c.core, core0);
    assert_int_not_equal(c.leaf, core0);
    assert_true(acpi_pptt_cpu(table, used, 2, &c, NULL));
    assert_false(c.thread);
    assert_int_equal(c.core, core1);
    assert_int_equal(c.cluster, cl0);
    /* UID 3: the core, not cluster 1, whose valid ID is 3 too: it has children */
    assert_true(acpi_pptt_cpu(table, used, 3, &c, NULL));
    assert_int_equal(c.core, core2);
    assert_int_equal(c.cluster, cl1);
    assert_int_equal(c.package, pkg0);
    /* UID 4: a core directly under its package: no cluster level */
    assert_true(acpi_pptt_cpu(table, used, 4, &c, NULL));
    assert_int_equal(c.core, core3);
    assert_int_equal(c.cluster, 0);
    assert_int_equal(c.package, pkg1);
    /* UID 1 names package 1 as well, but the processor is the thread */
    assert_true(acpi_pptt_cpu(table, used, 1, &c, NULL) && c.thread);
    assert_false(acpi_pptt_cpu(table, used, 9, &c, NULL));
}

static void test_corrupted_tables(void **state)
{
    struct pptt_cpu c;
    (void)state;
    build();
    le32(table + core3 + 8, used + 4); /* core 3's parent past the table's end */
    seal();
    assert_false(acpi_pptt_cpu(table, used, 4, &c, NULL));
    assert_true(acpi_pptt_cpu(table, used, 2, &c, NULL)); /* the others still read */
    build();
    le32(table + pkg1 + 8, core3); /* package 1 and core 3 each other's parent */
    seal();
    assert_false(acpi_pptt_cpu(table, used, 4, &c, NULL));
    build();
    table[9] ^= 1;
    assert_false(acpi_pptt_cpu(table, used, 2, &c, NULL));
    build();
    assert_false(acpi_pptt_cpu(table, used - 1, 2, &c, NULL)); /* fewer bytes than its Length */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_of_each_processor),
        cmocka_unit_test(test_corrupted_tables),
    };
    return cmocka_run_group_tests_name("ACPI PPTT processor hierarchy", tests, NULL, NULL);
}
