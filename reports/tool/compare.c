#include "reports/tool/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/ipi.h"
#include "reports/tool/vocab.h"

bool compare_is_hardware(const struct m_report *r)
{
    return !r->virtualised && !r->emulated && !r->simulated;
}

bool compare_mixes_simulated(struct m_report *const *reports, size_t n)
{
    size_t i, simulated = 0;
    for (i = 0; i < n; i++)
        simulated += reports[i]->simulated;
    return simulated > 0 && simulated < n;
}

const char *compare_flags(const struct cmp_cell *c)
{
    /* indexed by the flags as bits: virtualised 1, emulated 2, simulated 4 */
    static const char *const words[8] = {
        "", "virtualised", "emulated", "virtualised+emulated", "simulated",
        "virtualised+simulated", "simulated+emulated", "virtualised+simulated+emulated",
    };
    return words[(c->virtualised ? 1 : 0) | (c->emulated ? 2 : 0) | (c->simulated ? 4 : 0)];
}

double compare_ratio(const struct cmp_row *row, size_t report)
{
    const struct cmp_cell *a = &row->cells[0], *b = &row->cells[report];
    if (!a->present || !b->present || !(a->p50 > 0))
        return NAN;
    return b->p50 / a->p50;
}

static double in_unit(const struct cmp_model *m, const struct m_report *r, double ticks)
{
    return m->in_ns ? model_ticks_to_ns(r, ticks) : ticks;
}

static void fill_cell(const struct cmp_model *m, size_t i, const struct m_experiment *e,
                      double p50, double p99, struct cmp_cell *c)
{
    const struct m_report *r = m->reports[i];
    c->present = true;
    c->p50 = in_unit(m, r, p50);
    c->p99 = in_unit(m, r, p99);
    c->virtualised = r->virtualised;
    c->emulated = e->emulated;
    c->simulated = r->simulated;
}

static int class_rank(const char *cls)
{
    int i = vocab_index(vocab_topo_classes, cls);
    return i < 0 ? 100 : i;
}

static int cmp_class(const void *a, const void *b)
{
    const struct cmp_row *x = a, *y = b;
    int rx = class_rank(x->cls), ry = class_rank(y->cls);
    return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x->cls, y->cls);
}

/* ipi_roundtrip: one row per topology class any report has. */
static bool build_class_rows(const struct cmp_model *m, struct cmp_section *s)
{
    struct ipi_class_row rows[IPI_MAX_CLASSES];
    size_t i, j, k, n;
    s->rows = calloc(m->nreports * IPI_MAX_CLASSES, sizeof(*s->rows));
    if (!s->rows)
        return false;
    for (i = 0; i < m->nreports; i++) {
        if (!s->exp[i])
            continue;
        n = ipi_class_rows(s->exp[i], rows);
        for (j = 0; j < n; j++) {
            for (k = 0; k < s->nrows && strcmp(s->rows[k].cls, rows[j].cls) != 0; k++)
                ;
            if (k == s->nrows) {
                s->rows[k].cls = rows[j].cls;
                s->rows[k].cells = calloc(m->nreports, sizeof(struct cmp_cell));
                if (!s->rows[k].cells)
                    return false;
                s->nrows++;
            }
            fill_cell(m, i, s->exp[i], rows[j].p50, rows[j].p99, &s->rows[k].cells[i]);
        }
    }
    qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_class);
    return true;
}

/* Every other experiment: one row per distinct parameter combination in any report. */
static bool build_point_rows(const struct cmp_model *m, struct cmp_section *s)
{
    const struct m_points **lists = calloc(m->nreports, sizeof(*lists));
    const char *x_axis = NULL, *series = NULL;
    size_t i, j;
    bool ok = false;
    if (!lists)
        return false;
    for (i = 0; i < m->nreports; i++) {
        if (!s->exp[i])
            continue;
        lists[i] = &s->exp[i]->results;
        if (!x_axis)
            x_axis = s->exp[i]->x_axis;
        if (!series)
            series = s->exp[i]->series;
    }
    group_row_keys(lists, m->nreports, x_axis, series, &s->keys);
    if (!group_tuples(lists, m->nreports, &s->keys, &s->tuples))
        goto out;
    s->rows = calloc(s->tuples.n ? s->tuples.n : 1, sizeof(*s->rows));
    if (!s->rows)
        goto out;
    for (j = 0; j < s->tuples.n; j++) {
        struct cmp_row *row = &s->rows[s->nrows++];
        bool any = false;
        row->vals = group_tuple(&s->tuples, j);
        row->cells = calloc(m->nreports, sizeof(*row->cells));
        if (!row->cells)
            goto out;
        for (i = 0; i < m->nreports; i++) {
            const struct m_point *p = group_find(lists[i], &s->keys, row->vals);
            const struct m_metric *mt = p ? model_primary_metric(p) : NULL;
            if (mt)
                fill_cell(m, i, s->exp[i], mt->st.p50, mt->st.p99, &row->cells[i]);
            any |= mt != NULL;
        }
        if (!any) { /* points with values only: the value rows show them */
            free(row->cells);
            s->nrows--;
        }
    }
    ok = true;
out:
    free(lists);
    return ok;
}

/* One value row per (point parameters, value name); NULL when the rows are full. */
static struct cmp_value_row *value_row(const struct cmp_model *m, struct cmp_section *s,
                                       size_t first, size_t cap,
                                       const struct m_param *const *vals, const char *key)
{
    struct cmp_value_row *row;
    size_t k;
    for (k = first; k < s->nvrows; k++)
        if (strcmp(s->vrows[k].key, key) == 0)
            return &s->vrows[k];
    if (s->nvrows >= cap)
        return NULL;
    row = &s->vrows[s->nvrows];
    row->vals = vals;
    row->key = key;
    if (!(row->v = malloc(m->nreports * sizeof(*row->v))))
        return NULL;
    for (k = 0; k < m->nreports; k++)
        row->v[k] = NAN;
    s->nvrows++;
    return row;
}

/*
 * Derived values: those of the summary points, and of result points that
 * carry values but no metric (a control experiment reports counts, not
 * times). One row per (parameters, value name) any report has.
 */
static bool build_value_rows(const struct cmp_model *m, struct cmp_section *s)
{
    const struct m_points **lists = calloc(m->nreports, sizeof(*lists));
    size_t i, j, t, cap = 0;
    bool ok = false;
    if (!lists)
        return false;
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        if (!e)
            continue;
        lists[i] = e->summary.count || model_points_have_metrics(&e->results) ? &e->summary
                                                                             : &e->results;
        for (j = 0; j < lists[i]->count; j++)
            cap += lists[i]->items[j].nvalues;
    }
    if (!cap) {
        ok = true;
        goto out;
    }
    group_other_keys(lists, m->nreports, NULL, NULL, &s->vkeys);
    if (!group_tuples(lists, m->nreports, &s->vkeys, &s->vtuples))
        goto out;
    if (!(s->vrows = calloc(cap, sizeof(*s->vrows))))
        goto out;
    for (t = 0; t < s->vtuples.n; t++) {
        const struct m_param *const *vals = group_tuple(&s->vtuples, t);
        size_t first = s->nvrows;
        for (i = 0; i < m->nreports; i++) {
            const struct m_point *p = group_find(lists[i], &s->vkeys, vals);
            for (j = 0; p && j < p->nvalues; j++) {
                struct cmp_value_row *row = value_row(m, s, first, cap, vals, p->values[j].key);
                if (row)
                    row->v[i] = p->values[j].v;
            }
        }
    }
    ok = true;
out:
    free(lists);
    return ok;
}

static bool has_section(const struct cmp_model *m, const char *id)
{
    size_t i;
    for (i = 0; i < m->nsections; i++)
        if (strcmp(m->sections[i].id, id) == 0)
            return true;
    return false;
}

static bool add_section(struct cmp_model *m, const struct m_experiment *e)
{
    struct cmp_section *s = &m->sections[m->nsections];
    size_t i;
    memset(s, 0, sizeof(*s));
    s->id = e->id;
    s->title = e->title;
    s->exp = calloc(m->nreports, sizeof(*s->exp));
    if (!s->exp)
        return false;
    m->nsections++;
    for (i = 0; i < m->nreports; i++)
        s->exp[i] = model_experiment(m->reports[i], e->id);
    s->by_class = strcmp(e->id, IPI_EXPERIMENT) == 0;
    if (!(s->by_class ? build_class_rows(m, s) : build_point_rows(m, s)))
        return false;
    return build_value_rows(m, s);
}

/* Numbers the machines: reports with equal machine keys share one. */
static bool group_machines(struct cmp_model *m)
{
    size_t i, j;
    int next = 0;
    if (!(m->machine = calloc(m->nreports ? m->nreports : 1, sizeof(*m->machine))))
        return false;
    for (i = 0; i < m->nreports; i++) {
        const char *key = m->reports[i]->machine_key;
        if (!key)
            continue;
        for (j = 0; j < i && !m->machine[i]; j++) {
            if (m->reports[j]->machine_key && strcmp(m->reports[j]->machine_key, key) == 0) {
                m->machine[i] = m->machine[j];
                m->machine_repeats = true;
            }
        }
        if (!m->machine[i])
            m->machine[i] = ++next;
    }
    return true;
}

const char *compare_machine_label(const struct cmp_model *m, size_t report, char *buf, size_t cap)
{
    if (m->machine && report < m->nreports && m->machine[report])
        snprintf(buf, cap, "M%d", m->machine[report]);
    else
        snprintf(buf, cap, "-");
    return buf;
}

const char *compare_same_machine(const struct cmp_model *m, size_t report, char *buf, size_t cap)
{
    size_t i, n = 0, len = 0;
    buf[0] = '\0';
    if (!m->machine || report >= m->nreports || !m->machine[report])
        return buf;
    for (i = 0; i < m->nreports; i++) {
        if (m->machine[i] != m->machine[report])
            continue;
        if (n++ == 0 && i != report)
            return buf; /* the group is listed at its first report */
        snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", m->reports[i]->label);
        len = strlen(buf);
    }
    if (n < 2)
        buf[0] = '\0';
    return buf;
}

bool compare_build(struct m_report *const *reports, size_t n, struct cmp_model *out)
{
    size_t i, j, total = 0, hw = 0;
    memset(out, 0, sizeof(*out));
    out->reports = reports;
    out->nreports = n;
    if (!group_machines(out))
        return false;
    out->in_ns = n > 0;
    for (i = 0; i < n; i++) {
        out->in_ns &= reports[i]->tsc_hz > 0;
        hw += compare_is_hardware(reports[i]);
        total += reports[i]->nexperiments;
    }
    out->mixed = hw > 0 && hw < n;
    if (!total)
        return true;
    out->sections = calloc(total, sizeof(*out->sections));
    if (!out->sections) {
        compare_free(out);
        return false;
    }
    /* sections in the order experiments first appear, report A first */
    for (i = 0; i < n; i++) {
        for (j = 0; j < reports[i]->nexperiments; j++) {
            const struct m_experiment *e = &reports[i]->experiments[j];
            if (!e->id || has_section(out, e->id))
                continue;
            if (!add_section(out, e)) {
                compare_free(out);
                return false;
            }
        }
    }
    return true;
}

void compare_free(struct cmp_model *m)
{
    size_t i, j;
    for (i = 0; i < m->nsections; i++) {
        struct cmp_section *s = &m->sections[i];
        for (j = 0; s->rows && j < s->nrows; j++)
            free(s->rows[j].cells);
        free(s->rows);
        free(s->exp);
        group_tuples_free(&s->tuples);
        for (j = 0; s->vrows && j < s->nvrows; j++)
            free(s->vrows[j].v);
        free(s->vrows);
        group_tuples_free(&s->vtuples);
    }
    free(m->sections);
    m->sections = NULL;
    m->nsections = 0;
    free(m->machine);
    m->machine = NULL;
}
