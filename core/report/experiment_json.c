/*
 * One experiment record (core/run/record.h) as the report's experiments[]
 * entry: the same writer for every architecture (reports/SCHEMA.md). Free
 * text (reason, notes) goes through show(), so the x86 report's redaction
 * can replace quoted values by their tokens; `unit` names the clock the
 * ticks are of ("tsc_ticks", "counter_ticks").
 */
#include "core/report/experiment_json.h"

#include "core/report/conditions_report.h"
#include "core/report/plan_report.h"
#include "core/report/report_common.h"

static void write_point(struct json_writer *w, const struct result_point *p)
{
    uint8_t i;
    jw_object_begin(w);
    jw_key(w, "params");
    jw_object_begin_inline(w);
    for (i = 0; i < p->nparams; i++) {
        if (p->params[i].str)
            jw_kv_str(w, p->params[i].key, p->params[i].str);
        else
            jw_kv_i64(w, p->params[i].key, p->params[i].num);
    }
    jw_object_end(w);
    jw_key(w, "metrics");
    jw_object_begin(w);
    for (i = 0; i < p->nmetrics; i++) {
        jw_key(w, p->metrics[i].name);
        report_write_metric(w, &p->metrics[i].st);
    }
    jw_object_end(w);
    if (p->nvalues) {
        jw_key(w, "values");
        jw_object_begin_inline(w);
        for (i = 0; i < p->nvalues; i++)
            jw_kv_fixed(w, p->values[i].key, p->values[i].milli, 3);
        jw_object_end(w);
    }
    if (p->has_class_mix) { /* the classes the targets hold, nearest first */
        jw_key(w, "class_mix");
        jw_object_begin_inline(w);
        for (i = 0; i < TOPO_CLASS_COUNT; i++)
            if (p->class_mix[i])
                jw_kv_u64(w, topo_class_name((enum topo_class)i), p->class_mix[i]);
        jw_object_end(w);
    }
    jw_object_end(w);
}

static void write_points(struct json_writer *w, const char *key, const struct point_list *l)
{
    uint32_t i;
    jw_key(w, key);
    jw_array_begin(w);
    for (i = 0; i < l->count; i++)
        write_point(w, &l->items[i]);
    jw_array_end(w);
}

void report_write_experiment(struct json_writer *w, const struct experiment_record *e,
                             const char *unit, report_show_fn show, const void *ctx)
{
    uint32_t i;
    jw_object_begin(w);
    jw_kv_str(w, "id", e->id);
    jw_kv_str(w, "title", e->title);
    jw_kv_str(w, "status", result_name(e->status));
    plan_write_status_detail(w, &e->plan); /* issue 32: "reduced: 5 of 22 page counts" */
    jw_key(w, "reason");
    show(w, e->reason[0] ? e->reason : NULL, ctx);
    jw_kv_bool(w, "emulated", e->emulated);
    jw_kv_bool(w, "partial", e->partial);
    jw_kv_str(w, "unit", unit);
    jw_kv_u64(w, "duration_ms", e->duration_ms);
    jw_key(w, "plan");
    plan_write_json(w, &e->plan);
    jw_key(w, "axes");
    jw_object_begin_inline(w);
    jw_kv_str(w, "x", e->x_axis);
    jw_kv_str(w, "series", e->series);
    jw_object_end(w);
    jw_key(w, "verification");
    jw_object_begin(w);
    jw_kv_bool(w, "applicable", e->verification.applicable);
    jw_kv_u64(w, "checks", e->verification.checks);
    if (e->verification.pilot_checks) /* of `checks`: the planning pilot's reads */
        jw_kv_u64(w, "pilot_checks", e->verification.pilot_checks);
    jw_kv_u64(w, "stale_reads", e->verification.stale_reads);
    jw_key(w, "stale");
    jw_array_begin(w);
    for (i = 0; i < e->verification.recorded; i++) {
        const struct stale_read *s = &e->verification.first[i];
        jw_object_begin_inline(w);
        jw_kv_u64(w, "cpu", s->cpu);
        jw_kv_hex(w, "va", s->va);
        jw_kv_hex(w, "expected", s->expected);
        jw_kv_hex(w, "seen", s->seen);
        jw_object_end(w);
    }
    jw_array_end(w);
    jw_object_end(w);
    jw_key(w, "notes");
    jw_array_begin(w);
    for (i = 0; i < e->nnotes; i++)
        show(w, e->notes[i], ctx);
    jw_array_end(w);
    write_points(w, "results", &e->results);
    write_points(w, "summary", &e->summary);
    jw_key(w, "conditions");
    conditions_write_json(w, &e->conditions);
    jw_object_end(w);
}
