/*
 * "Did you mean": core/lib/nearest.c, behind the app's experiments= warning and
 * tlbscope-report's --experiment error. A suggestion must be the intended name for
 * the typing slips people make (a letter dropped, doubled, swapped or wrong), and
 * nothing at all for a name that is merely short or different.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/lib/nearest.h"

static const char *const ids[] = {
    "ipi_roundtrip", "ipi_broadcast", "stale_detector_control", "shootdown_seq_vs_conc",
    "shootdown_lazy", "pti_double_invalidation", "invlpgb_range", "flush_ceiling",
    "shootdown_contention", "ipi_target_state",
};
#define N (sizeof(ids) / sizeof(ids[0]))

static void test_distance_counts_each_kind_of_slip_once(void **state)
{
    (void)state;
    assert_int_equal(edit_distance("flush_ceiling", "flush_ceiling"), 0);
    assert_int_equal(edit_distance("flush_celing", "flush_ceiling"), 1);  /* dropped */
    assert_int_equal(edit_distance("flush_ceilling", "flush_ceiling"), 1); /* doubled */
    assert_int_equal(edit_distance("flush_cieling", "flush_ceiling"), 1); /* swapped */
    assert_int_equal(edit_distance("flush_ceilinq", "flush_ceiling"), 1); /* wrong */
    assert_int_equal(edit_distance("", "abc"), 3);
    assert_int_equal(edit_distance("kitten", "sitting"), 3);
}

static void test_slips_suggest_the_intended_id(void **state)
{
    (void)state;
    assert_string_equal(nearest_name("ipi_brodcast", ids, N), "ipi_broadcast");
    assert_string_equal(nearest_name("shootdown_lazzy", ids, N), "shootdown_lazy");
    assert_string_equal(nearest_name("invlpbg_range", ids, N), "invlpgb_range");
    assert_string_equal(nearest_name("flush-ceiling", ids, N), "flush_ceiling");
}

static void test_other_names_suggest_nothing(void **state)
{
    (void)state;
    assert_null(nearest_name("ipi", ids, N));         /* short: 2 edits would be most of it */
    assert_null(nearest_name("tlb_flush", ids, N));
    assert_null(nearest_name("shootdown", ids, N));   /* a prefix is not a slip */
    assert_null(nearest_name("", ids, N));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_counts_each_kind_of_slip_once),
        cmocka_unit_test(test_slips_suggest_the_intended_id),
        cmocka_unit_test(test_other_names_suggest_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
