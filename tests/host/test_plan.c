/*
 * Planning from measured cost (core/run/plan.h): shares of the run budget, the
 * floor, the order of reductions and their reasons, and the growth of the
 * target counts with the CPU count. The mutant plan_ignores_budget (the
 * planner keeps every sample whatever the share) must fail
 * test_a_reduced_plan_fits_its_share, profiles_unplanned (quick and full
 * measured as configured, as before issue 20) must fail
 * test_every_profile_plans_within_budget_s (tests/sim/mutants.sh), and
 * plan_thin_stride_only (thinning by the stride alone, the ceiling's page
 * counts included) must fail test_thinning_keeps_the_ceiling_dense.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/run/config.h"
#include "core/run/plan.h"
#include "core/run/runner_plan.h"
#include "tests/host/support_host.h"

/* cost of one iteration: base + per_row * row + per_col * col */
struct grid_cost {
    uint64_t base, per_row, per_col;
};

static uint64_t cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct grid_cost *g = ctx;
    return g->base + g->per_row * row + g->per_col * col;
}

static struct plan_request request(const struct grid_cost *g, uint64_t share, uint32_t rows,
                                   uint32_t cols)
{
    struct plan_request q;
    memset(&q, 0, sizeof(q));
    q.share_ticks = share;
    q.samples = 1000;
    q.warmup = 100;
    q.floor = PLAN_FLOOR;
    q.baseline_div = 4;
    q.nrows = rows;
    q.ncols = cols;
    q.thin_rows = q.thin_cols = true;
    q.point_ticks = 500;
    q.iter_ticks = cost;
    q.ctx = g;
    return q;
}

static void test_no_share_means_as_configured(void **state)
{
    struct grid_cost g = { 1000, 0, 0 };
    struct plan_request q = request(&g, 0, 10, 9);
    struct plan p;
    (void)state;
    plan_make(&q, &p);
    assert_int_equal(p.samples, 1000);
    assert_int_equal(p.warmup, 100);
    assert_int_equal(p.rows, 10);
    assert_int_equal(p.cols, 9);
    assert_int_equal(p.reasons, 0);
}

static void test_a_grid_that_fits_is_not_reduced(void **state)
{
    struct grid_cost g = { 1000, 10, 10 };
    struct plan_request q = request(&g, 0, 4, 3);
    struct plan p;
    (void)state;
    q.share_ticks = plan_estimate(&q, 1000, 1, 1); /* exactly enough */
    plan_make(&q, &p);
    assert_int_equal(p.samples, 1000);
    assert_int_equal(p.reasons, 0);
    assert_int_equal(p.estimate_ticks, p.full_ticks);
    /* 4 x 3 points, each 500 + (100 + 1000 + 250) iterations */
    assert_int_equal(p.full_ticks, plan_estimate(&q, 1000, 1, 1));
    assert_true(p.full_ticks > 12 * 1350 * 1000);
}

/* Fewer samples first: the most that fit, the same for every point, at least the floor. */
static void test_a_reduced_plan_fits_its_share(void **state)
{
    struct grid_cost g = { 1000, 100, 50 };
    struct plan_request q = request(&g, 0, 6, 4);
    struct plan p;
    (void)state;
    q.share_ticks = plan_estimate(&q, 1000, 1, 1) / 5;
    plan_make(&q, &p);
    assert_true(p.estimate_ticks <= q.share_ticks);
    assert_int_equal(p.reasons, PLAN_FEWER_SAMPLES);
    assert_true(p.samples >= PLAN_FLOOR && p.samples < 1000);
    /* the most that fit: one more sample would not */
    assert_true(plan_estimate(&q, p.samples + 1, 1, 1) > q.share_ticks);
    assert_int_equal(p.rows, 6);
    assert_int_equal(p.cols, 4);
    /* the warm-up shrinks with the samples, never below PLAN_MIN_WARMUP */
    assert_int_equal(p.warmup, plan_warmup(100, 1000, p.samples));
    assert_true(p.warmup < 100 && p.warmup >= PLAN_MIN_WARMUP);
    assert_int_equal(plan_warmup(100, 1000, 50), PLAN_MIN_WARMUP);
    assert_int_equal(plan_warmup(100, 1000, 500), 50);
    assert_int_equal(plan_warmup(4, 1000, 50), 4); /* a smaller configured warm-up stays */
    assert_int_equal(plan_warmup(100, 1000, 1000), 100);
}

/* At the floor, rows go (every 2nd, 4th...; ends kept), then columns; samples come back up. */
static void test_rows_then_columns_are_thinned_at_the_floor(void **state)
{
    struct grid_cost g = { 1000, 1000, 0 };
    struct plan_request q = request(&g, 0, 10, 9);
    struct plan p;
    uint32_t i;
    (void)state;
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 2, 1); /* the floor fits with every 2nd row */
    plan_make(&q, &p);
    assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
    assert_true(p.reasons & PLAN_FEWER_ROWS);
    assert_int_equal(p.reasons & PLAN_FEWER_COLS, 0);
    assert_int_equal(p.row_stride, 2);
    assert_int_equal(p.rows, 6); /* 0 2 4 6 8 and the last, 9 */
    assert_true(plan_kept(10, 2, 0) && plan_kept(10, 2, 9) && !plan_kept(10, 2, 1));
    assert_int_equal(p.cols, 9);
    assert_true(p.samples >= PLAN_FLOOR);
    assert_true(p.estimate_ticks <= q.share_ticks);

    /* less still: rows down to the two ends, then columns */
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 64, 2);
    plan_make(&q, &p);
    assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
    assert_true((p.reasons & PLAN_FEWER_ROWS) && (p.reasons & PLAN_FEWER_COLS));
    assert_int_equal(p.rows, 2);
    assert_int_equal(p.cols, 5);
    assert_true(p.estimate_ticks <= q.share_ticks);
    for (i = 0; i < 9; i++)
        assert_int_equal(plan_kept(9, p.col_stride, i), i % 2 == 0 || i == 8);
}

/* ERROR only when even the floor on the fewest points does not fit. */
static void test_no_fit_only_below_the_floor(void **state)
{
    struct grid_cost g = { 1000, 1000, 0 };
    struct plan_request q = request(&g, 0, 10, 9);
    struct plan p;
    char text[320];
    (void)state;
    /* the two ends of both axes at the floor */
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 64, 64);
    plan_make(&q, &p);
    assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
    assert_int_equal(p.rows, 2);
    assert_int_equal(p.cols, 2);
    assert_int_equal(p.samples, PLAN_FLOOR);
    /* less: the last row (the most targets) alone, then the first column (one page) alone */
    q.share_ticks--;
    plan_make(&q, &p);
    assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
    assert_int_equal(p.row_stride, PLAN_LAST_ONLY);
    assert_int_equal(p.rows, 1);
    assert_int_equal(p.cols, 2);
    assert_true(plan_kept(10, PLAN_LAST_ONLY, 9) && !plan_kept(10, PLAN_LAST_ONLY, 0));
    assert_true(plan_kept(9, PLAN_FIRST_ONLY, 0) && !plan_kept(9, PLAN_FIRST_ONLY, 8));
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, PLAN_LAST_ONLY, PLAN_FIRST_ONLY);
    plan_make(&q, &p);
    assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
    assert_int_equal(p.rows, 1);
    assert_int_equal(p.cols, 1);
    assert_int_equal(p.samples, PLAN_FLOOR);
    assert_true(p.estimate_ticks <= q.share_ticks);
    q.share_ticks--;
    plan_make(&q, &p);
    assert_true(p.reasons & PLAN_NO_FIT);
    assert_int_equal(p.samples, PLAN_FLOOR);
    assert_int_equal(p.rows, 1);
    assert_int_equal(p.cols, 1);
    /* rows and columns that may not be thinned stay, and the floor does not fit sooner */
    q.thin_rows = q.thin_cols = false;
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 1, 1);
    plan_make(&q, &p);
    assert_int_equal(p.reasons, PLAN_FEWER_SAMPLES);
    assert_int_equal(p.samples, PLAN_FLOOR);
    q.share_ticks--;
    plan_make(&q, &p);
    assert_int_equal(p.reasons, PLAN_FEWER_SAMPLES | PLAN_NO_FIT);
    assert_int_equal(p.rows, 10);
    /* a configured count below the floor is the floor */
    q.samples = 20;
    q.share_ticks = 1;
    plan_make(&q, &p);
    assert_int_equal(p.samples, 20);
    assert_true(p.reasons & PLAN_NO_FIT);
    {
        struct plan_summary s;
        memset(&s, 0, sizeof(s));
        plan_summarize(&q, &p, 1000, 2, &s);
        s.rows_name = "target counts";
        plan_describe(&s, text, sizeof(text));
        assert_non_null(strstr(text, "over its share even at the floor: samples 20 ("));
        assert_int_equal(s.points_planned, 10 * 9 * 2);
    }
}

static void test_the_report_says_what_was_reduced(void **state)
{
    struct grid_cost g = { 1000000, 1000000, 0 };
    struct plan_request q = request(&g, 0, 10, 9);
    struct plan p;
    struct plan_summary s;
    char text[320];
    (void)state;
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 4, 1);
    plan_make(&q, &p);
    memset(&s, 0, sizeof(s));
    plan_summarize(&q, &p, 1000000, 2, &s); /* 1 ms = 10^6 ticks */
    s.rows_name = "target counts";
    s.cols_name = "page counts";
    plan_describe(&s, text, sizeof(text));
    assert_non_null(strstr(text, "reduced: samples 1000 -> "));
    assert_non_null(strstr(text, ", target counts 10 -> 4"));
    assert_null(strstr(text, "page counts"));
    assert_non_null(strstr(text, ", share "));
    assert_int_equal(s.points_planned, 4 * 9 * 2);
    assert_int_equal(s.samples_planned, (uint64_t)4 * 9 * 2 * p.samples);
    assert_int_equal(s.share_ms, q.share_ticks / 1000000);
    /* as configured */
    q.share_ticks = p.full_ticks;
    plan_make(&q, &p);
    plan_summarize(&q, &p, 1000000, 2, &s);
    plan_describe(&s, text, sizeof(text));
    assert_non_null(strstr(text, "as configured: samples 1000 (estimated"));
}

/* flush_ceiling's page counts (core/exp/flush_ceiling.c) and Linux's ceiling */
static const uint32_t fc_pages[] = { 1,  2,  4,  8,  12, 16, 20, 24,  28,  30,  32,
                                     33, 34, 36, 40, 48, 64, 96, 128, 256, 384, 512 };
#define FC_N ((uint32_t)(sizeof(fc_pages) / sizeof(fc_pages[0])))

static bool fc_kept(uint32_t stride, uint32_t lo, uint32_t hi, uint32_t value)
{
    uint32_t i;
    for (i = 0; i < FC_N; i++)
        if (fc_pages[i] == value)
            return plan_kept_dense(FC_N, stride, lo, hi, i);
    fail_msg("%u is not a page count of flush_ceiling", value);
    return false;
}

/*
 * Thinning page counts by a stride alone drops 33 at stride 2 and 32 and 33
 * at stride 4: the resolution is lost exactly at Linux's ceiling. The counts
 * from two thirds to one and a half times the ceiling stay at every stride;
 * the others thin, the ends stay.
 */
static void test_thinning_keeps_the_ceiling_dense(void **state)
{
    struct grid_cost g = { 1000, 0, 10 };
    struct plan_request q = request(&g, 0, 9, FC_N);
    struct plan p;
    uint32_t lo, hi, stride, i;
    (void)state;
    plan_dense_range(fc_pages, FC_N, 33 * 2 / 3, 33 * 3 / 2, &lo, &hi);
    assert_int_equal(fc_pages[lo], 24);
    assert_int_equal(fc_pages[hi - 1], 48);
    for (stride = 2; stride <= 4; stride *= 2) {
        assert_true(fc_kept(stride, lo, hi, 32));
        assert_true(fc_kept(stride, lo, hi, 33));
        for (i = lo; i < hi; i++)
            assert_true(plan_kept_dense(FC_N, stride, lo, hi, i));
        /* elsewhere the stride thins */
        assert_false(fc_kept(stride, lo, hi, 2));
        assert_false(fc_kept(stride, lo, hi, stride == 2 ? 96 : 128));
        assert_true(fc_kept(stride, lo, hi, 1) && fc_kept(stride, lo, hi, 512));
    }
    assert_int_equal(plan_kept_dense_count(FC_N, 2, lo, hi), 17);
    assert_int_equal(plan_kept_dense_count(FC_N, 4, lo, hi), 14);
    /* the last resort, one page count alone, is the only one that drops them */
    assert_false(plan_kept_dense(FC_N, PLAN_FIRST_ONLY, lo, hi, lo));
    /* another ceiling moves the dense range with it */
    plan_dense_range(fc_pages, FC_N, 128 * 2 / 3, 128 * 3 / 2, &lo, &hi);
    assert_int_equal(fc_pages[lo], 96);
    assert_int_equal(fc_pages[hi - 1], 128);
    plan_dense_range(fc_pages, FC_N, 4096 * 2 / 3, 4096 * 3 / 2, &lo, &hi);
    assert_int_equal(lo, hi);

    /* the planner: columns thinned to stride 2, then 4; 32 and 33 measured each time */
    plan_dense_range(fc_pages, FC_N, 22, 49, &q.dense_lo, &q.dense_hi);
    q.thin_rows = false;
    for (stride = 2; stride <= 4; stride *= 2) {
        q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 1, stride);
        plan_make(&q, &p);
        assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
        assert_true(p.reasons & PLAN_FEWER_COLS);
        assert_int_equal(p.col_stride, stride);
        assert_int_equal(p.cols, plan_kept_dense_count(FC_N, stride, q.dense_lo, q.dense_hi));
        assert_true(p.estimate_ticks <= q.share_ticks);
        assert_true(plan_col_kept(&p, FC_N, 10) && plan_col_kept(&p, FC_N, 11)); /* 32, 33 */
    }
    /* the widest stride: the two ends and the whole dense range */
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 1, 64);
    plan_make(&q, &p);
    assert_int_equal(p.cols, 2 + (q.dense_hi - q.dense_lo));
    assert_true(plan_col_kept(&p, FC_N, 11));
    /* less: the dense range narrows from both edges, 28 to 40, then down to 32, 33, 34 */
    q.share_ticks--;
    plan_make(&q, &p);
    assert_int_equal(p.cols, 2 + 7);
    assert_true(p.estimate_ticks <= q.share_ticks);
    assert_int_equal(fc_pages[p.dense_lo], 28);
    assert_int_equal(fc_pages[p.dense_hi - 1], 40);
    assert_false(plan_col_kept(&p, FC_N, 7) || plan_col_kept(&p, FC_N, 15)); /* 24 and 48 */
    {
        struct grid_cost flat = { 1000, 0, 0 };
        struct plan_request q5 = q;
        q5.ctx = &flat;
        q5.share_ticks = (uint64_t)5 * 9 * (500 + 1000 * (PLAN_MIN_WARMUP + PLAN_FLOOR + 12));
        plan_make(&q5, &p);
        assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
        assert_int_equal(p.cols, 5); /* 1, 32, 33, 34, 512 */
        assert_true(plan_col_kept(&p, FC_N, 0) && plan_col_kept(&p, FC_N, 10) &&
                    plan_col_kept(&p, FC_N, 11) && plan_col_kept(&p, FC_N, 12) &&
                    plan_col_kept(&p, FC_N, FC_N - 1));
        /* then "1, ceiling, max" (issue 32): a crossover needs 3 counts, one page is none */
        q5.share_ticks = (uint64_t)4 * 9 * (500 + 1000 * (PLAN_MIN_WARMUP + PLAN_FLOOR + 12));
        plan_make(&q5, &p);
        assert_int_equal(p.reasons & PLAN_NO_FIT, 0);
        assert_int_equal(p.cols, 3);
        assert_true(plan_col_kept(&p, FC_N, 0) && plan_col_kept(&p, FC_N, 11) &&
                    plan_col_kept(&p, FC_N, FC_N - 1));
        /* never fewer: what does not fit is over its share at 1, 33, 512 */
        q5.share_ticks = (uint64_t)2 * 9 * (500 + 1000 * (PLAN_MIN_WARMUP + PLAN_FLOOR + 12));
        plan_make(&q5, &p);
        assert_true(p.reasons & PLAN_NO_FIT);
        assert_int_equal(p.cols, 3);
        assert_true(plan_col_kept(&p, FC_N, 11));
    }
}

/* The pilot: the extra iterations of the long run, free of the fixed part. */
static void test_pilot_fit(void **state)
{
    uint64_t c, fixed;
    (void)state;
    assert_int_equal(PLAN_PILOT_SHORT, 1);
    /* PLAN_PILOT_SHORT (1) iteration: 1000 fixed + 100; 10: 1000 + 10 x 100 */
    plan_pilot_fit(1100, 2000, 10, &c, &fixed);
    assert_int_equal(c, 100);
    assert_int_equal(fixed, 1000);
    plan_pilot_fit(1100, 26600, 256, &c, &fixed); /* a longer run: the same fit */
    assert_int_equal(c, 100);
    assert_int_equal(fixed, 1000);
    /* noise: a short run almost as slow as the long one: half the long run's mean at least */
    plan_pilot_fit(1900, 2000, 10, &c, &fixed);
    assert_int_equal(c, 100);
    /* noise: a long run no slower than the short one gives its mean, no fixed part */
    plan_pilot_fit(3000, 2000, 10, &c, &fixed);
    assert_int_equal(c, 200);
    assert_int_equal(fixed, 0);
}

/* Following the plan: a run slower than its estimate cuts the samples of the points left. */
static void test_a_slow_run_is_replanned(void **state)
{
    struct grid_cost g = { 1000, 0, 0 };
    struct plan_request q = request(&g, 0, 4, 5);
    struct plan p;
    struct plan_track t;
    uint64_t per_point, share;
    uint32_t before;
    (void)state;
    q.point_ticks = 0;
    q.share_ticks = share = plan_estimate(&q, 400, 1, 1);
    plan_make(&q, &p);
    assert_int_equal(p.samples, 400);
    per_point = plan_estimate(&q, 400, 1, 1) / 20;
    plan_track_init(&t, &q, &p, 0, share);
    assert_int_equal(t.npoints, 20);
    /* on pace: nothing changes */
    assert_false(plan_track_adapt(&t, 5, 5 * per_point));
    assert_int_equal(t.samples, 400);
    /* 10 points took 15 points' time: the rest, at that pace, would overrun the share: cut */
    assert_true(plan_track_adapt(&t, 10, 15 * per_point));
    assert_true(t.samples < 400 && t.samples >= PLAN_FLOOR);
    assert_int_equal(t.replans, 1);
    assert_true(t.warmup < 100);
    /* the rest at the new samples and a little under that pace fits what is left */
    before = t.samples;
    assert_false(plan_track_adapt(&t, 11, 15 * per_point + 3 * per_point * before / 800 * 9 / 10));
    /* never below the floor, however late */
    assert_true(plan_track_adapt(&t, 12, share * 10) || t.samples == PLAN_FLOOR);
    assert_int_equal(t.samples, PLAN_FLOOR);
    assert_false(plan_track_adapt(&t, 13, share * 20));
    assert_int_equal(t.samples, PLAN_FLOOR);
    /* without a plan, nothing is followed */
    q.share_ticks = 0;
    plan_make(&q, &p);
    plan_track_init(&t, &q, &p, 0, 0);
    assert_int_equal(t.npoints, 0);
    assert_false(plan_track_adapt(&t, 1, share * 100));
}

/* A pilot that overestimated: the points left get more samples, up to the configured count. */
static void test_a_fast_run_gets_its_samples_back(void **state)
{
    struct grid_cost g = { 1000, 0, 0 };
    struct plan_request q = request(&g, 0, 4, 5);
    struct plan p;
    struct plan_track t;
    uint64_t per_point, share;
    (void)state;
    q.point_ticks = 0;
    q.share_ticks = share = plan_estimate(&q, 400, 1, 1);
    plan_make(&q, &p);
    per_point = share / 20;
    plan_track_init(&t, &q, &p, 0, share);
    /* one point, at a tenth of its estimate: not enough to go by */
    assert_false(plan_track_adapt(&t, 1, per_point / 10));
    /* two points at a tenth: up, but never above the configured 1000 */
    assert_true(plan_track_adapt(&t, 2, per_point / 5));
    assert_int_equal(t.samples, 1000);
    assert_int_equal(t.warmup, 100);
    /* slightly ahead: not worth a change */
    plan_track_init(&t, &q, &p, 0, share);
    assert_false(plan_track_adapt(&t, 4, 4 * per_point * 9 / 10));
    assert_int_equal(t.samples, 400);
}

/* Shares: by weight of what is left, never below half the weight's part of the budget. */
static void test_budget_split(void **state)
{
    (void)state;
    assert_int_equal(plan_share(60000, 60000, 3, 10, 10), 18000);
    assert_int_equal(plan_share(60000, 60000, 0, 10, 10), 0);
    /* an earlier experiment spent less: the rest goes to those left */
    assert_int_equal(plan_share(60000, 50000, 2, 5, 10), 20000);
    /* the last one takes all that is left */
    assert_int_equal(plan_share(60000, 7000, 1, 1, 10), 7000);
    /* one that overran left nothing: half of its part of the budget all the same */
    assert_int_equal(plan_share(60000, 0, 2, 4, 10), 6000);
    assert_int_equal(plan_share(60000, 1000, 2, 4, 10), 6000);
    /* no overflow on large tick counts */
    assert_int_equal(plan_share(UINT64_MAX, UINT64_MAX, 3, 3, 3), UINT64_MAX);
}

static uint32_t log2_ceil(uint32_t n)
{
    uint32_t l = 0;
    while ((1u << l) < n)
        l++;
    return l;
}

/*
 * Work grows about as N log N in the CPU count N: the target counts are a
 * power series (about log2 N of them), each shootdown to k targets costs
 * about k (IPIs, acknowledgements, verification reads of every page by every
 * target), so one page count's column of points costs sum(k) < 3N; the lazy
 * experiment's log2 N counts each send to all N - 1. A plan at any N keeps
 * the ends of the series and fits its share.
 */
static void test_work_grows_as_n_log_n(void **state)
{
    uint32_t n;
    (void)state;
    for (n = 2; n <= 1024; n++) {
        uint32_t counts[40], nc = plan_power_series(n - 1, counts, 40), i;
        uint64_t sum = 0, lazy_work;
        struct grid_cost g = { 20000, 0, 0 };
        struct plan_request q;
        struct plan p;
        assert_true(nc >= 1 && nc <= log2_ceil(n) + 1);
        assert_int_equal(counts[0], 1);
        assert_int_equal(counts[nc - 1], n - 1);
        for (i = 0; i < nc; i++) {
            if (i)
                assert_true(counts[i] > counts[i - 1]);
            sum += counts[i];
        }
        assert_true(sum < 3ull * n); /* 1 + 2 + 4 + ... + 2^m < 2(n - 1), plus n - 1 */
        lazy_work = (uint64_t)(nc + 1) * (n - 1);
        assert_true(lazy_work <= (uint64_t)n * (log2_ceil(n) + 2));
        /* a planned grid of these counts: cost linear in k; the share of a fixed budget */
        g.per_row = 0;
        q = request(&g, 0, nc, 9);
        q.iter_ticks = cost;
        q.share_ticks = 60ull * 1000 * 1000 * 1000 / 10; /* 6 s at 1 GHz */
        g.base = 20000 + 2000ull * n; /* the dearest row's cost, every row: an upper bound */
        plan_make(&q, &p);
        if (!(p.reasons & PLAN_NO_FIT)) {
            assert_true(p.estimate_ticks <= q.share_ticks);
            assert_true(plan_kept(nc, p.row_stride, nc - 1)); /* the most targets stay */
        }
        assert_true(p.rows <= nc && p.rows >= 1);
    }
}


/* Ticks at 1 GHz in test_every_profile_plans_within_budget_s. */
#define GHZ_S(s) ((uint64_t)(s) * 1000000000ull)

/*
 * One iteration of shootdown_seq_vs_conc's point (row: target count of the
 * power series to 287, col: page count) as QEMU TCG pays it at 288 CPUs (a
 * 287-target shootdown about 100 ms; each target also reads the pages):
 * seq and conc, 350 us a target, 2 us a page a target, ticks at 1 GHz.
 */
static uint64_t tcg_288_cost(const void *ctx, uint32_t row, uint32_t col)
{
    static const uint64_t pages[] = { 1, 2, 4, 8, 16, 32, 33, 64, 512 };
    const uint32_t *targets = ctx;
    uint64_t k = targets[row];
    return 2 * (20000 + 350000 * k + 2000 * k * pages[col]);
}

/*
 * Issue 20, item 12: `profile=quick` at 288 CPUs under QEMU ran its
 * shootdown experiments as configured, past the 60 s of budget_s, and ended
 * ERROR while the planned default profile passed. Every profile, and any
 * budget_s a user sets, must be planned like the default: a share of the
 * run budget within budget_s, and a plan for the dearest experiment at 288
 * CPUs (an emulator's costs) that fits that share, or at least budget_s
 * (then measured at the floor, never aborted). The quick profile plans less
 * measuring than the default, the default less than full.
 */
static void test_every_profile_plans_within_budget_s(void **state)
{
    static const char *const runs[] = { "profile=quick", "profile=default", "profile=full",
                                        "profile=quick budget_s=30", "profile=default budget_s=30",
                                        "profile=full budget_s=40" };
    /* what runs at 288 CPUs under QEMU TCG (no PCID, no INVLPGB), in table order */
    static const char *const ids[] = { "ipi_roundtrip", "ipi_broadcast", "shootdown_seq_vs_conc",
                                       "shootdown_lazy", "flush_ceiling", "shootdown_contention" };
    uint32_t targets[40], nrows = plan_power_series(287, targets, 40), run, i, prev = 0;
    (void)state;
    for (run = 0; run < sizeof(runs) / sizeof(runs[0]); run++) {
        struct config cfg;
        struct msg_list msgs;
        uint64_t budget, left, hard;
        uint32_t wtotal = 0, wleft;
        memset(&msgs, 0, sizeof(msgs));
        config_defaults(&cfg);
        config_parse(&cfg, runs[run], strlen(runs[run]), "test", &msgs);
        config_finalize(&cfg);
        if (!cfg.run_budget_s)
            fail_msg("%s: run_budget_s 0, so nothing is planned", runs[run]);
        if (run < 3) { /* quick < default < full */
            assert_true(cfg.run_budget_s > prev);
            prev = cfg.run_budget_s;
        }
        budget = left = GHZ_S(cfg.run_budget_s);
        hard = GHZ_S(cfg.budget_s);
        for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
            wtotal += runner_plan_weight(ids[i]);
        wleft = wtotal;
        for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
            uint32_t w = runner_plan_weight(ids[i]);
            uint64_t share = plan_share_within(plan_share(budget, left, w, wleft, wtotal), hard);
            assert_true(share > 0);
            assert_true(share <= hard / 1000 * PLAN_HARD_STOP_PERMILLE);
            if (!strcmp(ids[i], "shootdown_seq_vs_conc")) {
                struct plan_request q;
                struct plan p;
                memset(&q, 0, sizeof(q));
                q.share_ticks = share;
                q.samples = cfg.samples;
                q.warmup = cfg.warmup;
                q.floor = PLAN_FLOOR;
                q.baseline_div = 4;
                q.nrows = nrows;
                q.ncols = 9;
                q.thin_rows = q.thin_cols = true;
                q.point_ticks = 50000000; /* waking 287 halted vCPUs */
                q.iter_ticks = tcg_288_cost;
                q.ctx = targets;
                plan_make(&q, &p);
                /* as configured it would overrun the hard stop: the failure of issue 20 */
                assert_true(p.full_ticks > hard);
                if (p.estimate_ticks > hard)
                    fail_msg("%s: at 288 CPUs the smallest plan takes %llu ms, budget_s is %u s",
                             runs[run], (unsigned long long)(p.estimate_ticks / 1000000),
                             cfg.budget_s);
                assert_true((p.reasons & PLAN_NO_FIT) || p.estimate_ticks <= share);
            }
            /* the worst case for the later ones: each spends all of its share */
            left = share < left ? left - share : 0;
            wleft -= w;
        }
    }
}

/*
 * The aarch64 experiments' pacing (plan_pace_allowance, plan_pace_more): each point gets an
 * equal part of what is left of the share and samples until it is spent, at least the floor,
 * at most the configured samples. Simulated point by point, points of growing cost: the
 * cheap ones get every configured sample, the costly ones fewer (never below the floor), and
 * together they keep to the share but for the floor's overrun.
 */
static void test_paced_points_use_their_share(void **state)
{
    const uint64_t share = 60000000; /* 60 ms */
    const uint32_t points = 10, configured = 1000;
    uint64_t now = 0, cost = 100; /* ticks a sample; doubles every point */
    uint32_t i, n, first = 0, last = 0;
    (void)state;
    for (i = 0; i < points; i++, cost *= 2) {
        uint64_t end = now + plan_pace_allowance(share, now, points - i);
        for (n = 0; plan_pace_more(n, PLAN_FLOOR, configured, now, end); n++)
            now += cost;
        assert_true(n >= PLAN_FLOOR && n <= configured);
        first = i == 0 ? n : first;
        last = n;
    }
    assert_int_equal(first, configured);          /* 100 ticks a sample: all 1000 fit */
    assert_true(last < configured / 2);           /* 51200 ticks a sample: a few hundred */
    if (now > share + PLAN_FLOOR * (cost / 2))
        fail_msg("10 paced points took %llu ticks of a %llu-tick share", (unsigned long long)now,
                 (unsigned long long)share);
    /* fewer configured than the floor: those, whatever the time */
    assert_false(plan_pace_more(5, PLAN_FLOOR, 5, 0, 1000));
    assert_true(plan_pace_more(4, PLAN_FLOOR, 5, 2000, 1000));
    /* the share spent: nothing left for a point beyond its floor */
    assert_int_equal(plan_pace_allowance(share, share + 1, 3), 0);
    assert_int_equal(plan_pace_allowance(share, share / 2, 3), share / 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_share_means_as_configured),
        cmocka_unit_test(test_a_grid_that_fits_is_not_reduced),
        cmocka_unit_test(test_a_reduced_plan_fits_its_share),
        cmocka_unit_test(test_rows_then_columns_are_thinned_at_the_floor),
        cmocka_unit_test(test_no_fit_only_below_the_floor),
        cmocka_unit_test(test_thinning_keeps_the_ceiling_dense),
        cmocka_unit_test(test_the_report_says_what_was_reduced),
        cmocka_unit_test(test_budget_split),
        cmocka_unit_test(test_pilot_fit),
        cmocka_unit_test(test_a_slow_run_is_replanned),
        cmocka_unit_test(test_a_fast_run_gets_its_samples_back),
        cmocka_unit_test(test_work_grows_as_n_log_n),
        cmocka_unit_test(test_every_profile_plans_within_budget_s),
        cmocka_unit_test(test_paced_points_use_their_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
