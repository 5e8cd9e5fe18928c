/*
 * The "recommendations" section (schema version 2, core/run/recommend.h):
 * required from version 2, absent before. Every entry's evidence must name
 * an experiment of the report and point at results it holds; an entry with
 * "not_enough_evidence" has no confidence and says why; a run that is not on
 * hardware labels every entry so, and none claims to describe hardware. An
 * entry's interval (issue 20; absent before) is null or names what it is of,
 * in which unit, with low <= high where both are numbers.
 */
#include <limits.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

static const char *const statuses[] = { "recommended", "not_enough_evidence", NULL };
static const char *const environments[] = { "hardware", "virtualised", "emulated", "simulated",
                                            NULL };
static const char *const confidences[] = { "low", "medium", "high", NULL };
/* The units the app writes (core/run/recommend*.c): the atlas and the views print an entry's
 * unit next to its value, so no other string (markup, a long text) gets that far. */
static const char *const entry_units[] = { "pages", "percent", "ticks", "ticks/page", NULL };

static const json_t *experiment(const json_t *root, const char *id)
{
    const json_t *list = json_object_get(root, "experiments"), *e;
    size_t i;
    json_array_foreach(list, i, e) {
        const char *eid = json_string_value(json_object_get(e, "id"));
        if (eid && strcmp(eid, id) == 0)
            return e;
    }
    return NULL;
}

static void validate_evidence(struct vctx *c, const json_t *root, const json_t *entry)
{
    size_t mark, i;
    const json_t *ev = vc_enter(c, entry, "evidence", 0, &mark), *pts, *x, *v;
    const char *id;
    size_t nresults = 0;
    if (!ev)
        return;
    id = vc_string(c, ev, "experiment", VF_NULLABLE);
    x = id ? experiment(root, id) : NULL;
    if (id && !x)
        vc_error(c, "experiment", "\"%s\" is not an experiment of this report", id);
    if (x)
        nresults = json_array_size(json_object_get(x, "results"));
    pts = vc_member(c, ev, "points", VT_ARRAY, 0);
    json_array_foreach(pts, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (size_t)json_integer_value(v) >= nresults) {
            size_t m = jpath_push_key(&c->path, "points");
            vc_error(c, NULL, "points[%zu] does not point at a result of %s (it has %zu)", i,
                     id ? id : "no experiment", nresults);
            jpath_pop(&c->path, m);
        }
    }
    vc_leave(c, mark);
}

/* invlpgb_vs_ipi's smallest CPU count that wins (absent in the first version 2 reports) */
static void validate_cpus_from(struct vctx *c, const json_t *e, int status)
{
    const json_t *v = vc_member(c, e, "cpus_from", VT_INT, VF_NULLABLE | VF_OPTIONAL);
    const json_t *pl = vc_member(c, e, "cpus_from_placement", VT_STRING, VF_NULLABLE | VF_OPTIONAL);
    /* the placement it is read from (issue 32 on): invlpgb_range's nearest-first sweep */
    if (pl && json_is_string(pl) && strcmp(json_string_value(pl), "nearest_first") != 0)
        vc_error(c, "cpus_from_placement", "\"%s\" is not a placement cpus_from is read from",
                 json_string_value(pl));
    if (!v || json_is_null(v))
        return;
    if (json_integer_value(v) < 1)
        vc_error(c, "cpus_from", "%lld is not a CPU count", (long long)json_integer_value(v));
    else if (status == 1)
        vc_error(c, "cpus_from", "a CPU count in an entry without enough evidence");
}

static const char *const interval_of[] = { "p_star", "cpus_from", "saving", "difference", NULL };
static const char *const interval_units[] = { "pages", "cpus", "percent", "ticks", "ticks/page",
                                               NULL };

/* A bound: a number, or null for "none" (past the largest count measured). */
static bool bound(struct vctx *c, const json_t *iv, const char *key, double *out)
{
    const json_t *v = vc_member(c, iv, key, VT_NUMBER, VF_NULLABLE);
    if (!v || json_is_null(v))
        return false;
    *out = json_number_value(v);
    return true;
}

static void validate_interval(struct vctx *c, const json_t *e)
{
    size_t mark;
    const json_t *iv;
    double lo = 0, hi = 0;
    bool has_lo, has_hi;
    long long level;
    if (!json_is_object(json_object_get(e, "interval"))) {
        vc_member(c, e, "interval", VT_OBJECT, VF_NULLABLE | VF_OPTIONAL);
        return;
    }
    iv = vc_enter(c, e, "interval", 0, &mark);
    vc_word(c, iv, "of", interval_of, 0);
    vc_word(c, iv, "unit", interval_units, 0);
    vc_int(c, iv, "level_percent", 1, 99, 0, &level);
    has_lo = bound(c, iv, "low", &lo);
    has_hi = bound(c, iv, "high", &hi);
    if (has_lo && has_hi && lo > hi)
        vc_error(c, "low", "%g is above high %g", lo, hi);
    else if (!has_lo && has_hi && json_is_null(json_object_get(iv, "low")))
        vc_error(c, "low", "null (none, past every count) below a high of %g", hi);
    vc_string(c, iv, "method", 0);
    vc_int(c, iv, "replicates", 1, LLONG_MAX, 0, NULL);
    vc_int(c, iv, "pairs", 1, LLONG_MAX, 0, NULL);
    vc_leave(c, mark);
}

/* issue 32: flush_ceiling's value_high (at least value), shootdown_order's by_pages */
static void validate_issue32(struct vctx *c, const json_t *e)
{
    const json_t *v = json_object_get(e, "value"), *hi, *parts, *p;
    size_t i;
    hi = vc_member(c, e, "value_high", VT_INT, VF_OPTIONAL);
    if (hi && (!json_is_integer(v) || json_integer_value(hi) <= json_integer_value(v)))
        vc_error(c, "value_high", "%lld, but value is not a smaller integer",
                 (long long)json_integer_value(hi));
    parts = vc_member(c, e, "by_pages", VT_ARRAY, VF_OPTIONAL);
    json_array_foreach(parts, i, p) {
        size_t m = jpath_push_key(&c->path, "by_pages"), m2 = jpath_push_index(&c->path, i);
        double lo = 0, up = 0;
        bool has_lo, has_hi;
        vc_int(c, p, "pages", 1, LLONG_MAX, 0, NULL);
        vc_string(c, p, "flush", 0);
        vc_member(c, p, "saving", VT_NUMBER, 0);
        has_lo = bound(c, p, "low", &lo);
        has_hi = bound(c, p, "high", &up);
        if (has_lo && has_hi && lo > up)
            vc_error(c, "low", "%g is above high %g", lo, up);
        jpath_pop(&c->path, m2);
        jpath_pop(&c->path, m);
    }
}

void validate_recommendations(struct vctx *c, const json_t *root)
{
    const json_t *recs = json_object_get(root, "recommendations"), *entries, *e;
    const json_t *version = json_object_get(root, "schema_version");
    const json_t *sim = json_object_get(root, "simulated");
    const json_t *cpu = json_object_get(root, "cpu");
    const json_t *emulator = jget_path(root, "run.config.emulator");
    bool emulated_machine = emulator && !(json_is_string(emulator) &&
                                          strcmp(json_string_value(emulator), "none") == 0);
    bool not_hw = (sim && json_is_true(sim)) ||
                  (cpu && json_is_string(json_object_get(cpu, "hypervisor"))) || emulated_machine;
    const char *not_hw_run = emulated_machine ? "an emulated machine's run (run.config.emulator)"
                                              : "a simulated or virtualised run";
    size_t mark, i;
    int env;
    if (!recs) {
        if (json_is_integer(version) && json_integer_value(version) >= 2)
            vc_error(c, "recommendations", "missing (required from schema_version 2)");
        return;
    }
    recs = vc_enter(c, root, "recommendations", 0, &mark);
    if (!recs)
        return;
    env = vc_word(c, recs, "environment", environments, 0);
    if (env == 0 && not_hw)
        vc_error(c, "environment", "\"hardware\" in %s", not_hw_run);
    vc_string(c, recs, "note", VF_NULLABLE);
    entries = vc_member(c, recs, "entries", VT_ARRAY, 0);
    json_array_foreach(entries, i, e) {
        size_t m = jpath_push_key(&c->path, "entries"), m2 = jpath_push_index(&c->path, i);
        int st = vc_word(c, e, "status", statuses, 0);
        int eenv = vc_word(c, e, "environment", environments, 0);
        bool hw = false, hw_known = vc_bool(c, e, "describes_hardware", 0, &hw);
        vc_string(c, e, "id", 0);
        vc_member(c, e, "value", VT_INT, VF_NULLABLE);
        validate_issue32(c, e);
        validate_cpus_from(c, e, st);
        vc_word(c, e, "unit", entry_units, VF_NULLABLE);
        vc_string(c, e, "verdict", 0);
        validate_interval(c, e);
        vc_string(c, e, "linux_default", VF_NULLABLE);
        vc_string(c, e, "why", 0);
        if (st == 0)
            vc_word(c, e, "confidence", confidences, 0);
        else if (st == 1 && !json_is_null(json_object_get(e, "confidence")))
            vc_error(c, "confidence", "not null in an entry without enough evidence");
        if (eenv == 0 && not_hw)
            vc_error(c, "environment", "\"hardware\" in %s", not_hw_run);
        if (hw_known && eenv >= 0 && hw != (eenv == 0))
            vc_error(c, "describes_hardware", "%s for environment \"%s\"", hw ? "true" : "false",
                     environments[eenv]);
        validate_evidence(c, root, e);
        jpath_pop(&c->path, m2);
        jpath_pop(&c->path, m);
    }
    vc_leave(c, mark);
}
