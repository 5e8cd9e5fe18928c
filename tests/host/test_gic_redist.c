/*
 * A CPU's GICv3 redistributor over every MADT GICR discovery range (arch/arm64/gic_redist.c),
 * on fake GICR_TYPER values: two sockets' ranges (a CPU of the second socket is found only
 * in the second), GICR_TYPER.Last ending a range before its length, the 256 KiB stride of
 * GICv4 frames (VLPIS), a range's length ending one without Last, and Aff3 in the affinity.
 * tests/sim/mutants.sh builds this file with a64_gicr_first_range_only and expects it to fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "asm/gic_redist.h"

#define MAX_FRAMES 32

/* the fake redistributors: RD_base and its GICR_TYPER */
static struct {
    uint64_t base, typer;
} frame[MAX_FRAMES];
static unsigned nframes, reads;

static uint64_t typer(uint64_t mpidr, uint64_t flags)
{
    return (uint64_t)gic_redist_aff(mpidr) << 32 | flags;
}

static void add(uint64_t base, uint64_t mpidr, uint64_t flags)
{
    frame[nframes].base = base;
    frame[nframes++].typer = typer(mpidr, flags);
}

/* an address no frame has reads as all ones, as a bus without a device may */
static uint64_t read64(uint64_t addr)
{
    unsigned i;
    reads++;
    for (i = 0; i < nframes; i++)
        if (frame[i].base + GICR_TYPER == addr)
            return frame[i].typer;
    return ~0ull;
}

static int reset(void **state)
{
    (void)state;
    nframes = reads = 0;
    return 0;
}

/* Altra 2P-like: socket 0's range at 0x100000000, socket 1's at 0x400000000, each 4 CPUs
 * (MPIDR Aff3 the socket), Last on each range's fourth */
static const struct gic_redist_range two[2] = { { 0x100000000ull, 0x800000 }, { 0x400000000ull, 0x800000 } };

static void two_sockets(void)
{
    unsigned s, c;
    for (s = 0; s < 2; s++)
        for (c = 0; c < 4; c++)
            add(two[s].base + c * 0x20000ull, ((uint64_t)s << 32) | (c << 8), c == 3 ? GICR_TYPER_LAST : 0);
}

static void test_every_range_searched(void **state)
{
    (void)state;
    two_sockets();
    assert_int_equal(gic_redist_find(two, 2, 0x0000000100ull, read64), 0x100020000ull);
    assert_int_equal(gic_redist_find(two, 2, 0x0000000300ull, read64), 0x100060000ull);
    /* socket 1's CPUs: only in the second range */
    assert_int_equal(gic_redist_find(two, 2, 0x0100000000ull, read64), 0x400000000ull);
    assert_int_equal(gic_redist_find(two, 2, 0x0100000300ull, read64), 0x400060000ull);
    /* a CPU no range has */
    assert_int_equal(gic_redist_find(two, 2, 0x0200000000ull, read64), 0);
}

static void test_last_ends_the_range(void **state)
{
    static const struct gic_redist_range one = { 0x80000000ull, 0x1000000 };
    (void)state;
    add(0x80000000ull, 0x000, 0);
    add(0x80020000ull, 0x100, GICR_TYPER_LAST);
    /* stale contents past Last, inside the range's length: never read */
    add(0x80040000ull, 0x200, 0);
    reads = 0;
    assert_int_equal(gic_redist_find(&one, 1, 0x200, read64), 0);
    assert_int_equal(reads, 2);
}

static void test_vlpi_frames_256k(void **state)
{
    static const struct gic_redist_range one = { 0x80000000ull, 0x100000 };
    (void)state;
    add(0x80000000ull, 0x000, GICR_TYPER_VLPIS);
    add(0x80040000ull, 0x001, GICR_TYPER_VLPIS);
    add(0x80080000ull, 0x002, GICR_TYPER_VLPIS | GICR_TYPER_LAST);
    assert_int_equal(gic_redist_find(&one, 1, 0x002, read64), 0x80080000ull);
}

static void test_length_ends_a_range_without_last(void **state)
{
    /* two frames' worth: the third frame, past the length, is another socket's */
    static const struct gic_redist_range one = { 0x80000000ull, 0x40000 };
    (void)state;
    add(0x80000000ull, 0x000, 0);
    add(0x80020000ull, 0x001, 0);
    add(0x80040000ull, 0x002, 0);
    assert_int_equal(gic_redist_find(&one, 1, 0x001, read64), 0x80020000ull);
    assert_int_equal(gic_redist_find(&one, 1, 0x002, read64), 0);
}

static void test_affinity_value(void **state)
{
    (void)state;
    /* GICR_TYPER [63:32] = Aff3.Aff2.Aff1.Aff0; MPIDR's U and MT bits are no part of it */
    assert_int_equal(gic_redist_aff(0x01000c0d0eull), 0x010c0d0eu);
    assert_int_equal(gic_redist_aff(0x81000101ull), 0x00000101u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_every_range_searched, reset),
        cmocka_unit_test_setup(test_last_ends_the_range, reset),
        cmocka_unit_test_setup(test_vlpi_frames_256k, reset),
        cmocka_unit_test_setup(test_length_ends_a_range_without_last, reset),
        cmocka_unit_test_setup(test_affinity_value, reset),
    };
    return cmocka_run_group_tests_name("the GICv3 redistributor over every GICR range", tests, NULL, NULL);
}
