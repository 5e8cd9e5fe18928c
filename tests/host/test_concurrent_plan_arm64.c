/*
 * tlbi_concurrent's plan on the aarch64 machines past the model's 64 CPUs
 * (core/exp/arm64/concurrent_plan.h): every point's initiators and their pages must fit
 * the test region (REGION_PAGES, one level-3 table), else the remaps write past the
 * level-3 table. Graviton's 64 CPUs keep 8 pages each; Altra's 128 and Grace's 144 get
 * fewer, the same at every point; the counts stay within their array up to MAX_CPUS. The
 * mutant a64_concurrent_pages_unbounded (213) fails it (tests/sim/mutants.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "asm/paging.h"
#include "asm/percpu.h"
#include "core/exp/arm64/concurrent_plan.h"

/* every point of a machine of `cpus` CPUs fits the region; the last point is every CPU */
static void check_machine(unsigned cpus, unsigned want_pages, unsigned want_counts)
{
    unsigned counts[CONCURRENT_MAX_COUNTS], n = concurrent_counts(cpus, counts), pages = concurrent_pages(cpus, REGION_PAGES);
    assert_int_equal(pages, want_pages);
    assert_int_equal(n, want_counts);
    assert_int_equal(counts[0], 1);
    assert_int_equal(counts[n - 1], cpus);
    for (unsigned i = 0; i < n; i++)
        assert_true(counts[i] * pages <= REGION_PAGES);
}

static void test_every_point_fits_the_region(void **state)
{
    (void)state;
    check_machine(2, 8, 2);     /* 1, 2 */
    check_machine(4, 8, 3);     /* 1, 2, 4 */
    check_machine(64, 8, 7);    /* Graviton: 1 .. 32, 64 */
    check_machine(65, 7, 8);    /* one past: 1 .. 64, 65 */
    check_machine(128, 4, 8);   /* Altra Max's 128 */
    check_machine(144, 3, 9);   /* Grace Superchip: 1 .. 128, 144 */
    check_machine(MAX_CPUS, 1, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_point_fits_the_region),
    };
    return cmocka_run_group_tests_name("tlbi_concurrent's plan", tests, NULL, NULL);
}
