/*
 * ipi_roundtrip's class summary (core/run/class_pool.c): every sampled pair
 * contributes the same number of samples, evenly spaced over its own, even
 * when the pool's cap forces a subset. The old pooling took a rounded-down
 * stride until the pool was full, so the first pairs (low-numbered
 * initiators) filled it and the last contributed little or nothing;
 * tests/sim/mutants.sh builds this file with TLBSCOPE_MUTANT=unequal_class_pool
 * and expects it to fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>

#include "core/run/class_pool.h"

/* Pools `pairs` pairs of `samples` values each (value = pair * 1e6 + index) under `cap`. */
static void check_pool(uint32_t pairs, uint32_t samples, uint32_t cap)
{
    static uint64_t src[4096], pool[65536];
    uint32_t per_class[1] = { pairs }, share, n = 0, p, j, count[64] = { 0 };
    assert_true(pairs <= 64 && samples <= 4096);
    share = class_pool_share(per_class, 1, samples, cap);
    assert_true(share >= 1 && share <= samples);
    assert_true((uint64_t)share * pairs <= cap || share == 1);
    for (p = 0; p < pairs; p++) {
        for (j = 0; j < samples; j++)
            src[j] = (uint64_t)p * 1000000 + j;
        n += class_pool_take(src, samples, share, pool + n, pairs * share - n);
    }
    assert_int_equal(n, pairs * share);
    for (j = 0; j < n; j++)
        count[pool[j] / 1000000]++;
    for (p = 0; p < pairs; p++)
        if (count[p] != share)
            fail_msg("pair %u contributed %u samples to its class, want %u (every pair alike; "
                     "%u pairs of %u samples, cap %u)", p, count[p], share, pairs, samples, cap);
    /* evenly spaced over the pair's samples: the first and the last share's indices */
    for (p = 0; p < pairs; p++) {
        assert_int_equal(pool[p * share] % 1000000, 0);
        assert_int_equal(pool[p * share + share - 1] % 1000000,
                         (uint64_t)(share - 1) * samples / share);
    }
}

static void test_every_pair_contributes_equally(void **state)
{
    (void)state;
    check_pool(3, 10, 1000);   /* the cap does not bind: every sample of every pair */
    check_pool(3, 10, 21);     /* 7 of 10 each: a stride of 1 would fill from the first two */
    check_pool(40, 1000, 30000); /* 750 of 1000 each */
    check_pool(64, 100, 64);   /* one each */
}

static void test_share_fits_the_biggest_class(void **state)
{
    uint32_t per_class[4] = { 10, 0, 300, 50 };
    (void)state;
    assert_int_equal(class_pool_share(per_class, 4, 1000, 200000), 666);
    assert_int_equal(class_pool_share(per_class, 4, 100, 200000), 100);
    assert_int_equal(class_pool_share(per_class, 4, 100, 10), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pair_contributes_equally),
        cmocka_unit_test(test_share_fits_the_biggest_class),
    };
    return cmocka_run_group_tests_name("ipi_roundtrip class pooling", tests, NULL, NULL);
}
