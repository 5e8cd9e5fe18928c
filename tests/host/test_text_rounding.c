/*
 * The .txt summary's time cells (core/report/point_views.c view_cell_time, used by
 * both architectures' summaries): rounded to the digit shown, never truncated (issue 13,
 * finding 9: 34,902 ns printed as "34 us"), and the recommendations' tick counts as time
 * (core/report/time_text.c, issue 31).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/point_views.h"
#include "core/report/time_text.h"
#include "tests/host/support_host.h"

/* The p50 cell the generic point view prints for `ns` (a 1 GHz TSC: one tick per ns). */
static void cell_for(uint64_t ns, char *out, size_t cap)
{
    struct experiment_record e;
    struct result_point *p;
    struct stats st = { .n = 1000, .min = ns, .p50 = ns, .p90 = ns, .p99 = ns, .max = ns,
                        .mean = ns };
    struct strbuf sb;
    char buf[256], *at;
    memset(&e, 0, sizeof(e));
    assert_true(point_list_reserve(&e.results, 1));
    p = point_list_add(&e.results);
    point_param_num(p, "k", 1);
    point_metric(p, "latency", &st);
    sb_init_fixed(&sb, buf, sizeof(buf));
    view_points(&sb, &e.results, 1000000000ull, 4, false);
    at = strstr(buf, "latency p50");
    assert_non_null(at);
    at += strlen("latency p50");
    while (*at == ' ')
        at++;
    snprintf(out, cap, "%.*s", (int)(strstr(at, " p99") - at), at);
    point_list_release(&e.results);
}

static void test_rounds_not_truncates(void **state)
{
    static const struct {
        uint64_t ns;
        const char *text;
    } cases[] = {
        { 9999, "9999 ns" },       { 34902, "34.9 us" },     { 34950, "35.0 us" },
        { 99949, "99.9 us" },      { 99950, "100 us" },      { 518373, "518 us" },
        { 518500, "519 us" },      { 9999499, "9999 us" },   { 9999500, "10.0 ms" },
        { 12345678, "12.3 ms" },   { 99950000, "100 ms" },   { 1500000000, "1500 ms" },
    };
    char cell[64];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cell_for(cases[i].ns, cell, sizeof(cell));
        if (strcmp(cell, cases[i].text) != 0)
            fail_msg("%llu ns: \"%s\", expected \"%s\"", (unsigned long long)cases[i].ns, cell,
                     cases[i].text);
    }
}

/*
 * Issue 31: the app's summary gives the recommendations' tick counts as time with the ticks
 * beside them, as tlbscope-report does ("saves 193053 ticks per shootdown" before).
 */
static void test_prose_ticks_as_time(void **state)
{
    static const struct {
        uint64_t hz;
        const char *in, *out;
    } cases[] = {
        { 1000000000, "skipping 3 lazy CPUs saves 82236 ticks per shootdown, by the medians (95% "
                      "interval 79737 to 99393 ticks); each pays a catch-up of 2751 ticks (median)",
          "skipping 3 lazy CPUs saves 82.2 us (82236 ticks) per shootdown, by the medians (95% "
          "interval 79.7 us to 99.4 us (79737 to 99393 ticks)); each pays a catch-up of 2751 ns "
          "(2751 ticks) (median)" },
        { 2000000000, "immediate INVPCID costs 7190 ticks per page more than deferring at 33 pages "
                      "(95% interval 5344 to 9360 ticks/page)",
          "immediate INVPCID costs 3595 ns (7190 ticks) per page more than deferring at 33 pages "
          "(95% interval 2672 ns to 4680 ns/page (5344 to 9360 ticks/page))" },
        { 1000000000, "saves -5000 ticks; -0.8% at 3 targets; 12 ticksy, v2 ticks",
          "saves -5000 ns (-5000 ticks); -0.8% at 3 targets; 12 ticksy, v2 ticks" },
        { 0, "saves 82236 ticks", "saves 82236 ticks" }, /* no TSC rate: as it is */
    };
    char buf[512];
    struct strbuf sb;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sb_init_fixed(&sb, buf, sizeof(buf));
        prose_ticks_as_time(&sb, cases[i].in, cases[i].hz);
        assert_false(sb.truncated);
        assert_string_equal(buf, cases[i].out);
    }
}

/*
 * A value in ticks as time in the point table: aarch64 pti_double_invalidation's `extra`
 * (kpti's p50 minus no_kpti's) keeps its sign, a negative mean of x86's breakdown reads 0.
 */
static void test_time_values(void **state)
{
    static const struct {
        const char *key;
        int64_t milli;
        const char *text;
    } cases[] = {
        { "extra", 531000, " extra 531 ns" },           { "extra", -531000, " extra -531 ns" },
        { "extra_per_page", -34902000, " extra_per_page -34.9 us" },
        { "delivery_ack_mean", -80000, " delivery_ack_mean 0 ns" },
        { "ratio", 1345, " ratio 1.345" },
    };
    struct experiment_record e;
    char buf[256];
    struct strbuf sb;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct result_point *p;
        memset(&e, 0, sizeof(e));
        assert_true(point_list_reserve(&e.results, 1));
        p = point_list_add(&e.results);
        point_param_num(p, "pages", 1);
        point_value(p, cases[i].key, cases[i].milli);
        sb_init_fixed(&sb, buf, sizeof(buf));
        view_points(&sb, &e.results, 1000000000ull, 4, true);
        if (!strstr(buf, cases[i].text))
            fail_msg("%s %lld: \"%s\", expected \"%s\"", cases[i].key, (long long)cases[i].milli,
                     buf, cases[i].text);
        point_list_release(&e.results);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_rounds_not_truncates),
                                        cmocka_unit_test(test_prose_ticks_as_time),
                                        cmocka_unit_test(test_time_values) };
    host_init(); /* the allocator the point lists use */
    return cmocka_run_group_tests_name("text_rounding", tests, NULL, NULL);
}
