/*
 * The paired bootstrap (core/run/bootstrap.c) and the variant order
 * (core/exp/common.c) on fixed inputs (issue 20):
 *   - pairs that always differ a little, with spread far larger than the
 *     difference that both sides share: the interval excludes zero, never
 *     "no difference" (resampling the two sides apart, mutant
 *     bootstrap_unpaired, loses that);
 *   - noisy pairs whose difference straddles zero: "no difference";
 *   - the same seed, the same interval; the confidence mapping;
 *   - the selection median equals the sorted one;
 *   - the order of each iteration: a permutation, reproducible from the
 *     seed, every variant first in some iterations, different seeds
 *     different orders (mutant order_fixed loses that).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/run/bootstrap.h"
#include "core/exp/common.h"
#include "core/lib/splitmix.h"
#include "core/lib/stats.h"
#include "tests/host/support_boot.h"
#include "tests/host/support_host.h"

#define N 200


/* x[i]: spread over 10,000 .. 110,000 (drift and noise that both sides of a pair share) */
static void shared(uint64_t *x, uint32_t n, uint64_t seed)
{
    struct splitmix g;
    uint32_t i;
    splitmix_seed(&g, seed, 1);
    for (i = 0; i < n; i++)
        x[i] = 10000 + splitmix_below(&g, 100000);
}

static void test_pairs_that_always_differ_a_little(void **state)
{
    static uint64_t a[N], b[N];
    struct paired col = { a, b, N };
    struct boot_result r;
    uint32_t i;
    (void)state;
    shared(a, N, 7);
    for (i = 0; i < N; i++)
        b[i] = a[i] + 3; /* b costs 3 ticks more in every iteration */
    assert_true(boot_columns(&support_boot_work, &col, 1, boot_stat_sum_diff, NULL, 42, 1, &r));
    assert_true(r.valid);
    assert_int_equal(r.estimate, 3);
    assert_true(r.low > 0); /* the spread (100,000 ticks) cancels in the pairs */
    assert_int_equal(r.low, 3);
    assert_int_equal(r.high, 3);
    assert_false(boot_no_difference(&r));
    assert_int_equal(boot_difference_confidence(&r, 0), CONF_HIGH);
    assert_int_equal(r.replicates, BOOT_REPLICATES);
    assert_int_equal(r.pairs, N);
}

static void test_noisy_pairs_straddling_zero(void **state)
{
    static uint64_t a[N], b[N];
    struct paired col = { a, b, N };
    struct boot_result r;
    (void)state;
    shared(a, N, 11);
    shared(b, N, 12); /* the same distribution, drawn apart: no difference but noise */
    assert_true(boot_columns(&support_boot_work, &col, 1, boot_stat_sum_diff, NULL, 42, 1, &r));
    assert_true(r.low < 0 && r.high > 0);
    assert_true(boot_no_difference(&r));
    /* wider than a 1,000-tick margin of equivalence: too noisy to say anything */
    assert_int_equal(boot_difference_confidence(&r, 1000), CONF_LOW);
    /* within a 100,000-tick margin: the same */
    assert_int_equal(boot_difference_confidence(&r, 100000), CONF_MEDIUM);
}

static void test_deterministic_for_a_seed(void **state)
{
    static uint64_t a[N], b[N];
    struct paired col = { a, b, N };
    struct boot_result r1, r2, r3;
    uint32_t i;
    (void)state;
    shared(a, N, 3);
    shared(b, N, 4);
    for (i = 0; i < N; i++)
        b[i] += 5000;
    assert_true(boot_columns(&support_boot_work, &col, 1, boot_stat_sum_diff, NULL, 99, 5, &r1));
    assert_true(boot_columns(&support_boot_work, &col, 1, boot_stat_sum_diff, NULL, 99, 5, &r2));
    assert_int_equal(r1.low, r2.low);
    assert_int_equal(r1.high, r2.high);
    assert_int_equal(r1.estimate, r2.estimate);
    /* another seed draws other replicates: the interval moves, the estimate does not */
    assert_true(boot_columns(&support_boot_work, &col, 1, boot_stat_sum_diff, NULL, 100, 5, &r3));
    assert_int_equal(r3.estimate, r1.estimate);
    assert_true(r3.low != r1.low || r3.high != r1.high);
}

static void test_saving_of_summed_columns(void **state)
{
    static uint64_t a[2][N], b[2][N];
    struct paired cols[2] = { { a[0], b[0], N }, { a[1], b[1], N } };
    struct boot_result r;
    uint32_t i, c;
    (void)state;
    for (c = 0; c < 2; c++) {
        shared(a[c], N, 20 + c);
        for (i = 0; i < N; i++)
            b[c][i] = a[c][i] - a[c][i] / 10; /* b saves 10% of every sample */
    }
    assert_true(
        boot_columns(&support_boot_work, cols, 2, boot_stat_saving_millipct, NULL, 1, 2, &r));
    assert_true(r.estimate >= 9900 && r.estimate <= 10100); /* 10% in 1/1000 percent */
    assert_true(r.low > 9000 && r.high < 11000);
    assert_int_equal(boot_difference_confidence(&r, 5000), CONF_HIGH);
}

static void test_grid_confidence(void **state)
{
    const int64_t grid[] = { 16, 24, 32, 33, 34, 40, 64 };
    struct boot_result r = { true, 33, 33, 33, BOOT_REPLICATES, 10 };
    (void)state;
    assert_int_equal(boot_grid_confidence(&r, grid, 7), CONF_HIGH);
    r.low = 32;
    r.high = 34;
    assert_int_equal(boot_grid_confidence(&r, grid, 7), CONF_MEDIUM);
    r.low = 24;
    r.high = 40;
    assert_int_equal(boot_grid_confidence(&r, grid, 7), CONF_LOW);
    r.low = 64;
    r.high = BOOT_NONE; /* some replicates found no crossing: one more position */
    assert_int_equal(boot_grid_confidence(&r, grid, 7), CONF_MEDIUM);
    r.valid = false;
    assert_int_equal(boot_grid_confidence(&r, grid, 7), CONF_NONE);
}

static void test_median_select_is_the_sorted_median(void **state)
{
    static uint64_t v[N + 1], w[N + 1];
    uint32_t n;
    (void)state;
    for (n = 1; n <= N + 1; n += 7) {
        shared(v, n, n);
        v[n / 2] = v[0]; /* a duplicate */
        memcpy(w, v, n * sizeof(v[0]));
        sort_u64(w, n);
        assert_int_equal(median_select(v, n), percentile_sorted(w, n, 500));
    }
}

/* ---- the variant order ---- */

static struct run run;
static struct runner runner;

static void order_of(uint64_t seed, uint32_t k, uint32_t iterations, uint32_t *first_counts,
                     uint32_t *orders)
{
    uint32_t i, j, ord[EXP_MAX_VARIANTS];
    run.method.order_seed = seed;
    runner.run = &run;
    memset(first_counts, 0, k * sizeof(*first_counts));
    for (i = 0; i < iterations; i++) {
        bool seen[EXP_MAX_VARIANTS] = { false };
        exp_variant_order(&runner, 77, i, k, ord);
        for (j = 0; j < k; j++) {
            assert_true(ord[j] < k);
            assert_false(seen[ord[j]]); /* a permutation */
            seen[ord[j]] = true;
            if (orders)
                orders[i * k + j] = ord[j];
        }
        first_counts[ord[0]]++;
    }
}

static void test_variant_order_varies_and_repeats(void **state)
{
    static uint32_t o1[100 * 3], o2[100 * 3], o3[100 * 3];
    uint32_t first[3], k;
    (void)state;
    for (k = 2; k <= 3; k++) {
        order_of(5, k, 100, first, NULL);
        for (uint32_t v = 0; v < k; v++)
            assert_true(first[v] > 100 / k / 2); /* every variant began some iterations */
    }
    order_of(5, 3, 100, first, o1);
    order_of(5, 3, 100, first, o2);
    assert_memory_equal(o1, o2, sizeof(o1)); /* the seed repeats the order */
    order_of(6, 3, 100, first, o3);
    assert_memory_not_equal(o1, o3, sizeof(o1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_that_always_differ_a_little),
        cmocka_unit_test(test_noisy_pairs_straddling_zero),
        cmocka_unit_test(test_deterministic_for_a_seed),
        cmocka_unit_test(test_saving_of_summed_columns),
        cmocka_unit_test(test_grid_confidence),
        cmocka_unit_test(test_median_select_is_the_sorted_median),
        cmocka_unit_test(test_variant_order_varies_and_repeats),
    };
    host_init();
    return cmocka_run_group_tests_name("bootstrap", tests, support_boot_setup,
                                       support_boot_teardown);
}
