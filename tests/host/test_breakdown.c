/*
 * The per-point breakdown of a shootdown (core/exp/shootdown_breakdown.c,
 * issue 32 item 9): the means of the parts add up to the mean latency within
 * rounding (seq: all four; conc: send, handler, delivery+ack, the local flush
 * inside the wait), also when a handler outlasts the wait; the handler kept
 * is the last acknowledger's (struct shootdown_parts), and the point names the
 * target that acked last most often. p50s of the same samples do not add up:
 * the test shows that too, so the means are not a matter of taste.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/exp/shootdown_breakdown.h"
#include "core/lib/stats.h"
#include "sim/hostmem.h"

#define N 101

/* A sample: seq's latency is local + send + wait, conc's send + wait. */
static uint64_t sample(struct shootdown_parts *p, uint32_t i, bool conc)
{
    p->send = 200 + (i * 37) % 90;
    p->local_flush = 150 + (i * 53) % 400;
    p->wait = 900 + (i * i * 13) % 2500;
    /* every 10th: the last acknowledger's handler read as longer than the wait */
    p->handler = i % 10 == 3 ? p->wait + 17 : 300 + (i * 71) % 500;
    p->last_cpu = i % 3 ? 2 : 5;
    return conc ? p->send + p->wait : p->local_flush + p->send + p->wait;
}

static void check_means_add_up(bool conc)
{
    static uint64_t lat[N];
    struct breakdown b;
    struct breakdown_means m;
    struct shootdown_parts p;
    uint64_t sum = 0;
    int64_t parts, whole;
    uint32_t i;
    assert_true(breakdown_alloc(&b, N));
    for (i = 0; i < N; i++) {
        lat[i] = sample(&p, i, conc);
        sum += lat[i];
        breakdown_take(&b, i, &p);
        assert_int_equal(b.handler[i] + b.dack[i], p.wait); /* each sample's wait, exactly */
    }
    breakdown_means(&b, N, &m);
    whole = (int64_t)((sum * 1000 + N / 2) / N);
    parts = m.send + m.handler + m.delivery_ack + (conc ? 0 : m.local_flush);
    /* four (or three) means rounded to the nearest thousandth of a tick */
    assert_true(llabs(parts - whole) <= 2);
    breakdown_free(&b);
}

static void test_means_add_up_to_the_mean_latency(void **state)
{
    (void)state;
    check_means_add_up(false);
    check_means_add_up(true);
}

/* The p50s of the same parts miss the p50 latency by far more than rounding. */
static void test_p50s_of_parts_do_not_add_up(void **state)
{
    static uint64_t lat[N];
    struct breakdown b;
    struct shootdown_parts p;
    struct stats s[5];
    uint32_t i;
    (void)state;
    assert_true(breakdown_alloc(&b, N));
    for (i = 0; i < N; i++) {
        lat[i] = sample(&p, i, false);
        breakdown_take(&b, i, &p);
    }
    stats_from_array(b.send, N, &s[0]);
    stats_from_array(b.local, N, &s[1]);
    stats_from_array(b.handler, N, &s[2]);
    stats_from_array(b.dack, N, &s[3]);
    stats_from_array(lat, N, &s[4]);
    assert_true(llabs((int64_t)(s[0].p50 + s[1].p50 + s[2].p50 + s[3].p50) - (int64_t)s[4].p50) > 50);
    breakdown_free(&b);
}

/* The last acknowledger's handler is the part, and the point names who acked last. */
static void test_last_acker_is_recorded(void **state)
{
    const uint32_t targets[3] = { 1, 2, 5 };
    struct breakdown b;
    struct shootdown_parts p = { 10, 20, 1000, 400, 5 };
    uint32_t times, i;
    (void)state;
    assert_true(breakdown_alloc(&b, 6));
    for (i = 0; i < 6; i++) {
        p.last_cpu = i < 4 ? 5 : 2;
        breakdown_take(&b, i, &p);
    }
    assert_int_equal(b.handler[0], 400);
    assert_int_equal(b.dack[0], 600);
    assert_int_equal(breakdown_last_acker(&b, 6, targets, 3, &times), 5);
    assert_int_equal(times, 4);
    breakdown_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_means_add_up_to_the_mean_latency),
        cmocka_unit_test(test_p50s_of_parts_do_not_add_up),
        cmocka_unit_test(test_last_acker_is_recorded),
    };
    host_init(); /* mem_alloc() */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
