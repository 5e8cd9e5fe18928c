/*
 * Issue 32 on flush_ceiling's answer (core/run/crossover.c,
 * core/run/recommend_ceiling.c, core/run/recommend_order.c):
 *  - p*'s confidence from its interval's relative width, the grid's gaps
 *    included, not from the measured counts inside it: [28, 36] on the
 *    default grid is high, [128, 384] low, and a crossing at 33 on a grid
 *    of 1, 33 and 512 low (mutant crossover_span_confidence, which counts
 *    the counts: low, medium, high);
 *  - the recommended ceiling a range where the grid measured nothing
 *    between the last count INVLPG won and p* (mutant rec_ceiling_point);
 *  - a curve with fewer than 3 page counts named "not measured", with the
 *    run_budget_s that would measure it, and never used;
 *  - shootdown_order's saving per page count, 1 page first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/run/bootstrap.h"
#include "core/run/crossover.h"
#include "core/run/recommend.h"
#include "tests/host/support_boot.h"
#include "tests/host/support_host.h"
#include "tests/host/support_rec.h"

/* flush_ceiling's default page counts (core/exp/flush_ceiling.c) */
static const uint32_t fc_grid[] = { 1,  2,  4,  8,  12, 16, 20, 24,  28,  30,  32,
                                    33, 34, 36, 40, 48, 64, 96, 128, 256, 384, 512 };
#define FC_N (sizeof(fc_grid) / sizeof(fc_grid[0]))

static uint32_t curve_of(struct curve_point *c, const uint32_t *ps, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        c[i] = (struct curve_point){ .p = ps[i] };
    return n;
}

static void test_confidence_from_the_interval_width(void **state)
{
    struct curve_point c[FC_N];
    uint32_t n = curve_of(c, fc_grid, FC_N);
    static const uint32_t coarse[] = { 1, 33, 512 };
    (void)state;
    /* dense around 33: p* within 25 to 36, 1.44 times: high (it spanned 6 counts: "low") */
    assert_int_equal(crossover_width_confidence(c, n, 28, 36), CONF_HIGH);
    assert_int_equal(crossover_width_confidence(c, n, 32, 34), CONF_HIGH);
    /* 128 to 384: 97 to 384, 3.96 times: low (3 counts: "medium") */
    assert_int_equal(crossover_width_confidence(c, n, 128, 384), CONF_LOW);
    /* one count, but the one before is far: 65 to 96 (1.48) high, 129 to 256 (1.98) medium */
    assert_int_equal(crossover_width_confidence(c, n, 96, 96), CONF_HIGH);
    assert_int_equal(crossover_width_confidence(c, n, 256, 256), CONF_MEDIUM);
    assert_int_equal(crossover_width_confidence(c, n, 24, 48), CONF_LOW); /* 21 to 48 */
    /* no crossing in any replicate: sure it never crosses; open above the largest: low */
    assert_int_equal(crossover_width_confidence(c, n, BOOT_NONE, BOOT_NONE), CONF_HIGH);
    assert_int_equal(crossover_width_confidence(c, n, 384, BOOT_NONE), CONF_LOW);
    /* the grid of a budget's last step: a crossing at 33 lies anywhere from 2 */
    n = curve_of(c, coarse, 3);
    assert_int_equal(crossover_width_confidence(c, n, 33, 33), CONF_LOW);
}

/* The same through crossover_find(): a clean crossing at 33 measured at 1, 33 and 512 only. */
static void test_a_coarse_grid_is_not_confident(void **state)
{
    static const uint32_t coarse[] = { 1, 33, 512 };
    static uint64_t a[3][NS], b[3][NS];
    struct curve_point c[3];
    struct crossover x;
    uint32_t i;
    (void)state;
    for (i = 0; i < 3; i++) {
        uint64_t inv = 100 + 10ull * coarse[i];
        c[i] = (struct curve_point){ coarse[i], inv, inv, inv, 400, 400, 400, 0, 0, NULL, NULL,
                                     0 };
        spread_samples(a[i], inv, 1, 5);
        spread_samples(b[i], 400, 1, 8);
        c[i].a_kept = a[i];
        c[i].b_kept = b[i];
        c[i].nkept = NS;
    }
    crossover_find(c, 3, &support_boot_work, 1234, 1, &x);
    assert_true(x.found);
    assert_int_equal(x.p_star, 33);
    assert_int_equal(x.p_low, 33);
    assert_int_equal(x.p_high, 33);
    assert_int_equal(x.conf, CONF_LOW); /* "one count": high, before issue 32 */
}

/* A local curve: INVLPG 100 + 10 p against a full flush of `full`, on `grid`. */
static void local_curve(struct experiment_record *rec, const uint32_t *grid, uint32_t n,
                        uint64_t full)
{
    uint32_t i, run;
    for (i = 0; i < n; i++) {
        run = record_paired_run(rec);
        add_at(rec, 0, "contiguous", "invlpg", grid[i], 100 + 10ull * grid[i], 1, run);
        add_at(rec, 0, "contiguous", "full_cr3", grid[i], full, 1, run);
    }
}

/*
 * The ceiling is a range where the grid is coarse: the full flush wins from
 * 96 pages, INVLPG at 64, nothing measured between: "ceiling 64 to 95",
 * value 64, value_high 95. On the dense grid around 33 it is one number.
 */
static void test_ceiling_range_where_the_grid_is_coarse(void **state)
{
    static const uint32_t grid[] = { 1, 16, 32, 33, 34, 48, 64, 96, 128, 512 };
    struct experiment_record rec;
    struct recommendations recs;
    const struct recommendation *e;
    (void)state;
    new_record(&rec, "flush_ceiling", 2 * 10);
    local_curve(&rec, grid, 10, 100 + 10 * 80); /* 900: cheaper from 96 (1060) */
    e = compute(&rec, &recs, 0);
    print_message("# %s\n", e->verdict);
    assert_true(e->enough);
    assert_int_equal(e->value, 64);
    assert_true(e->has_value_high);
    assert_int_equal(e->value_high, 95);
    assert_non_null(strstr(e->verdict, "ceiling 64 to 95: "));
    assert_non_null(strstr(e->verdict, "a full flush from 96"));
    release_record(&rec);
    /* dense: cheaper from 33 (430 < 431), INVLPG at 32: ceiling 32, no range */
    new_record(&rec, "flush_ceiling", 2 * 10);
    local_curve(&rec, grid, 10, 425);
    e = compute(&rec, &recs, 0);
    assert_int_equal(e->value, 32);
    assert_false(e->has_value_high);
    assert_non_null(strstr(e->verdict, "ceiling 32: "));
    release_record(&rec);
}

/*
 * A budget left the 3-target curve with one page count (and its summary
 * says what would measure it): named "not measured" with the knob, never
 * "no p*", and the ceiling rests on the measured curves.
 */
static void test_curves_not_measured_are_named(void **state)
{
    static const uint32_t grid[] = { 1, 16, 32, 33, 34, 48, 64 };
    struct experiment_record rec;
    struct recommendations recs;
    const struct recommendation *e;
    struct result_point *sum;
    uint32_t run;
    (void)state;
    new_record(&rec, "flush_ceiling", 2 * 7 + 2);
    assert_true(point_list_reserve(&rec.summary, 2));
    local_curve(&rec, grid, 7, 425);
    run = record_paired_run(&rec);
    add_at(&rec, 3, "contiguous", "invlpg", 1, 5000, 1, run);
    add_at(&rec, 3, "contiguous", "full_cr3", 1, 400, 1, run);
    sum = point_list_add(&rec.summary);
    point_param_str(sum, "kind", "shootdown");
    point_param_num(sum, "targets", 3);
    point_value(sum, "pages_measured", 1000);
    point_value(sum, "needs_run_budget_s", 130000);
    e = compute(&rec, &recs, 0);
    print_message("# %s\n", e->verdict);
    assert_true(e->enough);
    assert_int_equal(e->value, 32);
    assert_non_null(strstr(e->verdict, "local p* = 33"));
    assert_non_null(
        strstr(e->verdict, "3 targets not measured (needs run_budget_s=130 or profile=full)"));
    assert_null(strstr(e->verdict, "3 targets no p*"));
    assert_null(strstr(e->verdict, "3 targets p*"));
    point_list_release(&rec.summary);
    release_record(&rec);
}

/*
 * shootdown_order: the saving per page count at the most targets, 1 page
 * first; the grid's points alone (a cluster-mode pair at 1 page, beside
 * the grid, made 1 page stand twice).
 */
static void test_order_saving_per_page_count(void **state)
{
    static const uint32_t pages[] = { 512, 1, 33, 1 }; /* measured in any order */
    static const uint32_t saving[] = { 5, 30, 10, 70 };
    struct experiment_record rec;
    struct recommendations recs;
    const struct recommendation *e;
    uint32_t p, i;
    (void)state;
    new_record(&rec, "shootdown_seq_vs_conc", 8);
    for (p = 0; p < 4; p++) {
        uint64_t seq[NS], conc[NS], base = 10000 + 1000 * pages[p];
        uint32_t run = record_paired_run(&rec);
        const char *flush = pages[p] > 33 ? "cr3_reload" : "invlpg";
        struct result_point *pt;
        struct stats s;
        spread_samples(seq, base, base / 4, 5);
        for (i = 0; i < NS; i++)
            conc[i] = seq[i] * (100 - saving[p]) / 100;
        for (i = 0; i < 2; i++) {
            uint64_t sorted[NS];
            memcpy(sorted, i ? conc : seq, sizeof(sorted));
            stats_from_array(sorted, NS, &s);
            pt = point_list_add(&rec.results);
            point_param_str(pt, "mode", i ? "conc" : "seq");
            point_param_num(pt, "targets", 3);
            point_param_num(pt, "pages", pages[p]);
            point_param_str(pt, "flush", flush);
            if (p == 3)
                point_param_str(pt, "ipi_mode", "x2apic_cluster");
            point_metric(pt, "latency", &s);
            point_keep_samples(&rec, pt, i ? conc : seq, NS, run);
        }
    }
    e = compute(&rec, &recs, 2);
    print_message("# %s\n", e->verdict);
    assert_int_equal(e->nparts, 3);
    assert_int_equal(e->parts[0].pages, 1);
    assert_int_equal(e->parts[1].pages, 33);
    assert_int_equal(e->parts[2].pages, 512);
    assert_string_equal(e->parts[2].flush, "cr3_reload");
    assert_int_equal(e->parts[0].saving_millipct, 30000);
    assert_true(e->parts[0].has_interval);
    assert_true(e->parts[0].low <= 30000 && e->parts[0].high >= 30000);
    assert_non_null(strstr(e->verdict, "by page count at 3 targets: 1: 30.0%, 33: 10.0%, "
                                       "512: 5.0%"));
    release_record(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_confidence_from_the_interval_width),
        cmocka_unit_test(test_a_coarse_grid_is_not_confident),
        cmocka_unit_test(test_ceiling_range_where_the_grid_is_coarse),
        cmocka_unit_test(test_curves_not_measured_are_named),
        cmocka_unit_test(test_order_saving_per_page_count),
    };
    host_init();
    return cmocka_run_group_tests_name("ceiling", tests, support_boot_setup,
                                       support_boot_teardown);
}
