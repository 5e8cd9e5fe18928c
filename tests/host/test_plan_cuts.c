/*
 * Issue 32, part A: when the plan cuts, Linux's answer stays
 * (core/run/plan.h, core/exp/flush_ceiling_plan.c).
 *  - shootdown_seq_vs_conc thins page counts, not (pages, flush) columns:
 *    INVPCID single-context, a variant, goes first, every flush of a kept
 *    count stays, and the ceiling and 512 pages (Linux's CR3 write) are
 *    kept by every plan;
 *  - flush_ceiling leaves curves out first (working set 64, then the most
 *    targets), then thins page counts down to "1, ceiling, 512", then more
 *    curves, never going below 3 counts a curve;
 *  - what a cut grid says beside its status, and the least a budget must
 *    allow so that no curve is left out;
 *  - which page count refines a coarse crossing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/exp/flush_ceiling.h"
#include "core/run/plan.h"
#include "tests/host/support_host.h"

/* shootdown_seq_vs_conc's page counts at ceiling 33 (exp_page_counts()) */
static const uint32_t sc_pages[] = { 1, 2, 4, 8, 16, 32, 33, 64, 512 };
#define SC_N 9
#define SC_CEIL 6 /* 33 */
static const uint8_t sc_variants[SC_N] = { 1, 1, 1, 1, 1, 1, 1, 2, 2 };

/* an iteration: 1000 a target count row, 10 a page, per flush variant */
static uint64_t sc_cost(const void *ctx, uint32_t row, uint32_t col)
{
    (void)ctx;
    return (1000 + 1000ull * row + 10ull * sc_pages[col]) * sc_variants[col];
}

static uint64_t sc_cost_lean(const void *ctx, uint32_t row, uint32_t col)
{
    (void)ctx;
    return 1000 + 1000ull * row + 10ull * sc_pages[col];
}

static struct plan_request sc_request(uint32_t rows)
{
    struct plan_request q;
    memset(&q, 0, sizeof(q));
    q.samples = 1000;
    q.warmup = 100;
    q.floor = PLAN_FLOOR;
    q.baseline_div = 4;
    q.nrows = rows;
    q.ncols = SC_N;
    q.col_variants = sc_variants;
    q.thin_rows = q.thin_cols = true;
    q.dense_lo = q.anchor = SC_CEIL;
    q.dense_hi = SC_CEIL + 1;
    q.point_ticks = 500;
    q.iter_ticks = sc_cost;
    q.iter_ticks_lean = sc_cost_lean;
    return q;
}

static void test_seq_conc_thins_page_counts_and_keeps_linux(void **state)
{
    struct plan_request q = sc_request(4);
    struct plan p;
    struct plan_summary s;
    char text[200];
    uint64_t lean_all;
    uint32_t c;
    (void)state;
    /* just below the floor with every variant: the variant goes, nothing else */
    q.share_ticks = plan_estimate(&q, PLAN_FLOOR, 1, 1) - 1;
    plan_make(&q, &p);
    assert_int_equal(p.reasons & ~PLAN_FEWER_SAMPLES, PLAN_FEWER_VARIANTS);
    assert_true(p.lean);
    assert_int_equal(p.rows, 4);
    assert_int_equal(p.cols, SC_N);
    plan_summarize(&q, &p, 1, 2, &s);
    assert_int_equal(s.points_planned, 4 * SC_N * 2); /* one flush a page count */
    s.cols_name = "page counts";
    s.variants_name = "invpcid_single_context";
    assert_true(plan_status_detail(&s, text, sizeof(text)));
    assert_string_equal(text, "reduced: without invpcid_single_context");
    lean_all = plan_estimate_plan(&q, &p);
    /* much less: rows and page counts by stride; the ceiling and the ends at every stride */
    for (q.share_ticks = lean_all; q.share_ticks > lean_all / 64; q.share_ticks /= 2) {
        plan_make(&q, &p);
        if (p.reasons & PLAN_NO_FIT)
            break;
        assert_true(plan_col_kept(&p, SC_N, 0));
        assert_true(plan_col_kept(&p, SC_N, SC_CEIL));
        assert_true(plan_col_kept(&p, SC_N, SC_N - 1));
        assert_true(p.estimate_ticks <= q.share_ticks);
    }
    /* the least: the most targets, at 1, 33 and 512 pages; never one page alone */
    q.share_ticks = 1;
    plan_make(&q, &p);
    assert_true(p.reasons & PLAN_NO_FIT);
    assert_int_equal(p.rows, 1);
    assert_int_equal(p.cols, 3);
    for (c = 0; c < SC_N; c++)
        assert_int_equal(plan_col_kept(&p, SC_N, c), c == 0 || c == SC_CEIL || c == SC_N - 1);
    plan_summarize(&q, &p, 1, 2, &s);
    assert_int_equal(s.points_planned, 1 * 3 * 2);
    /* what every row at 1, 33 and 512 costs at the floor, without the variant */
    assert_int_equal(plan_estimate_least(&q),
                     4 * 3 * 500 + (uint64_t)(PLAN_MIN_WARMUP + PLAN_FLOOR + PLAN_FLOOR / 4) *
                                       (4 * (1000 + 10 + 1000 + 330 + 1000 + 5120) +
                                        1000 * 3 * (0 + 1 + 2 + 3)));
}

/* flush_ceiling's grid at 4 CPUs: kinds 0, 1, 3 x sets 64, 512, 2048 contiguous, 512 cold */
static const uint32_t fc_kinds[] = { 0, 1, 3 };
static const struct fc_set fc_sets[] = { { WS_CONTIGUOUS, 64 }, { WS_CONTIGUOUS, 512 },
                                         { WS_CONTIGUOUS, 2048 }, { WS_SCATTERED, 512 } };
#define ROW(k, s) ((k) * 4 + (s))

static void test_flush_ceiling_rows_ranked(void **state)
{
    uint8_t rank[FC_MAX_ROWS];
    uint32_t core, n, i;
    static const uint8_t want[] = {
        ROW(0, 1), ROW(1, 1), ROW(0, 3), ROW(1, 3), ROW(0, 2), ROW(1, 2), /* the core */
        ROW(2, 1), ROW(2, 3), ROW(2, 2),                                  /* 3 targets */
        ROW(0, 0), ROW(1, 0), ROW(2, 0),                                  /* working set 64 */
    };
    (void)state;
    n = fc_rank_rows(fc_kinds, 3, fc_sets, 4, 512, 64, rank, &core);
    assert_int_equal(n, 12);
    assert_int_equal(core, 6);
    for (i = 0; i < n; i++)
        assert_int_equal(rank[i], want[i]);
    /* two CPUs: one target kind, so only working set 64 goes before the page counts */
    n = fc_rank_rows(fc_kinds, 2, fc_sets, 4, 512, 64, rank, &core);
    assert_int_equal(n, 8);
    assert_int_equal(core, 6);
    assert_int_equal(rank[0], ROW(0, 1));
    assert_int_equal(rank[7], ROW(1, 0));
}

/* one iteration of a flush_ceiling point: 100 a page, 1000 a row (all rows alike) */
static uint64_t fc_cost(const void *ctx, uint32_t row, uint32_t col)
{
    (void)ctx;
    (void)row;
    return 1000 + 100ull * fc_pages_default[col];
}

static void test_flush_ceiling_keeps_three_counts(void **state)
{
    uint8_t rank[FC_MAX_ROWS];
    struct plan_request q;
    struct plan p;
    struct plan_summary s;
    uint32_t core, r, c, rows_before_cols = 0;
    uint64_t share;
    char text[200];
    (void)state;
    memset(&q, 0, sizeof(q));
    fc_rank_rows(fc_kinds, 3, fc_sets, 4, 512, 64, rank, &core);
    q.samples = 50;
    q.warmup = 5;
    q.floor = PLAN_FLOOR;
    q.nrows = 12;
    q.ncols = FC_MAX_P;
    q.thin_rows = q.thin_cols = true;
    q.row_order = rank;
    q.rows_core = core;
    plan_dense_range(fc_pages_default, FC_MAX_P, 22, 49, &q.dense_lo, &q.dense_hi);
    q.anchor = 11; /* 33 */
    q.point_ticks = 500;
    q.iter_ticks = fc_cost;
    /* shrinking shares: rows first (down to the core), then page counts, then rows again */
    for (share = plan_estimate(&q, 50, 1, 1) - 1; share > 1000; share = share * 9 / 10) {
        q.share_ticks = share;
        plan_make(&q, &p);
        if (p.cols == FC_MAX_P)
            rows_before_cols = p.rows;
        if (p.cols < FC_MAX_P)
            assert_true(p.rows >= core || p.cols == 3); /* columns go only once rows did */
        assert_true(p.cols >= 3);
        assert_true(plan_col_kept(&p, FC_MAX_P, 0) && plan_col_kept(&p, FC_MAX_P, 11) &&
                    plan_col_kept(&p, FC_MAX_P, FC_MAX_P - 1));
        /* the rows kept are the ranking's first */
        for (r = 0; r < 12; r++)
            assert_int_equal(plan_row_kept(&p, 12, rank[r]), r < p.rows);
        if (p.rows < core)
            assert_int_equal(p.cols, 3);
        if (p.reasons & PLAN_NO_FIT)
            break;
        assert_true(p.estimate_ticks <= q.share_ticks);
    }
    assert_int_equal(rows_before_cols, core); /* W=64 and 3 targets went before any count */
    assert_true(p.reasons & PLAN_NO_FIT);
    assert_int_equal(p.rows, 1);
    assert_true(plan_row_kept(&p, 12, ROW(0, 1))); /* local, working set 512, contiguous */
    for (c = 0; c < FC_MAX_P; c++)
        assert_int_equal(plan_col_kept(&p, FC_MAX_P, c), c == 0 || c == 11 || c == FC_MAX_P - 1);
    plan_summarize(&q, &p, 1, 2, &s);
    s.rows_name = "curves";
    s.cols_name = "page counts";
    s.points_added = 12;
    assert_true(plan_status_detail(&s, text, sizeof(text)));
    assert_string_equal(text, "reduced: 3 of 22 page counts, 1 of 12 curves; 12 points added");
    /* not measured (ERROR) or not cut: nothing beside the status */
    s.measured = false;
    assert_false(plan_status_detail(&s, text, sizeof(text)));
    assert_string_equal(text, "");
}

static void test_refine_between(void **state)
{
    (void)state;
    assert_int_equal(fc_refine_between(34, 512), 128); /* the grid's nearest to 132 */
    assert_int_equal(fc_refine_between(1, 33), 8);     /* to 5.7: 8 (1.40) before 4 (1.43) */
    assert_int_equal(fc_refine_between(64, 96), 78);   /* none between on the grid */
    assert_int_equal(fc_refine_between(4, 8), 6);
    assert_int_equal(fc_refine_between(32, 33), 0);
    assert_int_equal(fc_refine_between(40, 48), 0); /* within a quarter */
    assert_int_equal(fc_refine_between(0, 33), 0);  /* no count before p* */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seq_conc_thins_page_counts_and_keeps_linux),
        cmocka_unit_test(test_flush_ceiling_rows_ranked),
        cmocka_unit_test(test_flush_ceiling_keeps_three_counts),
        cmocka_unit_test(test_refine_between),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
