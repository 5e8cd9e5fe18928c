#include "reports/tool/compare/compare_csv.h"
#include "reports/tool/compare/compare_where.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/units.h"

const char *const compare_csv_params[] = {
    "initiator", "target", "class", "mode", "targets", "lazy", "pages",
    "variant",   "method", "form",  "kind", "rounds",  "cpus", "flush", "pti", NULL,
};

static const char *const fixed_head[] = {
    "report", "side", "run_id", "file", "machine", "machine_id", "cpu", "cpu_count", "experiment",
    "status", "set",
};
static const char *const tail_head[] = {
    "other_params", "metric", "unit", "n", "min", "p50", "p90", "p99", "max",
    "ratio_to_baseline", "value", "flags",
};
#define NFIXED (sizeof(fixed_head) / sizeof(fixed_head[0]))
#define NTAIL (sizeof(tail_head) / sizeof(tail_head[0]))

static size_t nparams(void)
{
    size_t n = 0;
    while (compare_csv_params[n])
        n++;
    return n;
}

static bool known_param(const char *key)
{
    size_t i;
    for (i = 0; compare_csv_params[i]; i++)
        if (strcmp(compare_csv_params[i], key) == 0)
            return true;
    return false;
}

/*
 * A point's parameters sorted by name: two points are the same point (the
 * same parameters with the same values) exactly when these compare equal.
 */
struct canon {
    const struct m_param **params;
    size_t n, at; /* at: its place in the report */
    const struct m_point *p;
};

static int cmp_param_key(const void *a, const void *b)
{
    return strcmp((*(const struct m_param *const *)a)->key, (*(const struct m_param *const *)b)->key);
}

static int cmp_canon_params(const struct canon *x, const struct canon *y)
{
    size_t i;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    for (i = 0; i < x->n; i++) {
        int c = strcmp(x->params[i]->key, y->params[i]->key);
        if (!c)
            c = model_param_cmp(x->params[i], y->params[i]);
        if (c)
            return c;
    }
    return 0;
}

static int cmp_canon(const void *a, const void *b)
{
    const struct canon *x = a, *y = b;
    int c = cmp_canon_params(x, y);
    return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

/* store: p->nparams slots for the sorted parameters. */
static void canon_of(const struct m_point *p, size_t at, const struct m_param **store,
                     struct canon *out)
{
    size_t i;
    for (i = 0; i < p->nparams; i++)
        store[i] = &p->params[i];
    qsort(store, p->nparams, sizeof(*store), cmp_param_key);
    out->params = store;
    out->n = p->nparams;
    out->at = at;
    out->p = p;
}

/* One baseline run's result points, sorted by their parameters: found in log time. */
struct base_index {
    struct canon *pts;
    const struct m_param **store;
    size_t n;
    const struct m_report *report;
};

static void base_index_free(struct base_index *b)
{
    free(b->pts);
    free(b->store);
    memset(b, 0, sizeof(*b));
}

static bool base_index_build(const struct m_report *r, const struct m_experiment *e,
                             struct base_index *out)
{
    size_t j, total = 0;
    memset(out, 0, sizeof(*out));
    out->report = r;
    for (j = 0; j < e->results.count; j++)
        total += e->results.items[j].nparams;
    out->pts = malloc((e->results.count ? e->results.count : 1) * sizeof(*out->pts));
    out->store = malloc((total ? total : 1) * sizeof(*out->store));
    if (!out->pts || !out->store) {
        base_index_free(out);
        return false;
    }
    for (j = 0, total = 0; j < e->results.count; j++) {
        canon_of(&e->results.items[j], j, out->store + total, &out->pts[j]);
        total += e->results.items[j].nparams;
    }
    out->n = e->results.count;
    qsort(out->pts, out->n, sizeof(*out->pts), cmp_canon);
    return true;
}

/* The first point (in report order) with the parameters of `key`, or NULL. */
static const struct m_point *base_index_find(const struct base_index *b, const struct canon *key)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_canon_params(&b->pts[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->n && cmp_canon_params(&b->pts[lo], key) == 0 ? b->pts[lo].p : NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The baseline side's p50 of this point and metric: the lower median over its runs. */
static double baseline_p50(const struct cmp_model *m, const struct base_index *base, size_t nbase,
                           const struct m_point *p, const char *metric, double *buf)
{
    const struct m_param *store[64];
    const struct m_param **params = p->nparams <= 64 ? store : malloc(p->nparams * sizeof(*params));
    struct canon key;
    size_t r, n = 0;
    if (!params)
        return NAN;
    canon_of(p, 0, params, &key);
    for (r = 0; r < nbase; r++) {
        const struct m_point *q = base_index_find(&base[r], &key);
        const struct m_metric *mt = q ? model_metric(q, metric) : NULL;
        if (mt && mt->st.present && isfinite(mt->st.p50))
            buf[n++] = m->in_ns ? model_ticks_to_ns(base[r].report, mt->st.p50) : mt->st.p50;
    }
    if (params != store)
        free(params);
    if (!n)
        return NAN;
    qsort(buf, n, sizeof(*buf), cmp_double);
    return buf[(n - 1) / 2];
}

static void set_num(struct table *t, size_t row, size_t col, double v, bool ns)
{
    if (!isfinite(v))
        return;
    if (ns)
        table_set(t, row, col, "%.1f", v);
    else
        table_set(t, row, col, "%.0f", v);
}

/* The report, experiment, set and parameter cells of a new row; returns the row. */
static size_t start_row(const struct cmp_model *m, struct table *t, size_t run,
                        const struct m_experiment *e, const char *set, const struct m_point *p)
{
    const struct m_report *r = m->all[run];
    size_t row = table_add_row(t), np = nparams(), i, c, len = 0;
    char buf[400], v[64], other[400];
    table_set(t, row, 0, "%s", r->label);
    table_set(t, row, 1, "%s", m->reports[m->side_of[run]]->label);
    table_set(t, row, 2, "%s", r->run_id ? r->run_id : "");
    table_set(t, row, 3, "%s", r->path);
    table_set(t, row, 4, "%s", model_machine_name(r, buf, sizeof(buf)));
    table_set(t, row, 5, "%s", compare_machine_label(m, m->side_of[run], v, sizeof(v)));
    table_set(t, row, 6, "%s", r->brand ? r->brand : "");
    table_set(t, row, 7, "%lld", r->cpu_count);
    table_set(t, row, 8, "%s", e->id);
    table_set(t, row, 9, "%s", e->status ? e->status : "");
    table_set(t, row, 10, "%s", set);
    for (c = 0; c < np; c++) {
        const struct m_param *q = model_param(p, compare_csv_params[c]);
        if (q)
            table_set(t, row, NFIXED + c, "%s", model_param_text(q, v, sizeof(v)));
    }
    other[0] = '\0';
    for (i = 0; i < p->nparams; i++) {
        if (known_param(p->params[i].key))
            continue;
        snprintf(other + len, sizeof(other) - len, "%s%s=%s", len ? " " : "", p->params[i].key,
                 model_param_text(&p->params[i], v, sizeof(v)));
        len = strlen(other);
    }
    table_set(t, row, NFIXED + np, "%s", other);
    return row;
}

static void flags_of(const struct m_report *r, const struct m_experiment *e, char *buf, size_t cap)
{
    struct cmp_cell c;
    memset(&c, 0, sizeof(c));
    c.virtualised = r->virtualised;
    c.emulated = e->emulated;
    c.simulated = r->simulated;
    snprintf(buf, cap, "%s", compare_flags(&c));
}

static void point_rows(const struct cmp_model *m, struct table *t, size_t run,
                       const struct m_experiment *e, const char *set, const struct m_points *pts,
                       const struct base_index *bases, size_t nbase, double *buf)
{
    const struct m_report *r = m->all[run];
    size_t base = NFIXED + nparams() + 1, j, k;
    bool ns = r->tsc_hz > 0;
    char flags[64], num[48];
    flags_of(r, e, flags, sizeof(flags));
    for (j = 0; j < pts->count; j++) {
        const struct m_point *p = &pts->items[j];
        if (m->opts.nwhere && !compare_where_point(m, p))
            continue;
        for (k = 0; k < p->nmetrics; k++) {
            const struct m_stats *st = &p->metrics[k].st;
            size_t row = start_row(m, t, run, e, set, p);
            double scale = ns ? 1e9 / r->tsc_hz : 1, b;
            table_set(t, row, base, "%s", p->metrics[k].name);
            table_set(t, row, base + 1, "%s", ns ? "ns" : "ticks");
            set_num(t, row, base + 2, st->n, false);
            set_num(t, row, base + 3, st->min * scale, ns);
            set_num(t, row, base + 4, st->p50 * scale, ns);
            set_num(t, row, base + 5, st->p90 * scale, ns);
            set_num(t, row, base + 6, st->p99 * scale, ns);
            set_num(t, row, base + 7, st->max * scale, ns);
            /* ratios need one unit on both sides: ns everywhere, or ticks everywhere */
            b = strcmp(set, "result") == 0 && ns == m->in_ns
                    ? baseline_p50(m, bases, nbase, p, p->metrics[k].name, buf) : NAN;
            if (isfinite(b) && b > 0 && isfinite(st->p50))
                table_set(t, row, base + 8, "%.4f", st->p50 * scale / b);
            table_set(t, row, base + 10, "%s", flags);
        }
        for (k = 0; k < p->nvalues; k++) {
            size_t row = start_row(m, t, run, e, set, p);
            table_set(t, row, base, "%s", p->values[k].key);
            table_set(t, row, base + 1, "value");
            table_set(t, row, base + 9, "%s", units_number(p->values[k].v, num, sizeof(num)));
            table_set(t, row, base + 10, "%s", flags);
        }
    }
}

void compare_csv_print(const struct cmp_model *m, FILE *out)
{
    size_t np = nparams(), ncols = NFIXED + np + NTAIL, i, run, k;
    struct table *t = table_new(ncols);
    double *buf = calloc(m->nall ? m->nall : 1, sizeof(*buf));
    struct base_index *base = calloc(m->nall ? m->nall : 1, sizeof(*base));
    if (!t || !buf || !base) {
        table_free(t);
        free(buf);
        free(base);
        return;
    }
    for (i = 0; i < NFIXED; i++)
        table_header(t, i, fixed_head[i], false);
    for (i = 0; i < np; i++)
        table_header(t, NFIXED + i, compare_csv_params[i], false);
    for (i = 0; i < NTAIL; i++)
        table_header(t, NFIXED + np + i, tail_head[i], false);
    for (k = 0; k < m->nsections; k++) {
        size_t nbase = 0;
        /* the base side's runs of this experiment (the baseline, or the first side that
         * measured it: compare.h), indexed: a search per point was quadratic */
        for (run = 0; run < m->nall; run++) {
            const struct m_experiment *e = model_experiment(m->all[run], m->sections[k].id);
            if (m->side_of[run] == m->sections[k].base && e &&
                base_index_build(m->all[run], e, &base[nbase]))
                nbase++;
        }
        for (run = 0; run < m->nall; run++) {
            const struct m_experiment *e = model_experiment(m->all[run], m->sections[k].id);
            if (!e)
                continue;
            point_rows(m, t, run, e, "result", &e->results, base, nbase, buf);
            point_rows(m, t, run, e, "summary", &e->summary, base, nbase, buf);
        }
        while (nbase)
            base_index_free(&base[--nbase]);
    }
    table_print(t, out, TABLE_CSV, "");
    table_free(t);
    free(base);
    free(buf);
}
