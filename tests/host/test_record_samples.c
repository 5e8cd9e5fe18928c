/*
 * What a run adds to each metric (issue 31, core/run/record_samples.c), and
 * how the report writes it:
 *   - between record_samples_begin() and _end() every statistic an
 *     experiment computes carries the 95% interval of its p50, counted in
 *     method.bootstrap; outside them none;
 *   - keep_samples=on keeps each metric's samples in the order measured
 *     (mutant samples_kept_sorted writes them sorted), in room taken before
 *     the experiment; what does not fit is left out and noted;
 *   - the JSON metric: "p50_ci95": {low, high}, null below
 *     BOOT_MEDIAN_MIN_N samples, "samples" only with keep_samples=on; and
 *     method.bootstrap {seed, resamples, ...}.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/mem.h"
#include "core/run/bootstrap.h"
#include "core/run/config.h"
#include "core/run/record_samples.h"
#include "core/run/run.h"
#include "tests/host/support_host.h"
#include "tests/host/support_report.h"

#define N 12

static struct run *run_with(const char *args)
{
    struct run *r = mem_zalloc(sizeof(*r));
    assert_non_null(r);
    config_defaults(&r->cfg);
    config_parse(&r->cfg, args, strlen(args), "command line", &r->warnings);
    config_finalize(&r->cfg);
    str_copy(r->run_id, sizeof(r->run_id), "20261202-120000-amd-f19m01-0001");
    r->tsc_hz = 1000000000ull;
    r->method.order_seed = 31;
    r->method.order_seed_set = true;
    return r;
}

/* n samples, not in order: 1000 + (7 i mod n) * 10 */
static void measured(uint64_t *v, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        v[i] = 1000 + (uint64_t)(i * 7 % n) * 10;
}

static void test_every_metric_gets_its_interval(void **state)
{
    struct run *r = run_with("profile=quick");
    struct experiment_record rec;
    struct stats st;
    uint64_t v[N], low, high;
    (void)state;
    memset(&rec, 0, sizeof(rec));
    record_samples_begin(r, &rec);
    measured(v, N);
    stats_from_array(v, N, &st);
    assert_true(st.has_p50_ci);
    assert_null(st.samples); /* keep_samples is off */
    assert_true(boot_median((int64_t[BOOT_REPLICATES]){ 0 }, v, N, 31, &low, &high));
    assert_int_equal(st.p50_low, low); /* boot_median() of the sorted samples, the run's seed */
    assert_int_equal(st.p50_high, high);
    assert_true(st.p50_low <= st.p50 && st.p50 <= st.p50_high);
    measured(v, BOOT_MEDIAN_MIN_N - 1);
    stats_from_array(v, BOOT_MEDIAN_MIN_N - 1, &st);
    assert_false(st.has_p50_ci); /* too few for 95% */
    record_samples_end(r, &rec);
    assert_int_equal(r->method.p50_intervals, 1);
    measured(v, N);
    stats_from_array(v, N, &st);
    assert_false(st.has_p50_ci); /* outside an experiment: no hook */
    assert_int_equal(rec.nnotes, 0);
    mem_free(r);
}

static void test_kept_samples_in_the_order_measured(void **state)
{
    struct run *r = run_with("profile=quick samples=12 keep_samples=on");
    struct experiment_record rec;
    struct stats st[POINT_MAX_METRICS + 1];
    uint64_t v[N], given[N];
    uint32_t i;
    (void)state;
    memset(&rec, 0, sizeof(rec));
    assert_true(point_list_reserve(&rec.results, 1)); /* room: 1 point x 5 metrics x 12 */
    record_samples_begin(r, &rec);
    for (i = 0; i < POINT_MAX_METRICS + 1; i++) {
        measured(v, N);
        v[0] += i; /* each list its own */
        memcpy(given, v, sizeof(v));
        stats_from_array(v, N, &st[i]);
        if (i < POINT_MAX_METRICS) {
            assert_non_null(st[i].samples);
            assert_memory_equal(st[i].samples, given, sizeof(given)); /* not sorted */
        } else {
            assert_null(st[i].samples); /* the sixth list does not fit */
        }
    }
    assert_int_equal(st[0].samples[0], 1000); /* still there: the room is the run's */
    record_samples_end(r, &rec);
    assert_int_equal(rec.samples_not_kept, 1);
    assert_int_equal(rec.nnotes, 1);
    assert_non_null(strstr(rec.notes[0], "keep_samples: the samples of 1 metrics did not fit"));
    point_list_release(&rec.results);
    mem_free(r);
}

/* The JSON of one point with a metric of N samples and one of too few, as the writer puts it. */
static json_t *written_metrics(const char *args, json_t **root_out)
{
    struct run *r = run_with(args);
    struct experiment_record *rec = mem_zalloc(sizeof(*rec));
    struct result_point *p;
    struct stats st, few;
    uint64_t v[N];
    json_t *root, *exp;
    assert_non_null(rec);
    rec->id = "ipi_broadcast";
    rec->title = "t";
    rec->ran = true;
    assert_true(point_list_reserve(&rec->results, 1));
    record_samples_begin(r, rec);
    measured(v, N);
    stats_from_array(v, N, &st);
    measured(v, 3);
    stats_from_array(v, 3, &few);
    record_samples_end(r, rec);
    p = point_list_add(&rec->results);
    point_param_num(p, "targets", 1);
    point_metric(p, "latency", &st);
    point_metric(p, "baseline", &few);
    r->experiments = rec;
    r->experiment_count = 1;
    root = support_report_json(r, NULL);
    *root_out = root;
    mem_free(r);
    exp = json_array_get(json_object_get(root, "experiments"), 0);
    return json_object_get(json_array_get(json_object_get(exp, "results"), 0), "metrics");
}

static void test_report_shape(void **state)
{
    json_t *root, *m, *lat, *ci, *samples, *boot;
    (void)state;
    m = written_metrics("profile=quick", &root);
    lat = json_object_get(m, "latency");
    ci = json_object_get(lat, "p50_ci95");
    assert_true(json_is_object(ci));
    assert_true(json_integer_value(json_object_get(ci, "low")) <=
                json_integer_value(json_object_get(lat, "p50")));
    assert_true(json_integer_value(json_object_get(ci, "high")) >=
                json_integer_value(json_object_get(lat, "p50")));
    assert_null(json_object_get(lat, "samples"));
    /* 3 samples: the key is there, null */
    ci = json_object_get(json_object_get(m, "baseline"), "p50_ci95");
    assert_non_null(ci);
    assert_true(json_is_null(ci));
    boot = json_object_get(json_object_get(root, "method"), "bootstrap");
    assert_int_equal(json_integer_value(json_object_get(boot, "seed")), 31);
    assert_int_equal(json_integer_value(json_object_get(boot, "resamples")), BOOT_REPLICATES);
    assert_int_equal(json_integer_value(json_object_get(boot, "min_samples")), BOOT_MEDIAN_MIN_N);
    assert_int_equal(json_integer_value(json_object_get(boot, "intervals")), 1);
    json_decref(root);

    m = written_metrics("profile=quick keep_samples=on", &root);
    samples = json_object_get(json_object_get(m, "latency"), "samples");
    assert_int_equal(json_array_size(samples), N);
    assert_int_equal(json_integer_value(json_array_get(samples, 1)), 1070); /* 1000 + 7 * 10 */
    assert_int_equal(json_array_size(json_object_get(json_object_get(m, "baseline"), "samples")),
                     3);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_metric_gets_its_interval),
        cmocka_unit_test(test_kept_samples_in_the_order_measured),
        cmocka_unit_test(test_report_shape),
    };
    host_init();
    return cmocka_run_group_tests_name("record_samples", tests, NULL, NULL);
}
