/*
 * The aarch64 app's per-CPU slots and topology rows from the MADT (core/run/bringup_arm64.c)
 * on the shapes the model run does not reach: a MADT past the build's limit (the CPUs beyond
 * recorded absent with the MADT's count, never given a slot, all_but_self ruled out), a BSP
 * the MADT does not list (its slot still reserved: the bug that read one past percpu[]),
 * disabled GICCs (rows, no slot), and the BSP in the middle (the CPUs before it move up one).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/run/bringup_arm64.h"

#define N 8
static struct arm64_run run;
static struct a64_madt_cpu madt[N];
static uint64_t slot[N + 1];

static int reset(void **state)
{
    unsigned i;
    (void)state;
    memset(&run, 0, sizeof(run));
    for (i = 0; i < N; i++)
        madt[i] = (struct a64_madt_cpu){ 0x100 * i, 10 + i, GICC_ENABLED };
    return 0;
}

static void test_bsp_in_the_middle(void **state)
{
    unsigned beyond, slots, i;
    (void)state;
    slots = a64_slots_needed(madt, N, 0x500, MAX_CPUS, &beyond);
    assert_int_equal(slots, N);
    assert_int_equal(beyond, 0);
    assert_int_equal(a64_topology_build(&run, madt, N, 0x500, slots, slot, NULL), N);
    assert_int_equal(slot[0], 0x500);
    /* before the BSP: up one; after it: their MADT place */
    for (i = 0; i < 5; i++)
        assert_int_equal(slot[i + 1], 0x100 * i);
    for (i = 6; i < N; i++)
        assert_int_equal(slot[i], 0x100 * i);
    assert_int_equal(run.ntopo, N);
    assert_int_equal(run.topo[0].uid, 15);
    assert_string_equal(run.topo[0].bring_up, "bsp");
    for (i = 1; i < N; i++)
        assert_int_equal(slot[run.topo[i].percpu], run.topo[i].mpidr);
    assert_true(run.every_cpu_started);
}

static void test_past_the_limit(void **state)
{
    unsigned beyond, slots, i;
    (void)state;
    /* a build of 4 slots, the BSP the MADT's last */
    slots = a64_slots_needed(madt, N, 0x700, 4, &beyond);
    assert_int_equal(slots, 4);
    assert_int_equal(beyond, 4);
    assert_int_equal(a64_topology_build(&run, madt, N, 0x700, slots, slot, NULL), 4);
    assert_int_equal(slot[0], 0x700);
    for (i = 1; i < 4; i++)
        assert_int_equal(run.topo[i].percpu, (int)i);
    for (i = 4; i < N; i++) {
        assert_int_equal(run.topo[i].percpu, -1);
        assert_int_equal(run.topo[i].state, A64_CPU_ABSENT);
        assert_non_null(strstr(run.topo[i].note, "the MADT lists 8 usable CPUs, this build handles 4"));
    }
    assert_false(run.every_cpu_started);
}

static void test_bsp_not_listed(void **state)
{
    unsigned beyond, slots;
    (void)state;
    /* 8 others and the BSP: 9 slots, the BSP's first; at a limit of 8 one other goes */
    slots = a64_slots_needed(madt, N, 0x9900, MAX_CPUS, &beyond);
    assert_int_equal(slots, N + 1);
    slots = a64_slots_needed(madt, N, 0x9900, N, &beyond);
    assert_int_equal(slots, N);
    assert_int_equal(beyond, 1);
    assert_int_equal(a64_topology_build(&run, madt, N, 0x9900, slots, slot, NULL), N);
    assert_int_equal(slot[0], 0x9900);
    assert_int_equal(run.topo[N].percpu, -1); /* the last MADT CPU: no slot, never one past */
    assert_non_null(strstr(run.topo[0].note, "no GICC with the BSP's MPIDR"));
}

static void test_disabled_rows_without_slots(void **state)
{
    unsigned beyond, slots;
    (void)state;
    madt[2].flags = 0;
    madt[3].flags = GICC_ONLINE_CAPABLE;
    slots = a64_slots_needed(madt, N, 0, MAX_CPUS, &beyond);
    assert_int_equal(slots, N - 1);
    assert_int_equal(a64_topology_build(&run, madt, N, 0, slots, slot, NULL), N - 1);
    assert_int_equal(run.ntopo, N);
    assert_int_equal(run.topo[N - 1].mpidr, 0x200);
    assert_int_equal(run.topo[N - 1].state, A64_CPU_DISABLED);
    assert_int_equal(run.topo[N - 1].percpu, -1);
    assert_true(run.every_cpu_started);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_bsp_in_the_middle, reset),
        cmocka_unit_test_setup(test_past_the_limit, reset),
        cmocka_unit_test_setup(test_bsp_not_listed, reset),
        cmocka_unit_test_setup(test_disabled_rows_without_slots, reset),
    };
    return cmocka_run_group_tests_name("the aarch64 app's per-CPU slots from the MADT", tests, NULL, NULL);
}
