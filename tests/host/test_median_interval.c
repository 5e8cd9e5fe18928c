/*
 * A point's own interval (issue 31): boot_median() (core/run/bootstrap.c).
 *   - its replicates are those of literal resamples: on samples 0..n-1 the
 *     interval's bounds are the ranks of the resample medians, and their
 *     means over many seeds match those of resampling n values and taking
 *     the median by selection, at n = 21, 100 and 1000 (mutant
 *     median_boot_biased, one draw more to the lower half of each split,
 *     moves them);
 *   - it contains p50, repeats for a seed and for the same samples in any
 *     order, moves with the seed, and is none below BOOT_MEDIAN_MIN_N.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/splitmix.h"
#include "core/lib/stats.h"
#include "core/run/bootstrap.h"

static int64_t reps[BOOT_REPLICATES];

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The bounds a literal bootstrap gives on samples 0..n-1: n indices drawn, median by selection. */
static void literal_interval(uint32_t n, uint64_t seed, int64_t *low, int64_t *high)
{
    static uint64_t resample[1000];
    struct splitmix g;
    uint32_t r, i;
    splitmix_seed(&g, seed, 12345);
    for (r = 0; r < BOOT_REPLICATES; r++) {
        for (i = 0; i < n; i++)
            resample[i] = splitmix_below(&g, n);
        reps[r] = (int64_t)median_select(resample, n);
    }
    qsort(reps, BOOT_REPLICATES, sizeof(reps[0]), cmp_i64);
    *low = reps[24]; /* ranks 25 and 975 of 1000, as boot_columns() */
    *high = reps[974];
}

static void test_replicates_are_literal_resamples(void **state)
{
    static const struct {
        uint32_t n, seeds;
        double tolerance; /* in ranks: about 4 standard errors of the difference of the means */
    } cases[] = { { 21, 400, 0.3 }, { 100, 100, 0.6 }, { 1000, 20, 2.0 } };
    static uint64_t identity[1000];
    uint32_t c, s, i;
    (void)state;
    for (i = 0; i < 1000; i++)
        identity[i] = i;
    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        double boot_low = 0, boot_high = 0, lit_low = 0, lit_high = 0;
        for (s = 0; s < cases[c].seeds; s++) {
            uint64_t low, high;
            int64_t l2, h2;
            assert_true(boot_median(reps, identity, cases[c].n, 1000 + s, &low, &high));
            boot_low += (double)low;
            boot_high += (double)high;
            literal_interval(cases[c].n, 5000 + s, &l2, &h2);
            lit_low += (double)l2;
            lit_high += (double)h2;
        }
        boot_low /= cases[c].seeds;
        boot_high /= cases[c].seeds;
        lit_low /= cases[c].seeds;
        lit_high /= cases[c].seeds;
        print_message("# n=%u: bounds' mean ranks %.2f..%.2f, literal resamples %.2f..%.2f\n",
                      cases[c].n, boot_low, boot_high, lit_low, lit_high);
        assert_true(boot_low - lit_low < cases[c].tolerance &&
                    lit_low - boot_low < cases[c].tolerance);
        assert_true(boot_high - lit_high < cases[c].tolerance &&
                    lit_high - boot_high < cases[c].tolerance);
    }
}

static void test_interval_of_a_point(void **state)
{
    static uint64_t v[500], shuffled[500];
    struct splitmix g;
    struct stats st;
    uint64_t low, high, low2, high2, low3, high3;
    uint32_t i, n = 500;
    (void)state;
    splitmix_seed(&g, 7, 1);
    for (i = 0; i < n; i++) /* a skewed, tied spread, as latencies are */
        v[i] = 20000 + splitmix_below(&g, 5000) * 10 + (i % 37 == 0 ? 900000 : 0);
    memcpy(shuffled, v, sizeof(v));
    stats_from_array(v, n, &st);
    assert_true(boot_median(reps, v, n, 42, &low, &high));
    assert_true(low <= st.p50 && st.p50 <= high);
    assert_true(low < high);
    /* the same seed and the same samples, in another order: the same interval */
    for (i = n - 1; i > 0; i--) {
        uint32_t j = splitmix_below(&g, i + 1);
        uint64_t t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
    }
    sort_u64(shuffled, n);
    assert_true(boot_median(reps, shuffled, n, 42, &low2, &high2));
    assert_int_equal(low2, low);
    assert_int_equal(high2, high);
    /* other seeds draw other replicates */
    for (i = 43; i < 60; i++) {
        assert_true(boot_median(reps, v, n, i, &low3, &high3));
        if (low3 != low || high3 != high)
            break;
    }
    assert_true(i < 60);
    /* all equal: the interval is the value */
    for (i = 0; i < 10; i++)
        v[i] = 777;
    assert_true(boot_median(reps, v, 10, 1, &low, &high));
    assert_int_equal(low, 777);
    assert_int_equal(high, 777);
    /* below BOOT_MEDIAN_MIN_N samples no interval claims 95% */
    assert_true(boot_median(reps, v, BOOT_MEDIAN_MIN_N, 1, &low, &high));
    low = high = 1;
    assert_false(boot_median(reps, v, BOOT_MEDIAN_MIN_N - 1, 1, &low, &high));
    assert_int_equal(low, 1);
    assert_int_equal(high, 1);
    assert_false(boot_median(NULL, v, 10, 1, &low, &high));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replicates_are_literal_resamples),
        cmocka_unit_test(test_interval_of_a_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
