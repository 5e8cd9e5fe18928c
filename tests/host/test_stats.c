/* Statistics: nearest-rank percentiles on known data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>

#include "core/lib/stats.h"
#include "tests/host/support_host.h"

static void test_percentiles_1_to_100(void **state)
{
    uint64_t v[100];
    struct stats st;
    (void)state;
    /* shuffled 1..100: nearest rank of p50 is 50, p90 is 90, p99 is 99 */
    for (int i = 0; i < 100; i++)
        v[i] = (uint64_t)((i * 37) % 100 + 1);
    stats_from_array(v, 100, &st);
    assert_int_equal(st.n, 100);
    assert_int_equal(st.min, 1);
    assert_int_equal(st.p50, 50);
    assert_int_equal(st.p90, 90);
    assert_int_equal(st.p99, 99);
    assert_int_equal(st.max, 100);
    assert_int_equal(st.mean, 50); /* 5050 / 100 = 50.5, truncated */
}

static void test_small_sets(void **state)
{
    uint64_t one[1] = { 7 }, three[3] = { 30, 10, 20 };
    struct stats st;
    (void)state;
    stats_from_array(one, 1, &st);
    assert_int_equal(st.p50, 7);
    assert_int_equal(st.p99, 7);
    stats_from_array(three, 3, &st);
    assert_int_equal(st.p50, 20); /* rank ceil(1.5) = 2 */
    assert_int_equal(st.p90, 30); /* rank ceil(2.7) = 3 */
    stats_from_array(NULL, 0, &st);
    assert_int_equal(st.n, 0);
    assert_int_equal(st.max, 0);
}

static void test_sort_random(void **state)
{
    enum { N = 5000 };
    uint64_t *v = malloc(N * sizeof(*v));
    (void)state;
    srand(1);
    for (int i = 0; i < N; i++)
        v[i] = ((uint64_t)rand() << 20) ^ (uint64_t)rand();
    sort_u64(v, N);
    for (int i = 1; i < N; i++)
        assert_true(v[i - 1] <= v[i]);
    free(v);
}

static void test_sample_set_bounds(void **state)
{
    struct sample_set s;
    (void)state;
    assert_true(samples_init(&s, 4));
    for (int i = 0; i < 10; i++)
        samples_add(&s, (uint64_t)i);
    assert_int_equal(s.count, 4); /* full buffers drop, never overflow */
    samples_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percentiles_1_to_100),
        cmocka_unit_test(test_small_sets),
        cmocka_unit_test(test_sort_random),
        cmocka_unit_test(test_sample_set_bounds),
    };
    host_init();
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
