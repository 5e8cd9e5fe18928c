/*
 * The rows of one section (reports/tool/compare/compare.c builds the sections):
 * each side's runs of a point collected into a cell (the median p50/p99 and the
 * range over runs), the points aligned by parameter value, by topology class
 * (ipi_roundtrip) and by role, and the derived-value rows.
 */
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_cells.h"
#include "reports/tool/compare/compare_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_roles.h"
#include "reports/tool/compare/compare_where.h"
#include "reports/tool/views/ipi.h"
#include "reports/tool/model/cpu_roles.h"
#include "reports/tool/model/param_defaults.h"
#include "reports/tool/model/point_index.h"
#include "reports/tool/model/units.h"
#include "reports/tool/model/vocab.h"

static int cmp_class(const void *a, const void *b)
{
    const struct cmp_row *x = a, *y = b;
    int rx = vocab_class_rank(x->cls), ry = vocab_class_rank(y->cls);
    return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x->cls, y->cls);
}

static const struct m_experiment *run_exp(const struct cmp_model *m, const struct cmp_section *s,
                                          size_t run)
{
    return model_experiment(m->all[run], s->id);
}

/* Marks rows that fewer than two sides have: listed under the table, not shown as rows. */
static void mark_unmatched(const struct cmp_model *m, struct cmp_section *s)
{
    size_t j, i, present;
    for (j = 0; j < s->nrows; j++) {
        for (i = 0, present = 0; i < m->nreports; i++)
            present += s->rows[j].cells[i].present;
        s->rows[j].unmatched = present < 2;
    }
}

/*
 * Two sides that measured ipi_roundtrip and share no topology class: a
 * 2-CPU run without SMT has only same_package pairs, one with SMT only
 * smt_sibling pairs. Without a row in common they would compare nothing.
 */
static bool sides_share_no_class(const struct cmp_model *m, const struct cmp_section *s)
{
    size_t a, b, k;
    for (a = 0; a < m->nreports; a++) {
        for (b = a + 1; b < m->nreports; b++) {
            bool a_has = false, b_has = false, shared = false;
            for (k = 0; k < s->nrows; k++) {
                a_has |= s->rows[k].cells[a].present;
                b_has |= s->rows[k].cells[b].present;
                shared |= s->rows[k].cells[a].present && s->rows[k].cells[b].present;
            }
            if (a_has && b_has && !shared)
                return true;
        }
    }
    return false;
}

/* The "all_pairs" row (every pair's medians, as across architectures) where classes do not meet. */
static bool add_all_pairs_row(const struct cmp_model *m, struct cmp_section *s,
                              struct cell_acc *acc)
{
    struct cmp_row *row = &s->rows[s->nrows];
    size_t i, r;
    row->cls = IPI_ALL_PAIRS;
    if (!(row->cells = calloc(m->nreports, sizeof(struct cmp_cell))))
        return false;
    s->nrows++;
    for (i = 0; i < m->nreports; i++) {
        for (r = 0; r < m->nall; r++) {
            const struct m_experiment *e = run_exp(m, s, r);
            struct ipi_class_row all;
            if (m->side_of[r] == i && e && ipi_all_pairs_row(e, &all))
                cell_acc_add(m, acc, r, e, all.p50, all.p99);
        }
        cell_acc_finish(m, i, acc, &row->cells[i]);
    }
    return true;
}

/* ipi_roundtrip: one row per topology class any report has. */
bool compare_build_class_rows(const struct cmp_model *m, struct cmp_section *s)
{
    struct ipi_class_row *rows = calloc(m->nall * IPI_MAX_CLASSES, sizeof(*rows));
    size_t *nrows = calloc(m->nall, sizeof(*nrows));
    struct cell_acc acc;
    size_t r, i, j, k;
    bool ok = false;
    if (!cell_acc_init(m, &acc) || !rows || !nrows)
        goto out;
    s->rows = calloc(m->nall * IPI_MAX_CLASSES + 1, sizeof(*s->rows));
    if (!s->rows)
        goto out;
    for (r = 0; r < m->nall; r++) {
        const struct m_experiment *e = run_exp(m, s, r);
        /* topology classes of two architectures are not alike: all pairs pooled */
        nrows[r] = !e              ? 0
                   : m->cross_arch ? ipi_all_pairs_row(e, &rows[r * IPI_MAX_CLASSES])
                                   : ipi_class_rows(e, &rows[r * IPI_MAX_CLASSES]);
        for (j = 0; j < nrows[r]; j++) {
            const char *cls = rows[r * IPI_MAX_CLASSES + j].cls;
            for (k = 0; k < s->nrows && strcmp(s->rows[k].cls, cls) != 0; k++)
                ;
            if (k == s->nrows) {
                s->rows[k].cls = cls;
                if (!(s->rows[k].cells = calloc(m->nreports, sizeof(struct cmp_cell))))
                    goto out;
                s->nrows++;
            }
        }
    }
    for (k = 0; k < s->nrows; k++) {
        for (i = 0; i < m->nreports; i++) {
            for (r = 0; r < m->nall; r++) {
                if (m->side_of[r] != i)
                    continue;
                for (j = 0; j < nrows[r]; j++) {
                    const struct ipi_class_row *c = &rows[r * IPI_MAX_CLASSES + j];
                    if (strcmp(c->cls, s->rows[k].cls) == 0)
                        cell_acc_add(m, &acc, r, run_exp(m, s, r), c->p50, c->p99);
                }
            }
            cell_acc_finish(m, i, &acc, &s->rows[k].cells[i]);
        }
    }
    if (!m->cross_arch && sides_share_no_class(m, s) && !add_all_pairs_row(m, s, &acc))
        goto out;
    qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_class);
    mark_unmatched(m, s);
    ok = true;
out:
    cell_acc_free(&acc);
    free(rows);
    free(nrows);
    return ok;
}

/* A point that plays a role (compare_roles.h): its role form and its own values over the keys. */
struct role_entry {
    const struct m_param **form, **vals;
    const struct m_point *p;
    size_t r, j; /* run and place in it: the order points are met in */
    bool metric;
};

/* A run of equal role forms in the sorted entries, and the first of them with a metric. */
struct role_group {
    size_t start, end, first;
};

static size_t role_nkeys; /* qsort has no context argument in C11 */

/*
 * Role forms in order: a role parameter equals only itself (pointer identity)
 * and sorts after every value; values compare as model_param_cmp.
 */
static int cmp_form_param(const struct m_param *a, const struct m_param *b)
{
    int ra = a == &compare_role_all_targets ? 1 : a == &compare_role_all_lazy ? 2
           : a == &compare_role_all_cpus ? 3 : 0;
    int rb = b == &compare_role_all_targets ? 1 : b == &compare_role_all_lazy ? 2
           : b == &compare_role_all_cpus ? 3 : 0;
    return ra || rb ? ra - rb : model_param_cmp(a, b);
}

static int cmp_met(const struct role_entry *x, const struct role_entry *y)
{
    return x->r != y->r ? (x->r < y->r ? -1 : 1) : x->j < y->j ? -1 : x->j > y->j;
}

static int cmp_forms(const struct role_entry *x, const struct role_entry *y)
{
    size_t k;
    for (k = 0; k < role_nkeys; k++) {
        int c = cmp_form_param(x->form[k], y->form[k]);
        if (c)
            return c;
    }
    return 0;
}

static int cmp_role_entry(const void *a, const void *b)
{
    int c = cmp_forms(a, b);
    return c ? c : cmp_met(a, b);
}

static const struct role_entry *group_entries; /* for cmp_role_group */

static int cmp_role_group(const void *a, const void *b)
{
    const struct role_group *x = a, *y = b;
    return cmp_met(&group_entries[x->first], &group_entries[y->first]);
}

/*
 * The value row (one of the first nvalue_rows, which are in tuple order:
 * sorted, distinct) with exactly these values, or NULL.
 */
static struct cmp_row *value_row_of(struct cmp_section *s, size_t nvalue_rows,
                                    const struct m_param *const *vals)
{
    size_t lo = 0, hi = nvalue_rows, k;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = 0;
        for (k = 0; k < s->keys.n && !c; k++)
            c = model_param_cmp(s->rows[mid].vals[k], vals[k]);
        if (!c)
            return &s->rows[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/*
 * Rows by role (compare_roles.h) where the sides' values differ: "all other
 * CPUs" of a 4-CPU and an 8-CPU run. Added after the value rows, in the order
 * their roles are first met (report A first). The points are sorted by role
 * form once: a search of every point for every role was quadratic (compare of
 * two 10 K-point reports took 23 s).
 */
static bool build_role_rows(const struct cmp_model *m, struct cmp_section *s,
                            const struct m_points *const *lists, size_t cap_rows)
{
    size_t nk = s->keys.n, nroles = 0, cap = 0, n = 0, ngroups = 0, r, j, i, t, e;
    size_t nvalue_rows = s->nrows;
    struct role_max *maxt = calloc(m->nall ? m->nall : 1, sizeof(*maxt));
    double *seen = calloc(m->nreports, sizeof(*seen));
    size_t *first = calloc(m->nall ? m->nall : 1, sizeof(*first));
    struct role_entry *ents = NULL;
    struct role_group *groups = NULL;
    const struct m_param **store = NULL;
    struct cell_acc acc = { NULL, NULL, 0, false, NAN, NAN };
    bool ok = false;
    if (!maxt || !seen || !first || !cell_acc_init(m, &acc))
        goto out;
    if (!nk) {
        ok = true;
        goto out;
    }
    for (r = 0; r < m->nall; r++) {
        maxt[r] = compare_roles_max(run_exp(m, s, r));
        cap += lists[r] ? lists[r]->count : 0;
    }
    s->role_vals = calloc(cap * nk + 1, sizeof(*s->role_vals));
    ents = calloc(cap ? cap : 1, sizeof(*ents));
    groups = calloc(cap ? cap : 1, sizeof(*groups));
    store = calloc(2 * cap * nk + 1, sizeof(*store));
    if (!s->role_vals || !ents || !groups || !store)
        goto out;
    for (r = 0; r < m->nall; r++) {
        for (j = 0; lists[r] && j < lists[r]->count; j++) {
            struct role_entry *en = &ents[n];
            size_t k;
            en->form = &store[2 * n * nk];
            en->vals = en->form + nk;
            en->p = &lists[r]->items[j];
            if (!compare_role_form(en->p, &s->keys, maxt[r], en->form))
                continue;
            for (k = 0; k < nk; k++)
                en->vals[k] = model_param(en->p, s->keys.keys[k]);
            en->r = r;
            en->j = j;
            en->metric = model_primary_metric(en->p) != NULL;
            n++;
        }
    }
    role_nkeys = nk;
    qsort(ents, n, sizeof(*ents), cmp_role_entry);
    for (e = 0; e < n;) { /* a role: equal forms, one of them with a metric */
        struct role_group g = { e, e, (size_t)-1 };
        for (; g.end < n && cmp_forms(&ents[g.start], &ents[g.end]) == 0; g.end++)
            if (ents[g.end].metric && g.first == (size_t)-1)
                g.first = g.end;
        if (g.first != (size_t)-1)
            groups[ngroups++] = g;
        e = g.end;
    }
    group_entries = ents;
    qsort(groups, ngroups, sizeof(*groups), cmp_role_group);
    for (t = 0; t < ngroups && s->nrows < cap_rows; t++) {
        const struct role_group *g = &groups[t];
        struct cmp_row *row = &s->rows[s->nrows];
        size_t present = 0;
        bool differ = false;
        memcpy(&s->role_vals[nroles * nk], ents[g->first].form, nk * sizeof(*s->role_vals));
        row->vals = &s->role_vals[nroles++ * nk];
        row->by_role = true;
        if (!(row->cells = calloc(m->nreports, sizeof(*row->cells))))
            goto out;
        for (r = 0; r < m->nall; r++) /* each run's first point in the role */
            first[r] = (size_t)-1;
        for (e = g->start; e < g->end; e++)
            if (ents[e].metric && first[ents[e].r] == (size_t)-1)
                first[ents[e].r] = e;
        for (i = 0; i < m->nreports; i++) {
            seen[i] = NAN;
            for (r = 0; r < m->nall; r++) {
                const struct m_metric *mt;
                if (m->side_of[r] != i || first[r] == (size_t)-1)
                    continue;
                mt = model_primary_metric(ents[first[r]].p);
                cell_acc_add_metric(m, &acc, r, run_exp(m, s, r), &mt->st);
                if (isnan(seen[i])) /* what the role stood for in this side */
                    seen[i] = (isnan(maxt[r].targets) ? -1 : maxt[r].targets) * 65536 +
                              (isnan(maxt[r].cpus) ? -1 : maxt[r].cpus);
            }
            cell_acc_finish(m, i, &acc, &row->cells[i]);
            row->cells[i].role_of = seen[i];
            if (row->cells[i].present) {
                present++;
                for (j = 0; j < i; j++)
                    differ |= row->cells[j].present && seen[j] != seen[i];
            }
        }
        if (present >= 2 && differ) {
            /* the value rows of the role's points are compared here: marked covered */
            for (e = g->start; e < g->end; e++) {
                struct cmp_row *v = value_row_of(s, nvalue_rows, ents[e].vals);
                if (v)
                    v->role_covered = true;
            }
            s->nrows++;
        } else {
            free(row->cells);
        }
    }
    ok = true;
out:
    cell_acc_free(&acc);
    free(store);
    free(groups);
    free(ents);
    free(first);
    free(maxt);
    free(seen);
    return ok;
}

/* Every other experiment: one row per distinct parameter combination in any report. */
bool compare_build_point_rows(const struct cmp_model *m, struct cmp_section *s)
{
    const struct m_points **lists = calloc(m->nall ? m->nall : 1, sizeof(*lists));
    struct point_index *ix = calloc(m->nall ? m->nall : 1, sizeof(*ix));
    const char *x_axis = NULL, *series = NULL;
    struct cell_acc acc = { NULL, NULL, 0, false, NAN, NAN };
    size_t i, j, r, cap = 0;
    bool ok = false;
    if (!lists || !ix || !cell_acc_init(m, &acc))
        goto out;
    for (r = 0; r < m->nall; r++) {
        const struct m_experiment *e = run_exp(m, s, r);
        if (!e)
            continue;
        lists[r] = &e->results;
        cap += e->results.count;
        if (!x_axis)
            x_axis = e->x_axis;
        if (!series)
            series = e->series;
    }
    group_row_keys(lists, m->nall, x_axis, series, &s->keys);
    if (!group_tuples(lists, m->nall, &s->keys, &s->tuples))
        goto out;
    cap += s->tuples.n + 1;
    s->rows = calloc(cap, sizeof(*s->rows));
    if (!s->rows)
        goto out;
    /* each row's point in each run in log time: a search of the run per row was quadratic */
    for (r = 0; r < m->nall; r++)
        if (lists[r] && !point_index_build(lists[r], &s->keys, &ix[r]))
            goto out;
    for (j = 0; j < s->tuples.n; j++) {
        struct cmp_row *row = &s->rows[s->nrows++];
        bool any = false;
        row->vals = group_tuple(&s->tuples, j);
        row->cells = calloc(m->nreports, sizeof(*row->cells));
        if (!row->cells)
            goto out;
        for (i = 0; i < m->nreports; i++) {
            for (r = 0; r < m->nall; r++) {
                const struct m_point *p;
                const struct m_metric *mt;
                if (m->side_of[r] != i || !lists[r])
                    continue;
                p = point_index_find(&ix[r], row->vals);
                mt = p ? model_primary_metric(p) : NULL;
                if (mt)
                    cell_acc_add_metric(m, &acc, r, run_exp(m, s, r), &mt->st);
            }
            cell_acc_finish(m, i, &acc, &row->cells[i]);
            any |= row->cells[i].present;
        }
        if (!any) { /* points with values only: the value rows show them */
            free(row->cells);
            s->nrows--;
        }
    }
    mark_unmatched(m, s);
    ok = build_role_rows(m, s, lists, cap);
out:
    cell_acc_free(&acc);
    for (r = 0; ix && r < m->nall; r++)
        point_index_free(&ix[r]);
    free(ix);
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
bool compare_build_value_rows(const struct cmp_model *m, struct cmp_section *s)
{
    const struct m_points **lists = calloc(m->nreports, sizeof(*lists));
    struct point_index *ix = calloc(m->nreports ? m->nreports : 1, sizeof(*ix));
    size_t i, j, t, cap = 0;
    bool ok = false;
    if (!lists || !ix)
        goto out;
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
    for (i = 0; i < m->nreports; i++)
        if (lists[i] && !point_index_build(lists[i], &s->vkeys, &ix[i]))
            goto out;
    for (t = 0; t < s->vtuples.n; t++) {
        const struct m_param *const *vals = group_tuple(&s->vtuples, t);
        size_t first = s->nvrows;
        for (i = 0; i < m->nreports; i++) {
            const struct m_point *p = lists[i] ? point_index_find(&ix[i], vals) : NULL;
            for (j = 0; p && j < p->nvalues; j++) {
                struct cmp_value_row *row = value_row(m, s, first, cap, vals, p->values[j].key);
                if (row)
                    row->v[i] = p->values[j].v;
            }
        }
    }
    ok = true;
out:
    for (i = 0; ix && i < m->nreports; i++)
        point_index_free(&ix[i]);
    free(ix);
    free(lists);
    return ok;
}
