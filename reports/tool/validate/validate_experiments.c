/* experiments[]: status, verification, and the parameter points with their statistics. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"
#include "reports/tool/model/vocab.h"

/*
 * ipi_target_state's residency evidence (issue 21): a verdict of the four
 * (five from issue 32: partly_reached), and a reason with it: a point never
 * claims a state without saying why.
 */
static void validate_residency(struct vctx *c, const json_t *params)
{
    static const char *const verdicts[] = { "reached", "partly_reached", "demoted", "not_reached",
                                            "unverified" };
    const json_t *v = json_object_get(params, "residency");
    const json_t *why = json_object_get(params, "residency_reason");
    size_t i;
    bool known = false;
    if (!v)
        return;
    for (i = 0; json_is_string(v) && i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
        known |= strcmp(json_string_value(v), verdicts[i]) == 0;
    if (!known)
        vc_error(c, "residency",
                 "expected reached, partly_reached, demoted, not_reached or unverified");
    if (!json_is_string(why) || !json_string_value(why)[0])
        vc_error(c, "residency_reason", "a residency verdict needs its reason (a non-empty string)");
}

/*
 * ipi_target_state's ring3_loop point (optional): labelled as such, with its
 * CPL 3 evidence (pings whose interrupted CS had RPL 3, of all pings).
 */
static void validate_ring3(struct vctx *c, const json_t *p)
{
    const json_t *params = json_object_get(p, "params"), *values = json_object_get(p, "values");
    const json_t *state = params ? json_object_get(params, "state") : NULL;
    const json_t *cpl3 = values ? json_object_get(values, "interrupted_cpl3") : NULL;
    const json_t *pings = values ? json_object_get(values, "pings") : NULL;
    const json_t *ctx = params ? json_object_get(params, "target_context") : NULL;
    bool ring3 = json_is_string(state) && strcmp(json_string_value(state), "ring3_loop") == 0;
    size_t mark = jpath_push_key(&c->path, "params");
    if (ctx && !(json_is_string(ctx) && strcmp(json_string_value(ctx), "ring3_loop") == 0))
        vc_error(c, "target_context", "expected \"ring3_loop\" (the only point-level context)");
    if (ring3 && !ctx)
        vc_error(c, "target_context", "a ring3_loop point says target_context \"ring3_loop\"");
    jpath_pop(&c->path, mark);
    if (!ring3)
        return;
    if (!json_is_number(cpl3) || !json_is_number(pings) ||
        json_number_value(cpl3) > json_number_value(pings))
        vc_error(c, "values", "a ring3_loop point needs interrupted_cpl3 <= pings (numbers)");
}

static void validate_point(struct vctx *c, const json_t *p, const char *x_axis, bool is_result)
{
    const char *key;
    const json_t *v, *params, *metrics, *values;
    size_t mark;
    params = vc_member(c, p, "params", VT_OBJECT, 0);
    if (params) {
        mark = jpath_push_key(&c->path, "params");
        json_object_foreach((json_t *)params, key, v) {
            if (!json_is_number(v) && !json_is_string(v))
                vc_error(c, key, "expected a number or a string, found %s", jget_type_word(v));
        }
        /* issue 21: a placement is a topology class or spread */
        vc_word(c, params, "placement", vocab_placements, VF_OPTIONAL);
        validate_residency(c, params);
        jpath_pop(&c->path, mark);
        validate_ring3(c, p);
        /* charts put this parameter on the x axis: a point without it cannot be drawn */
        if (is_result && x_axis && !json_object_get(params, x_axis))
            vc_warn(c, "params", "has no \"%.40s\", the experiment's axes.x", x_axis);
    }
    metrics = vc_member(c, p, "metrics", VT_OBJECT, 0);
    if (metrics) {
        mark = jpath_push_key(&c->path, "metrics");
        json_object_foreach((json_t *)metrics, key, v) {
            size_t m2;
            if (!json_is_object(v)) {
                vc_error(c, key,
                         "expected an object {n, min, p50, p90?, p99?, max, mean}, found %s",
                         jget_type_word(v));
                continue;
            }
            m2 = jpath_push_key(&c->path, key);
            validate_metric(c, v);
            jpath_pop(&c->path, m2);
        }
        jpath_pop(&c->path, mark);
    }
    values = vc_member(c, p, "values", VT_OBJECT, VF_OPTIONAL);
    if (values) {
        mark = jpath_push_key(&c->path, "values");
        json_object_foreach((json_t *)values, key, v) {
            if (!json_is_number(v))
                vc_error(c, key, "expected a number, found %s", jget_type_word(v));
        }
        jpath_pop(&c->path, mark);
    }
    validate_class_mix(c, p);
}

static void validate_points(struct vctx *c, const json_t *e, const char *key, const char *x_axis)
{
    const json_t *a = vc_member(c, e, key, VT_ARRAY, 0);
    size_t i, mark;
    if (!a)
        return;
    mark = jpath_push_key(&c->path, key);
    for (i = 0; i < json_array_size(a); i++) {
        const json_t *p = vc_point(c, a, key, i);
        size_t m2 = jpath_push_index(&c->path, i);
        if (!json_is_object(p))
            vc_error(c, NULL, "expected a point object {params, metrics[, values]}, found %s",
                     jget_type_word(p));
        else
            validate_point(c, p, x_axis, strcmp(key, "results") == 0);
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, mark);
}

static void validate_verification(struct vctx *c, const json_t *e)
{
    size_t mark, m, i;
    long long stale_reads = -1, checks = -1, pilot = -1;
    const json_t *stale, *v = vc_enter(c, e, "verification", 0, &mark);
    if (!v)
        return;
    vc_bool(c, v, "applicable", 0, NULL);
    vc_int(c, v, "checks", 0, LLONG_MAX, 0, &checks);
    /* issue 20: the planning pilot's part of `checks`; absent when it read nothing */
    if (vc_int(c, v, "pilot_checks", 1, LLONG_MAX, VF_OPTIONAL, &pilot) && checks >= 0 &&
        pilot > checks)
        vc_error(c, "pilot_checks", "%lld, more than the %lld checks it is part of", pilot,
                 checks);
    vc_int(c, v, "stale_reads", 0, LLONG_MAX, 0, &stale_reads);
    stale = vc_member(c, v, "stale", VT_ARRAY, 0);
    if (stale && stale_reads >= 0 && (long long)json_array_size(stale) > stale_reads)
        vc_error(c, "stale", "lists %zu reads, but stale_reads is %lld", json_array_size(stale),
                 stale_reads);
    m = jpath_push_key(&c->path, "stale");
    for (i = 0; stale && i < json_array_size(stale); i++) {
        const json_t *s = json_array_get(stale, i);
        size_t m2 = jpath_push_index(&c->path, i);
        long long cpu;
        if (!json_is_object(s)) {
            vc_error(c, NULL, "expected an object {cpu, va, expected, seen}");
        } else {
            if (vc_int(c, s, "cpu", 0, LLONG_MAX, 0, &cpu) && c->cpu_count >= 0 &&
                cpu >= c->cpu_count)
                vc_error(c, "cpu", "%lld is not a CPU of this report (%lld CPUs)", cpu,
                         c->cpu_count);
            vc_hex(c, s, "va", 0);
            vc_hex(c, s, "expected", 0);
            vc_hex(c, s, "seen", 0);
        }
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
    vc_leave(c, mark);
}

static void validate_experiment(struct vctx *c, const json_t *e, size_t pos, struct vfacts *f)
{
    const char *reason, *unit, *x_axis = NULL;
    const json_t *axes;
    size_t mark;
    int status;
    bool partial = false;
    const char *id = vc_string(c, e, "id", 0);
    if (id && !id[0])
        vc_error(c, "id", "is empty");
    vc_string(c, e, "title", 0);
    status = vc_word(c, e, "status", vocab_results, 0);
    reason = vc_string(c, e, "reason", VF_NULLABLE);
    /* every SKIP, ERROR and FAILURE says why (core/run/result.h) */
    if (status > 0 && !reason && json_is_null(json_object_get(e, "reason")))
        vc_error(c, "reason", "is null, but status %s needs a reason", vocab_results[status]);
    if (status > f->worst_status) {
        f->worst_status = status;
        f->worst_at = (long long)pos;
    }
    vc_bool(c, e, "emulated", 0, NULL);
    if (vc_bool(c, e, "partial", 0, &partial) && partial && f->partial_at < 0)
        f->partial_at = (long long)pos;
    unit = vc_string(c, e, "unit", 0);
    /* aarch64 times with CNTVCT_EL0 (cpu.counter_hz), x86 with the TSC (cpu.tsc_hz) */
    if (unit && strcmp(unit, c->aarch64 ? "counter_ticks" : "tsc_ticks") != 0)
        vc_error(c, "unit", "\"%.40s\" is not the unit of an %s report (\"%s\")", unit,
                 c->aarch64 ? "aarch64" : "x86_64", c->aarch64 ? "counter_ticks" : "tsc_ticks");
    vc_int(c, e, "duration_ms", 0, LLONG_MAX, 0, NULL);
    validate_plan(c, e, status);
    if ((axes = vc_enter(c, e, "axes", 0, &mark))) {
        x_axis = vc_string(c, axes, "x", VF_NULLABLE);
        vc_string(c, axes, "series", VF_NULLABLE);
        vc_leave(c, mark);
    }
    validate_verification(c, e);
    vc_string_array(c, e, "notes", 0);
    validate_points(c, e, "results", x_axis);
    validate_points(c, e, "summary", NULL);
    if (c->aarch64) /* contract A: conditions null (no SMI counters, no SMT) */
        validate_arm64_experiment(c, e, status);
    else
        validate_conditions(c, e, status);
    if (id && strcmp(id, "shootdown_seq_vs_conc") == 0)
        validate_seq_conc_ratios(c, e);
}

struct id_at {
    const char *id; /* NULL when the experiment has none */
    size_t index;
};

/* By id (absent first), then position: the first of equal ids is the earliest. */
static int cmp_id(const void *a, const void *b)
{
    const struct id_at *x = a, *y = b;
    int c = !x->id || !y->id ? (x->id != NULL) - (y->id != NULL) : strcmp(x->id, y->id);
    return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

/* The position of the first experiment named `id` (ids sorted by cmp_id). */
static size_t first_with_id(const struct id_at *ids, size_t n, const char *id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (!ids[mid].id || strcmp(ids[mid].id, id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ids[lo].id && strcmp(ids[lo].id, id) == 0 ? ids[lo].index : n;
}

void validate_experiments(struct vctx *c, const json_t *root, struct vfacts *f)
{
    const json_t *list = vc_member(c, root, "experiments", VT_ARRAY, 0);
    const json_t *selected = jget_path(root, "run.config.experiments");
    struct id_at *ids;
    size_t i, j, n, mark;
    if (!list)
        return;
    /*
     * A run records every experiment it was asked for, a SKIP included: an
     * empty list measured nothing. With experiments= naming ids, that needs
     * an error saying why (core/run/runner.c: none of them exists); with "all"
     * it is only the earliest reports, from before any experiment existed.
     */
    if (json_array_size(list) == 0 && !f->has_errors) {
        if (json_is_array(selected) && json_array_size(selected) > 0)
            vc_error(c, "experiments", "is empty, but run.config.experiments selects %zu and "
                     "run.errors does not say why nothing ran", json_array_size(selected));
        else
            vc_warn(c, "experiments", "is empty: the run measured nothing");
    }
    /* ids sorted once: each experiment finds the first holder of its id in log time */
    n = json_array_size(list);
    ids = calloc(n ? n : 1, sizeof(*ids));
    for (i = 0; ids && i < n; i++) {
        ids[i].id = jget_string(json_array_get(list, i), "id");
        ids[i].index = i;
    }
    if (ids)
        qsort(ids, n, sizeof(*ids), cmp_id);
    mark = jpath_push_key(&c->path, "experiments");
    for (i = 0; i < n; i++) {
        const json_t *e = json_array_get(list, i);
        const char *id = jget_string(e, "id");
        size_t m = jpath_push_index(&c->path, i);
        if (!json_is_object(e)) {
            vc_error(c, NULL, "expected an experiment object, found %s", jget_type_word(e));
        } else {
            c->exp_index = i;
            validate_experiment(c, e, i, f);
            j = id && ids ? first_with_id(ids, n, id) : i;
            if (j < i)
                vc_error(c, "id", "\"%.60s\" already names experiments[%zu]", id, j);
        }
        jpath_pop(&c->path, m);
    }
    jpath_pop(&c->path, mark);
    free(ids);
}
