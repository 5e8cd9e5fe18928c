#include "reports/tool/compare/report_json.h"

#include <math.h>
#include <string.h>

#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_summary.h"
#include "reports/tool/model/param_defaults.h"
#include "reports/tool/views/verdict_view.h"

/* A number, or null when it is not finite (JSON has no NaN). */
static json_t *num(double v)
{
    if (!isfinite(v))
        return json_null();
    /* counts and parameters stay integers; 2^53 bounds what a double holds exactly */
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

static json_t *str(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* What identifies a side to a reader: its CPU, never its serial number or UUID. */
static json_t *machine_object(const struct m_report *r)
{
    json_t *version = json_object_get(r->root, "schema_version");
    return json_pack("{s:o, s:o, s:o, s:I, s:o, s:o, s:b, s:b, s:b, s:o}", "vendor",
                     str(r->vendor), "cpu", str(r->brand), "microcode", str(r->microcode),
                     "cpu_count", (json_int_t)r->cpu_count, "hypervisor", str(r->hypervisor),
                     "tsc_hz", r->tsc_hz > 0 ? json_real(r->tsc_hz) : json_null(), "virtualised",
                     r->virtualised, "emulated", r->emulated, "simulated", r->simulated,
                     "schema_version", version ? json_incref(version) : json_null());
}

static json_t *sides_array(const struct cmp_model *m)
{
    json_t *a = json_array();
    size_t i, r;
    char id[16];
    for (i = 0; i < m->nreports; i++) {
        json_t *files = json_array(), *side = machine_object(m->reports[i]);
        for (r = 0; r < m->nall; r++)
            if (m->side_of[r] == i)
                json_array_append_new(files, json_string(m->all[r]->path));
        json_object_set_new(side, "label", json_string(m->reports[i]->label));
        json_object_set_new(side, "files", files);
        json_object_set_new(side, "machine_id",
                            json_string(compare_machine_label(m, i, id, sizeof(id))));
        json_array_append_new(a, side);
    }
    return a;
}

static json_t *param_value(const struct m_param *p)
{
    if (!p)
        return json_null();
    return p->str ? json_string(p->str) : num(p->num);
}

static json_t *row_object(const struct cmp_model *m, const struct cmp_section *s,
                          const struct cmp_row *row)
{
    json_t *o = json_object(), *params = json_object(), *cells = json_array();
    size_t i, k;
    if (s->by_class) {
        json_object_set_new(params, "class", json_string(row->cls));
    } else {
        for (k = 0; k < s->keys.n; k++)
            if (row->vals[k])
                json_object_set_new(params, s->keys.keys[k], param_value(row->vals[k]));
    }
    json_object_set_new(o, "params", params);
    json_object_set_new(o, "matched_by", json_string(s->by_class ? "class"
                                                     : row->by_role ? "role" : "value"));
    for (i = 0; i < m->nreports; i++) {
        const struct cmp_cell *c = &row->cells[i];
        double q = compare_ratio(row, i), lo, hi;
        bool ranged = compare_ratio_range(row, i, &lo, &hi);
        json_t *cell;
        if (!c->present)
            continue;
        cell = json_pack("{s:s, s:o, s:o, s:I, s:s}", "side", m->reports[i]->label, "p50",
                         num(c->p50), "p99", num(c->p99), "runs", (json_int_t)c->runs, "flags",
                         compare_flags(c));
        if (i != row->base) {
            json_object_set_new(cell, "ratio", num(q));
            json_object_set_new(cell, "percent", num(isfinite(q) ? (q - 1) * 100 : NAN));
            json_object_set_new(cell, "range", ranged ? json_pack("[o, o]", num(lo), num(hi))
                                                      : json_null());
            json_object_set_new(cell, "interval",
                                ranged ? json_string(compare_interval_text(
                                             compare_ratio_interval(row, i, &lo, &hi)))
                                       : json_null());
            json_object_set_new(cell, "verdict",
                                json_string(compare_verdict_text(compare_verdict(row, i))));
            json_object_set_new(cell, "in_summary", json_boolean(compare_row_counts(row, i)));
        }
        json_array_append_new(cells, cell);
    }
    json_object_set_new(o, "cells", cells);
    return o;
}

static json_t *headlines(const struct cmp_model *m, const struct cmp_section *s)
{
    json_t *a = json_array();
    struct cmp_summary sum;
    char text[400];
    size_t i;
    for (i = 0; i < m->nreports; i++) {
        if (i == s->base || !compare_summary(m, s, i, &sum) ||
            !compare_headline(m, s, i, text, sizeof(text)))
            continue;
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:I, s:I, s:I, s:s}", "side",
                         m->reports[i]->label, "base", m->reports[s->base]->label, "points",
                         (json_int_t)sum.n, "geomean", num(sum.geomean), "low", num(sum.lo),
                         "high", num(sum.hi), "faster", (json_int_t)sum.faster, "slower",
                         (json_int_t)sum.slower, "within_noise", (json_int_t)sum.noise, "text",
                         text));
        json_object_set_new(json_array_get(a, json_array_size(a) - 1), "no_difference",
                            json_integer((json_int_t)sum.noise));
        json_object_set_new(json_array_get(a, json_array_size(a) - 1), "interval",
                            sum.all_ranged ? json_string(compare_interval_text(sum.kind))
                                           : json_null());
        json_object_set_new(json_array_get(a, json_array_size(a) - 1), "verdict",
                            json_string(compare_verdict_text(compare_summary_verdict(m, &sum))));
    }
    return a;
}

static json_t *defaulted(const struct cmp_model *m, const struct cmp_section *s)
{
    json_t *a = json_array();
    size_t i, k;
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        for (k = 0; e && k < e->ndefaulted; k++)
            json_array_append_new(a, json_pack("{s:s, s:s, s:o}", "side", m->reports[i]->label,
                                               "param", e->defaulted[k], "taken_as",
                                               str(param_default_meaning(s->id,
                                                                         e->defaulted[k]))));
    }
    return a;
}

/* The parameters matched as roles (cpu_roles.h): per side, the CPUs it named. */
static json_t *roles(const struct cmp_model *m, const struct cmp_section *s)
{
    json_t *a = json_array();
    size_t i;
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        if (e && e->cpu_role)
            json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:b}", "side",
                                               m->reports[i]->label, "param", e->cpu_role,
                                               "cpus", e->cpu_role_cpus, "ranked",
                                               e->cpu_role_ranked));
    }
    return a;
}

static json_t *section_object(const struct cmp_model *m, const struct cmp_section *s)
{
    json_t *o = json_pack("{s:s, s:o, s:s}", "id", s->id, "title", str(s->title), "base",
                          m->reports[s->base]->label);
    json_t *rows = json_array(), *unmatched = json_array(), *status = json_object();
    size_t j, i;
    for (i = 0; i < m->nreports; i++)
        json_object_set_new(status, m->reports[i]->label,
                            s->exp[i] ? str(s->exp[i]->status) : json_null());
    for (j = 0; j < s->nrows; j++) {
        const struct cmp_row *row = &s->rows[j];
        if (row->unmatched && !row->role_covered)
            json_array_append_new(unmatched, row_object(m, s, row));
        else if (!row->unmatched)
            json_array_append_new(rows, row_object(m, s, row));
    }
    json_object_set_new(o, "status", status);
    json_object_set_new(o, "defaulted", defaulted(m, s));
    json_object_set_new(o, "roles", roles(m, s));
    json_object_set_new(o, "rows", rows);
    json_object_set_new(o, "unmatched", unmatched);
    json_object_set_new(o, "headlines", headlines(m, s));
    return o;
}

json_t *report_json_compare(const struct cmp_model *m, size_t disjoint, long long slower,
                            int exit_status)
{
    json_t *o = json_object(), *sections = json_array();
    size_t k;
    if (!o || !sections) {
        json_decref(o);
        json_decref(sections);
        return NULL;
    }
    json_object_set_new(o, "format", json_string("tlbscope-report compare"));
    json_object_set_new(o, "format_version", json_integer(REPORT_JSON_COMPARE_FORMAT_VERSION));
    json_object_set_new(o, "unit", json_string(m->in_ns ? "ns" : "ticks"));
    json_object_set_new(o, "sides", sides_array(m));
    json_object_set_new(o, "baseline", json_string(m->reports[m->opts.baseline]->label));
    json_object_set_new(o, "threshold_percent", num(m->opts.threshold * 100));
    {
        json_t *w = json_array();
        size_t i;
        for (i = 0; i < m->opts.nwhere; i++)
            json_array_append_new(w, json_string(m->opts.where[i]));
        json_object_set_new(o, "where", w);
    }
    for (k = 0; k < m->nsections; k++)
        json_array_append_new(sections, section_object(m, &m->sections[k]));
    json_object_set_new(o, "experiments", sections);
    json_object_set_new(o, "architectures", compare_arch_json(m));
    json_object_set_new(o, "verdict",
                        json_pack("{s:I, s:I, s:o, s:i, s:b}", "disjoint_pairs", (json_int_t)disjoint,
                                  "compared_points", (json_int_t)compare_points_compared(m),
                                  "slower_points", slower < 0 ? json_null()
                                                              : json_integer(slower),
                                  "exit_status", exit_status, "mixed", m->mixed));
    return o;
}

/*
 * A summary row as the report holds it (params, metrics in ticks, values), with each
 * metric's p50 and p99 also in ns where the report knows its TSC rate, as `show` prints.
 */
static json_t *summary_rows(const struct m_report *r, const json_t *summary)
{
    json_t *rows = json_array();
    size_t i;
    for (i = 0; i < json_array_size(summary); i++) {
        json_t *row = json_deep_copy(json_array_get(summary, i));
        json_t *metrics = json_object_get(row, "metrics");
        const char *name;
        json_t *metric;
        json_object_foreach(metrics, name, metric) {
            const json_t *p50 = json_object_get(metric, "p50");
            const json_t *p99 = json_object_get(metric, "p99");
            double ns_per_tick = r->tsc_hz > 0 ? 1e9 / r->tsc_hz : 0;
            if (ns_per_tick == 0 || !json_is_number(p50))
                continue;
            json_object_set_new(metric, "p50_ns", json_real(json_number_value(p50) * ns_per_tick));
            json_object_set_new(metric, "p99_ns",
                                json_is_number(p99) ? json_real(json_number_value(p99) * ns_per_tick)
                                                    : json_null());
        }
        json_array_append_new(rows, row);
    }
    return rows;
}

json_t *report_json_show(const struct m_report *r)
{
    json_t *o = json_object(), *exps = json_array();
    size_t i;
    if (!o || !exps) {
        json_decref(o);
        json_decref(exps);
        return NULL;
    }
    json_object_set_new(o, "format", json_string("tlbscope-report show"));
    json_object_set_new(o, "format_version", json_integer(REPORT_JSON_FORMAT_VERSION));
    json_object_set_new(o, "file", json_string(r->path));
    json_object_set_new(o, "machine", machine_object(r));
    json_object_set_new(o, "result", str(r->result));
    json_object_set_new(o, "run_status", str(r->run_status));
    json_object_set_new(o, "tool_version", str(r->gen_version));
    json_object_set_new(o, "tool_commit", str(r->gen_commit));
    json_object_set_new(o, "profile", str(r->profile));
    json_object_set_new(o, "apic_mode", str(r->apic_mode));
    for (i = 0; i < r->nexperiments; i++) {
        const struct m_experiment *e = &r->experiments[i];
        const json_t *detail = e->json ? json_object_get(e->json, "status_detail") : NULL;
        json_array_append_new(
            exps, json_pack("{s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:b, s:o}", "id", str(e->id),
                            "status", str(e->status), "status_detail",
                            json_is_string(detail) ? json_incref((json_t *)detail) : json_null(),
                            "reason", str(e->reason), "points",
                            (json_int_t)e->results.count, "duration_ms", num(e->duration_ms),
                            "checks", num(e->checks), "stale_reads", num(e->stale_reads),
                            "emulated", e->emulated, "summary",
                            summary_rows(r, e->json ? json_object_get(e->json, "summary") : NULL)));
    }
    json_object_set_new(o, "experiments", exps);
    /* what show prints after the experiments: the recommendations, then the verdict line */
    {
        const json_t *rec = json_object_get(r->root, "recommendations");
        struct verdict v;
        char line[256];
        json_object_set_new(o, "recommendations",
                            json_is_object(rec) ? json_deep_copy(rec) : json_null());
        if (verdict_of_report(r->root, &v)) {
            verdict_line(&v, sizeof(line) - 1, line, sizeof(line));
            json_object_set_new(o, "verdict", json_string(line));
        } else {
            json_object_set_new(o, "verdict", json_null());
        }
    }
    return o;
}
