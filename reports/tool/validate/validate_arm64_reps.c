/*
 * The aarch64 points that time R back-to-back flushes a sample (Version 3, reports/SCHEMA.md:
 * core/exp/arm64/a64_reps.h): values `reps_per_sample` R and `mean_per_op`. Both optional, a
 * report before them has neither; where present R is a power of two up to 64, 1 on the
 * single-shot ipi_local, `mean_per_op` comes with it, and the latency's mean agrees with it:
 * each sample is its total over R rounded to a tick (at least 1), so the samples' mean lies
 * within a tick of the totals' mean over R (half a tick of rounding, half of the report's
 * rounded mean). A sample that kept R flushes' total, or timed one flush and reported R,
 * shows here when the other value was computed honestly.
 */
#include <math.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

#define REPS_MAX 64 /* core/exp/arm64/a64_reps.h A64_REPS_MAX: the host tool does not include it */

static bool power_of_two(double r)
{
    unsigned v;
    if (r < 1 || r > REPS_MAX || r != floor(r))
        return false;
    v = (unsigned)r;
    return (v & (v - 1)) == 0;
}

static void check_point(struct vctx *c, const json_t *r)
{
    const json_t *values = jget_object(r, "values");
    const json_t *reps = json_object_get(values, "reps_per_sample"), *per_op = json_object_get(values, "mean_per_op");
    const json_t *latency = jget_object(jget_object(r, "metrics"), "latency");
    const char *method = jget_string(jget_object(r, "params"), "method");
    double rv, mean, want;
    if (!reps && !per_op)
        return;
    if (!reps) {
        vc_error(c, "mean_per_op", "without reps_per_sample");
        return;
    }
    rv = json_is_number(reps) ? json_number_value(reps) : -1;
    if (!power_of_two(rv)) {
        vc_error(c, "reps_per_sample", "must be a power of two from 1 to %d", REPS_MAX);
        return;
    }
    if (method && strcmp(method, "ipi_local") == 0 && rv != 1)
        vc_error(c, "reps_per_sample", "%.0f on ipi_local, which is single-shot (1)", rv);
    if (!per_op || !json_is_number(per_op) || json_number_value(per_op) < 0) {
        if (per_op || json_object_get(latency, "mean"))
            vc_error(c, "mean_per_op", "missing or not a number >= 0 beside reps_per_sample");
        return;
    }
    mean = jget_number(latency, "mean", -1);
    want = json_number_value(per_op) > 1 ? json_number_value(per_op) : 1;
    if (mean >= 0 && fabs(mean - want) > 1.5)
        vc_error(c, "mean_per_op", "%.3f, but metrics.latency.mean is %.3f: each sample is its total over "
                 "R = %.0f, so the two agree within rounding", json_number_value(per_op), mean, rv);
}

void validate_arm64_reps(struct vctx *c, const json_t *e)
{
    const json_t *results = json_object_get(e, "results");
    size_t m = jpath_push_key(&c->path, "results"), j;
    for (j = 0; j < json_array_size(results); j++) {
        size_t m2 = jpath_push_index(&c->path, j), m3 = jpath_push_key(&c->path, "values");
        check_point(c, json_array_get(results, j));
        jpath_pop(&c->path, m3);
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
}
