/*
 * One metric of a point (experiments[].results[].metrics.NAME): nearest-rank
 * statistics, the 95% interval of its p50 (schema 3) and, with
 * keep_samples=on, its samples (reports/SCHEMA.md, "Version 3").
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/bootstrap.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

static const char *const stat_keys[] = { "n", "min", "p50", "p90", "p99", "max", "mean", NULL };
enum { S_N, S_MIN, S_P50, S_P90, S_P99, S_MAX, S_MEAN, S_COUNT };

/*
 * Nearest-rank statistics (core/lib/stats.h): each percentile is a measured
 * sample. p90 and p99 are optional: a writer of issue 20 on leaves them out
 * where n is too small (the maximum is all they could be); reports before
 * it always have them. Those present are ordered with the rest. True when
 * n, min, p50, max and mean were read and are in order (v holds them).
 */
static bool validate_stats(struct vctx *c, const json_t *st, long long v[S_COUNT])
{
    bool have[S_COUNT];
    int i, prev = S_P50;
    size_t before = c->diags->errors;
    for (i = 0; i < S_COUNT; i++)
        have[i] = vc_int(c, st, stat_keys[i], 0, LLONG_MAX,
                         i == S_P90 || i == S_P99 ? VF_OPTIONAL : 0, &v[i]);
    for (i = 0; i < S_COUNT; i++)
        if (!have[i] && i != S_P90 && i != S_P99)
            return false; /* the order checks need every value */
    for (i = S_P90; i <= S_P99; i++)
        if (!have[i] && json_object_get(st, stat_keys[i]))
            return false; /* present but not an integer: said already */
    if (v[S_N] == 0) {
        for (i = S_MIN; i < S_COUNT; i++)
            if (have[i] && v[i] != 0) {
                vc_error(c, stat_keys[i], "%lld, but n is 0 (no samples: every statistic is 0)",
                         v[i]);
                return false;
            }
        return true;
    }
    if (v[S_MIN] > v[S_MAX]) {
        vc_error(c, "min", "%lld is above max %lld", v[S_MIN], v[S_MAX]);
        return false;
    }
    for (i = S_P50; i <= S_P99; i++) {
        if (!have[i])
            continue;
        if (v[i] < v[S_MIN])
            vc_error(c, stat_keys[i], "%s %lld is below min %lld", stat_keys[i], v[i], v[S_MIN]);
        else if (v[i] > v[S_MAX])
            vc_error(c, stat_keys[i], "%s %lld is above max %lld", stat_keys[i], v[i], v[S_MAX]);
        else if (i > S_P50 && v[i] < v[prev])
            vc_error(c, stat_keys[i], "%s %lld is below %s %lld (percentiles must not decrease)",
                     stat_keys[i], v[i], stat_keys[prev], v[prev]);
        prev = i;
    }
    if (v[S_MEAN] < v[S_MIN] || v[S_MEAN] > v[S_MAX])
        vc_error(c, "mean", "mean %lld is outside min..max (%lld..%lld)", v[S_MEAN], v[S_MIN],
                 v[S_MAX]);
    return c->diags->errors == before;
}

/*
 * p50_ci95 (schema 3): required from version 3 on, on both architectures
 * (core/report/experiment_json.c writes every metric of both); null exactly where
 * n is below BOOT_MEDIAN_MIN_N, else {low, high} with min <= low <= p50 <=
 * high <= max. v: the statistics, or NULL where they did not check out.
 */
static void validate_p50_ci(struct vctx *c, const json_t *st, const long long *v)
{
    const json_t *ci = json_object_get(st, "p50_ci95");
    bool required = c->schema_version >= 3;
    long long low, high;
    bool have_low, have_high;
    size_t mark;
    if (!ci) {
        if (required)
            vc_error(c, "p50_ci95", "missing (required from schema_version 3: the 95%% interval "
                     "of p50, or null below %d samples)", BOOT_MEDIAN_MIN_N);
        return;
    }
    if (json_is_null(ci)) {
        if (v && v[S_N] >= BOOT_MEDIAN_MIN_N)
            vc_error(c, "p50_ci95", "null, but n is %lld: an interval is drawn from %d samples "
                     "on", v[S_N], BOOT_MEDIAN_MIN_N);
        return;
    }
    if (!json_is_object(ci)) {
        vc_error(c, "p50_ci95", "expected {low, high} or null, found %s", jget_type_word(ci));
        return;
    }
    mark = jpath_push_key(&c->path, "p50_ci95");
    have_low = vc_int(c, ci, "low", 0, LLONG_MAX, 0, &low);
    have_high = vc_int(c, ci, "high", 0, LLONG_MAX, 0, &high);
    if (have_low && have_high && v) {
        if (v[S_N] < BOOT_MEDIAN_MIN_N)
            vc_error(c, NULL, "an interval of %lld samples: below %d no interval has 95%% "
                     "confidence (null)", v[S_N], BOOT_MEDIAN_MIN_N);
        else if (low > v[S_P50] || high < v[S_P50])
            vc_error(c, NULL, "[%lld, %lld] does not contain p50 %lld", low, high, v[S_P50]);
        else if (low < v[S_MIN] || high > v[S_MAX])
            vc_error(c, NULL, "[%lld, %lld] reaches outside min..max (%lld..%lld)", low, high,
                     v[S_MIN], v[S_MAX]);
    }
    jpath_pop(&c->path, mark);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* keep_samples=on: the n samples the statistics came from (min, p50 and max recomputed). */
static void validate_samples(struct vctx *c, const json_t *st, const long long *v)
{
    const json_t *a = vc_member(c, st, "samples", VT_ARRAY, VF_OPTIONAL);
    size_t i, n;
    long long *sorted;
    if (!a || !v)
        return;
    n = json_array_size(a);
    if ((long long)n != v[S_N]) {
        vc_error(c, "samples", "%zu samples, but n is %lld", n, v[S_N]);
        return;
    }
    sorted = malloc((n ? n : 1) * sizeof(*sorted));
    if (!sorted)
        return;
    for (i = 0; i < n; i++) {
        const json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < 0) {
            vc_error(c, "samples", "[%zu] is not a tick count (an integer >= 0)", i);
            free(sorted);
            return;
        }
        sorted[i] = json_integer_value(x);
    }
    qsort(sorted, n, sizeof(*sorted), cmp_ll);
    /* nearest rank: p50 is the sample of rank ceil(n / 2) */
    if (n && (sorted[0] != v[S_MIN] || sorted[n - 1] != v[S_MAX] ||
              sorted[(n + 1) / 2 - 1] != v[S_P50]))
        vc_error(c, "samples", "min, p50, max of the samples (%lld, %lld, %lld) are not the "
                 "metric's (%lld, %lld, %lld)", sorted[0], sorted[(n + 1) / 2 - 1],
                 sorted[n - 1], v[S_MIN], v[S_P50], v[S_MAX]);
    free(sorted);
}

void validate_metric(struct vctx *c, const json_t *st)
{
    long long v[S_COUNT];
    bool ok = validate_stats(c, st, v);
    validate_p50_ci(c, st, ok ? v : NULL);
    validate_samples(c, st, ok ? v : NULL);
}

void validate_bootstrap(struct vctx *c, const json_t *method)
{
    size_t mark;
    const json_t *b = vc_enter(c, method, "bootstrap", c->schema_version >= 3 ? 0 : VF_OPTIONAL,
                               &mark);
    if (!b)
        return;
    vc_int(c, b, "seed", 0, LLONG_MAX, 0, NULL);
    vc_int(c, b, "resamples", 1, LLONG_MAX, 0, NULL);
    vc_int(c, b, "min_samples", 1, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_int(c, b, "intervals", 0, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_int(c, b, "duration_ms", 0, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_leave(c, mark);
}
