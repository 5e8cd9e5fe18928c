/*
 * The aarch64 verifier's reading of a read (core/exp/arm64/a64_verify.c): the new frame's
 * tag is right, the old frame's a stale read, TEST_READ_FAULTED a recovered translation
 * fault, and any other value a read of neither frame (a TLB conflict or an amalgamated
 * entry), counted apart from the stale reads, never as one and never dropped; the counts
 * and the first of each kind through a CPU's four mailbox words and back.
 * The mutant a64_conflict_as_stale (core/mutant.h 128) fails
 * test_a_read_of_neither_frame_is_a_conflict (tests/sim/mutants.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>

#include "asm/abort.h"
#include "core/exp/arm64/a64_verify.h"

#define NEW_TAG(i) (0xB0B0000000000000ull | (i))
#define OLD_TAG(i) (0xA0A0000000000000ull | (i))

static void test_each_kind(void **state)
{
    (void)state;
    assert_int_equal(a64_read_kind(NEW_TAG(3), NEW_TAG(3), OLD_TAG(3)), A64_READ_OK);
    assert_int_equal(a64_read_kind(OLD_TAG(3), NEW_TAG(3), OLD_TAG(3)), A64_READ_STALE);
    assert_int_equal(a64_read_kind(TEST_READ_FAULTED, NEW_TAG(3), OLD_TAG(3)), A64_READ_FAULT);
    /* the control: a fault is what it expects, still counted as one */
    assert_int_equal(a64_read_kind(TEST_READ_FAULTED, TEST_READ_FAULTED, OLD_TAG(3)), A64_READ_FAULT);
}

/* another page's frame, or bits of both frames, is neither the old nor the new */
static void test_a_read_of_neither_frame_is_a_conflict(void **state)
{
    struct a64_reads r = { 0 };
    (void)state;
    assert_int_equal(a64_read_kind(NEW_TAG(4), NEW_TAG(3), OLD_TAG(3)), A64_READ_CONFLICT);
    assert_int_equal(a64_read_kind(0xA0B0000000000003ull, NEW_TAG(3), OLD_TAG(3)), A64_READ_CONFLICT);
    a64_reads_add(&r, 7, OLD_TAG(7), NEW_TAG(7), OLD_TAG(7));
    a64_reads_add(&r, 8, NEW_TAG(9), NEW_TAG(8), OLD_TAG(8));
    a64_reads_add(&r, 9, NEW_TAG(9), NEW_TAG(9), OLD_TAG(9));
    a64_reads_add(&r, 10, 0, NEW_TAG(10), OLD_TAG(10));
    assert_int_equal(r.stale, 1);
    assert_int_equal(r.conflicts, 2);
    assert_int_equal(r.faults, 0);
    assert_int_equal(r.stale_at, 7);
    assert_int_equal(r.conflict_at, 8);
    assert_int_equal(r.conflict_seen, NEW_TAG(9));
}

static void test_counts_through_the_mailbox(void **state)
{
    struct a64_reads r = { 0 }, back;
    volatile uint64_t words[4];
    (void)state;
    for (uint32_t i = 0; i < 512; i++)
        a64_reads_add(&r, i, i % 3 == 0 ? OLD_TAG(i) : i % 3 == 1 ? TEST_READ_FAULTED : 0x1234, NEW_TAG(i),
                      OLD_TAG(i));
    a64_reads_pack(&r, words);
    a64_reads_unpack(&back, words);
    assert_int_equal(back.stale, 171);
    assert_int_equal(back.faults, 171);
    assert_int_equal(back.conflicts, 170);
    assert_int_equal(back.stale_at, 0);
    assert_int_equal(back.conflict_at, 2);
    assert_int_equal(back.stale_seen, OLD_TAG(0));
    assert_int_equal(back.conflict_seen, 0x1234);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_kind),
        cmocka_unit_test(test_a_read_of_neither_frame_is_a_conflict),
        cmocka_unit_test(test_counts_through_the_mailbox),
    };
    return cmocka_run_group_tests_name("a64_verify", tests, NULL, NULL);
}
