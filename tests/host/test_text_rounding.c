/*
 * The .txt summary's time cells (core/report/report_views.c cell_time, used by
 * report_write_text): rounded to the digit shown, never truncated (issue 13,
 * finding 9: 34,902 ns printed as "34 us").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/report_views.h"
#include "tests/host/support_host.h"

/* The p50 cell the generic point view prints for `ns` (a 1 GHz TSC: one tick per ns). */
static void cell_for(uint64_t ns, char *out, size_t cap)
{
    static struct run r;
    struct experiment_record e;
    struct result_point *p;
    struct stats st = { .n = 1000, .min = ns, .p50 = ns, .p90 = ns, .p99 = ns, .max = ns,
                        .mean = ns };
    struct strbuf sb;
    char buf[256], *at;
    memset(&r, 0, sizeof(r));
    memset(&e, 0, sizeof(e));
    r.tsc_hz = 1000000000ull;
    assert_true(point_list_reserve(&e.results, 1));
    p = point_list_add(&e.results);
    point_param_num(p, "k", 1);
    point_metric(p, "latency", &st);
    sb_init_fixed(&sb, buf, sizeof(buf));
    report_view_points(&r, &e, &e.results, &sb, 4);
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

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_rounds_not_truncates) };
    host_init(); /* the allocator the point lists use */
    return cmocka_run_group_tests_name("text_rounding", tests, NULL, NULL);
}
