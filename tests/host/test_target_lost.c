/*
 * ipi_target_state's lost-time attribution (core/exp/target_lost.c) on
 * fixed clock readings: a ping taken between a pass's last clock read and
 * the load of the handler's counter is charged to the next pass, whose gap
 * holds the handler (before, it was recorded against the quiet pass: about
 * 0); quiet passes set the shortest one; the irqoff window subtracts its
 * shortest empty window; an idle target whose ping landed late re-reads
 * its clock instead of wrapping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>

#include "core/exp/target_lost.h"

static uint64_t fake_now;
static unsigned rereads;

static uint64_t fake_clock(void *ctx)
{
    (void)ctx;
    rereads++;
    return fake_now;
}

/* Quiet passes of 100 and 90 ticks: the shortest is 90. */
static uint64_t warmed_up(enum lost_kind kind)
{
    uint64_t shortest = UINT64_MAX, lost;
    assert_int_equal(target_lost_account(kind, 1000, 1100, false, 0, &shortest, fake_clock, NULL,
                                         &lost),
                     LOST_QUIET);
    assert_int_equal(target_lost_account(kind, 1100, 1190, false, 0, &shortest, fake_clock, NULL,
                                         &lost),
                     LOST_QUIET);
    assert_int_equal(shortest, 90);
    return shortest;
}

static void test_ping_inside_the_pass(void **state)
{
    uint64_t shortest = warmed_up(LOST_GAP), lost;
    (void)state;
    /* handler entered at 1250, inside the pass 1190..1790: 600 - 90 lost */
    assert_int_equal(target_lost_account(LOST_GAP, 1190, 1790, true, 1250, &shortest, fake_clock,
                                         NULL, &lost),
                     LOST_RECORDED);
    assert_int_equal(lost, 510);
}

static void test_ping_after_the_last_read_goes_to_the_next_pass(void **state)
{
    uint64_t shortest = warmed_up(LOST_GAP), lost;
    (void)state;
    /* the pass 1190..1280 was quiet; the ping's handler entered at 1285, after its last read */
    assert_int_equal(target_lost_account(LOST_GAP, 1190, 1280, true, 1285, &shortest, fake_clock,
                                         NULL, &lost),
                     LOST_NEXT_PASS);
    assert_int_equal(shortest, 90); /* not a quiet pass either */
    /* the next pass's gap 1280..1900 holds the handler: 620 - 90 */
    assert_int_equal(target_lost_account(LOST_GAP, 1280, 1900, true, 1285, &shortest, fake_clock,
                                         NULL, &lost),
                     LOST_RECORDED);
    assert_int_equal(lost, 530);
}

static void test_irqoff_window_subtracts_the_empty_window(void **state)
{
    uint64_t shortest = warmed_up(LOST_WINDOW), lost;
    (void)state;
    /* window 5000..5700 with the handler in it: 700 - 90, not 700 */
    assert_int_equal(target_lost_account(LOST_WINDOW, 5000, 5700, true, 5040, &shortest,
                                         fake_clock, NULL, &lost),
                     LOST_RECORDED);
    assert_int_equal(lost, 610);
}

static void test_idle_late_ping_rereads(void **state)
{
    uint64_t shortest = UINT64_MAX, lost;
    (void)state;
    rereads = 0;
    assert_int_equal(target_lost_account(LOST_WAKE, 100, 900, true, 400, &shortest, fake_clock,
                                         NULL, &lost),
                     LOST_RECORDED);
    assert_int_equal(lost, 500);
    assert_int_equal(rereads, 0);
    fake_now = 1500;
    assert_int_equal(target_lost_account(LOST_WAKE, 100, 900, true, 1200, &shortest, fake_clock,
                                         NULL, &lost),
                     LOST_RECORDED);
    assert_int_equal(lost, 300);
    assert_int_equal(rereads, 1);
    assert_int_equal(shortest, UINT64_MAX); /* idle passes are not iterations */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ping_inside_the_pass),
        cmocka_unit_test(test_ping_after_the_last_read_goes_to_the_next_pass),
        cmocka_unit_test(test_irqoff_window_subtracts_the_empty_window),
        cmocka_unit_test(test_idle_late_ping_rereads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
