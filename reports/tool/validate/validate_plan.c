/* experiments[].plan (reports/SCHEMA.md, core/run/plan.h): what run_budget_s let an experiment measure. */
#include <limits.h>
#include <string.h>

#include "reports/tool/validate/validate_sections.h"

static const char *const reduced_words[] = { "samples", "rows", "cols", "variants", NULL };

/* Checks a <= b, both present and valid, naming the pair. */
static void le(struct vctx *c, const char *ka, long long a, const char *kb, long long b)
{
    if (a >= 0 && b >= 0 && a > b)
        vc_error(c, ka, "%lld is more than %s (%lld)", a, kb, b);
}

/*
 * experiments[].status_detail (issue 32): only beside an experiment its plan
 * measured on a cut grid (rows, columns or variants left out), saying so.
 */
static void validate_status_detail(struct vctx *c, const json_t *e, bool grid_cut)
{
    const char *d = vc_string(c, e, "status_detail", VF_OPTIONAL);
    if (!d)
        return;
    if (strncmp(d, "reduced: ", 9) != 0)
        vc_error(c, "status_detail", "\"%.40s\" does not begin with \"reduced: \"", d);
    else if (!grid_cut)
        vc_error(c, "status_detail", "is present, but the plan measured every row, column and "
                                     "variant (plan.reduced)");
}

void validate_plan(struct vctx *c, const json_t *e, int status)
{
    size_t mark, m, i;
    long long v[9];
    static const char *const ints[] = { "share_ms", "estimate_ms", "full_estimate_ms", "floor",
                                        "samples_configured", "samples", "warmup",
                                        "points_planned", NULL };
    enum { FLOOR = 3, CONF = 4, SAMPLES = 5, POINTS = 7 };
    long long rows = -1, rows_c = -1, cols = -1, cols_c = -1, planned = -1, achieved = -1;
    long long smin = -1, smax = -1, added = 0;
    bool fits = true, measured = true, grid_cut = false;
    const json_t *reduced, *p = vc_enter(c, e, "plan", VF_OPTIONAL | VF_NULLABLE, &mark);
    if (!p) {
        validate_status_detail(c, e, false);
        return;
    }
    for (i = 0; ints[i]; i++) {
        v[i] = -1;
        vc_int(c, p, ints[i], 0, LLONG_MAX, 0, &v[i]);
    }
    vc_int(c, p, "pilot_ms", 0, LLONG_MAX, 0, NULL);
    vc_int(c, p, "replans", 0, LLONG_MAX, 0, NULL);
    if (vc_int(c, p, "samples_min", 0, LLONG_MAX, 0, &smin))
        le(c, "samples_min", smin, "samples", v[SAMPLES]);
    if (vc_int(c, p, "samples_max", 0, LLONG_MAX, 0, &smax)) {
        le(c, "samples", v[SAMPLES], "samples_max", smax);
        le(c, "samples_max", smax, "samples_configured", v[CONF]);
    }
    if (smin >= 0 && v[FLOOR] >= 0 && v[CONF] >= 0 &&
        smin < (v[FLOOR] < v[CONF] ? v[FLOOR] : v[CONF]))
        vc_error(c, "samples_min", "%lld is below the floor (%lld)", smin, v[FLOOR]);
    vc_string(c, p, "rows_name", VF_NULLABLE);
    vc_string(c, p, "cols_name", VF_NULLABLE);
    vc_int(c, p, "rows_configured", 0, LLONG_MAX, 0, &rows_c);
    vc_int(c, p, "rows", 0, LLONG_MAX, 0, &rows);
    vc_int(c, p, "cols_configured", 0, LLONG_MAX, 0, &cols_c);
    vc_int(c, p, "cols", 0, LLONG_MAX, 0, &cols);
    vc_int(c, p, "samples_planned", 0, LLONG_MAX, 0, &planned);
    vc_int(c, p, "samples_achieved", 0, LLONG_MAX, 0, &achieved);
    vc_bool(c, p, "fits", 0, &fits);
    vc_bool(c, p, "measured", 0, &measured);
    vc_string(c, p, "reason", 0);
    le(c, "samples", v[SAMPLES], "samples_configured", v[CONF]);
    if (v[SAMPLES] >= 0 && v[FLOOR] >= 0 && v[CONF] >= 0 &&
        v[SAMPLES] < (v[FLOOR] < v[CONF] ? v[FLOOR] : v[CONF]))
        vc_error(c, "samples", "%lld is below the floor (%lld)", v[SAMPLES], v[FLOOR]);
    le(c, "rows", rows, "rows_configured", rows_c);
    le(c, "cols", cols, "cols_configured", cols_c);
    /* re-planning may have given some points more than planned, up to samples_max; the
     * share's rest more points (points_added, issue 32) */
    vc_int(c, p, "points_added", 0, LLONG_MAX, VF_OPTIONAL, &added);
    if (achieved >= 0 && smax >= 0 && v[POINTS] >= 0 && achieved > (v[POINTS] + added) * smax)
        vc_error(c, "samples_achieved", "%lld is more than points_planned x samples_max "
                 "(%lld, points_added counted)", achieved, (v[POINTS] + added) * smax);
    if (!measured && status != 2) /* 2: ERROR in vocab_results */
        vc_error(c, "measured", "is false, but the experiment's status is not ERROR");
    if (!measured && fits)
        vc_error(c, "measured", "is false, but the plan fits its share");
    reduced = vc_member(c, p, "reduced", VT_ARRAY, 0);
    m = jpath_push_key(&c->path, "reduced");
    for (i = 0; reduced && i < json_array_size(reduced); i++) {
        const json_t *w = json_array_get(reduced, i);
        size_t j;
        bool known = false;
        for (j = 0; json_is_string(w) && reduced_words[j]; j++)
            known |= strcmp(json_string_value(w), reduced_words[j]) == 0;
        if (!known)
            vc_error(c, NULL, "[%zu] is not one of samples, rows, cols, variants", i);
        else if (strcmp(json_string_value(w), "samples") != 0)
            grid_cut = true;
    }
    jpath_pop(&c->path, m);
    vc_leave(c, mark);
    validate_status_detail(c, e, grid_cut && measured);
}
