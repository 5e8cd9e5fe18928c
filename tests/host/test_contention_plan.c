/*
 * The schedule of shootdown_contention (core/exp/contention_plan.h) and the
 * statistics it reports, and the hiccup detector of core/run/conditions.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/run/conditions.h"
#include "core/exp/contention_plan.h"
#include "core/lib/stats.h"

static void expect_series(uint32_t ncpus, bool groups, uint32_t limit, const uint32_t *want,
                          uint32_t n)
{
    uint32_t got[CONTENTION_MAX_M], k, i;
    k = contention_m_series(ncpus, groups, limit, got, CONTENTION_MAX_M);
    assert_int_equal(k, n);
    for (i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

static void test_m_values(void **state)
{
    (void)state;
    expect_series(8, false, 512, (const uint32_t[]){ 1, 2, 4, 8 }, 4);
    expect_series(8, true, 512, (const uint32_t[]){ 1, 2, 4 }, 3);
    expect_series(4, false, 512, (const uint32_t[]){ 1, 2, 4 }, 3);
    expect_series(4, true, 512, (const uint32_t[]){ 1, 2 }, 2);
    expect_series(6, false, 512, (const uint32_t[]){ 1, 2, 4, 6 }, 4);
    expect_series(6, true, 512, (const uint32_t[]){ 1, 2, 3 }, 3);
    expect_series(2, true, 512, (const uint32_t[]){ 1 }, 1);
    /* 128 CPUs, 33 pages each: 512 / 33 = 15 initiators fit in the test region */
    expect_series(128, false, 512 / 33, (const uint32_t[]){ 1, 2, 4, 8, 15 }, 5);
    expect_series(1, true, 512, NULL, 0); /* no group keeps a target */
}

static void test_partitions_cover_every_cpu_once(void **state)
{
    uint32_t n, m, g, start[65];
    (void)state;
    for (n = 2; n <= 64; n++) {
        for (m = 1; m <= n; m++) {
            contention_partition(n, m, start);
            assert_int_equal(start[0], 0);
            assert_int_equal(start[m], n);
            for (g = 0; g < m; g++) {
                uint32_t size = start[g + 1] - start[g];
                /* contiguous, never empty, sizes within one of each other, larger first */
                assert_true(size == n / m || size == n / m + 1);
                if (g)
                    assert_true(size <= start[g] - start[g - 1]);
            }
        }
    }
    contention_partition(8, 3, start);
    assert_int_equal(start[1], 3);
    assert_int_equal(start[2], 6);
    assert_int_equal(start[3], 8);
    /* initiator k's pages never overlap another's */
    assert_int_equal(contention_first_page(3, 33), 99);
    assert_true(contention_first_page(14, 33) + 33 <= 512);
}

static void test_rate_and_pooled_percentiles(void **state)
{
    uint64_t lat[8] = { 80, 10, 70, 20, 60, 30, 50, 40 };
    struct stats st;
    (void)state;
    /* 4 initiators x 250 shootdowns in 0.5 s of a 2 GHz TSC: 2000 per second */
    assert_int_equal(contention_rate_milli(1000, 1000000000ull, 2000000000ull), 2000000);
    assert_int_equal(contention_rate_milli(3, 0, 1000), 0);
    /* large counts on a fast clock do not overflow */
    assert_int_equal(contention_rate_milli(1ull << 40, 1ull << 40, 4000000000ull),
                     4000000000000ll);
    /* the 128-bit product divided exactly: 7 x 1000 x 3e9 / 1e9 + the rounding down */
    assert_int_equal(contention_rate_milli(7, 1000000000ull, 3000000000ull), 21000);
    assert_int_equal(contention_rate_milli(1, 3, 10), 3333);
    assert_int_equal(contention_rate_milli(1000000, 1, 1ull << 62), INT64_MAX);
    /* two initiators' samples pooled: nearest-rank p50 and p99 of all eight */
    stats_from_array(lat, 8, &st);
    assert_int_equal(st.p50, 40);
    assert_int_equal(st.p99, 80);
    assert_int_equal(st.n, 8);
}

/* A clock that jumps by `gap` at given reads: what an SMI looks like to the detector. */
struct fake_clock {
    uint64_t now;
    uint32_t reads;
};

static uint64_t fake_read(void *ctx)
{
    struct fake_clock *c = ctx;
    c->reads++;
    c->now += (c->reads == 100 || c->reads == 500) ? 50000 : 10;
    return c->now;
}

static void test_hiccup_detector_counts_gaps_above_threshold(void **state)
{
    struct fake_clock c = { 0, 0 };
    uint64_t max = 0, gaps;
    (void)state;
    gaps = hiccup_scan(fake_read, &c, 200000, 1000, &max);
    assert_int_equal(gaps, 2);
    assert_int_equal(max, 50000);
    /* a threshold above the gaps sees nothing */
    c.now = 0;
    c.reads = 0;
    assert_int_equal(hiccup_scan(fake_read, &c, 200000, 60000, &max), 0);
    assert_int_equal(max, 0);
}

/*
 * Issue 32: the steady window is 100 ms, three of them a point, unless
 * contention_window_ms says otherwise or the plan's share cannot hold them;
 * never below 10 ms; the point's rate is the windows' median.
 */
static void test_steady_windows(void **state)
{
    int64_t v[3] = { 300, 100, 200 }, w[4] = { 5, 1, 7, 3 };
    (void)state;
    assert_int_equal(CONTENTION_WINDOWS, 3);
    assert_int_equal(contention_window_ms(0, 0, 40), 100);      /* not planned */
    assert_int_equal(contention_window_ms(37, 100000, 40), 37); /* the key wins */
    /* 100 s of share, 40 steady points: 625 ms a point, room for 3 x 100 ms */
    assert_int_equal(contention_window_ms(0, 100000, 40), 100);
    /* 12 s over 40 points: 75 ms a point, 25 ms a window */
    assert_int_equal(contention_window_ms(0, 12000, 40), 25);
    assert_int_equal(contention_window_ms(0, 1000, 40), 10); /* the floor */
    assert_int_equal(contention_median(v, 3), 200);
    assert_int_equal(v[0], 100); /* sorted: the spread's ends at 0 and n - 1 */
    assert_int_equal(v[2], 300);
    assert_int_equal(contention_median(w, 4), 4);
    assert_int_equal(contention_median(w, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_m_values),
        cmocka_unit_test(test_partitions_cover_every_cpu_once),
        cmocka_unit_test(test_rate_and_pooled_percentiles),
        cmocka_unit_test(test_hiccup_detector_counts_gaps_above_threshold),
        cmocka_unit_test(test_steady_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
