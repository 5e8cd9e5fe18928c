#include "reports/tool/compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_roles.h"
#include "reports/tool/compare/compare_where.h"
#include "reports/tool/views/ipi.h"
#include "reports/tool/model/cpu_roles.h"
#include "reports/tool/model/param_defaults.h"
#include "reports/tool/model/point_index.h"
#include "reports/tool/model/units.h"
#include "reports/tool/model/vocab.h"

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
    const struct cmp_cell *a = &row->cells[row->base], *b = &row->cells[report];
    if (report == row->base || !a->present || !b->present || !(a->p50 > 0))
        return NAN;
    return b->p50 / a->p50;
}

static double in_unit(const struct cmp_model *m, const struct m_report *r, double ticks)
{
    return m->in_ns ? model_ticks_to_ns(r, ticks) : ticks;
}

size_t compare_side_runs(const struct cmp_model *m, size_t side)
{
    size_t r, n = 0;
    for (r = 0; r < m->nall; r++)
        n += m->side_of[r] == side;
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Lower median, like the reports' nearest-rank p50: a value one run measured. */
/* The median of the finite values (a p99 is NaN where a run had too few samples); NaN if none. */
static double median(double *v, size_t n)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[k++] = v[i];
    if (!k)
        return NAN;
    qsort(v, k, sizeof(*v), cmp_double);
    return v[(k - 1) / 2];
}

/*
 * Collects one side's runs of a point (p50/p99 in ticks, per run) into a
 * cell: the medians over the runs and the range of the p50s.
 */
struct cell_acc {
    double *p50, *p99; /* nall each */
    size_t n;
    bool emulated;
    double ci_lo, ci_hi; /* the first run's p50_ci95 (a cell of one run shows it) */
};

static void acc_add(const struct cmp_model *m, struct cell_acc *a, size_t run,
                    const struct m_experiment *e, double p50, double p99)
{
    if (!a->n)
        a->ci_lo = a->ci_hi = NAN;
    a->p50[a->n] = in_unit(m, m->all[run], p50);
    a->p99[a->n] = in_unit(m, m->all[run], p99);
    a->n++;
    a->emulated |= e->emulated;
}

/* A metric's point: its p50 and p99, and its p50_ci95 where the report has one. */
static void acc_add_metric(const struct cmp_model *m, struct cell_acc *a, size_t run,
                           const struct m_experiment *e, const struct m_stats *st)
{
    bool first = !a->n;
    acc_add(m, a, run, e, st->p50, st->p99);
    if (first) {
        a->ci_lo = in_unit(m, m->all[run], st->p50_lo);
        a->ci_hi = in_unit(m, m->all[run], st->p50_hi);
    }
}

static void acc_finish(const struct cmp_model *m, size_t side, struct cell_acc *a,
                       struct cmp_cell *c)
{
    const struct m_report *r = m->reports[side];
    size_t k;
    memset(c, 0, sizeof(*c));
    if (!a->n)
        return;
    c->present = true;
    c->runs = a->n;
    c->p50_lo = c->p50_hi = a->p50[0];
    for (k = 1; k < a->n; k++) {
        if (a->p50[k] < c->p50_lo)
            c->p50_lo = a->p50[k];
        if (a->p50[k] > c->p50_hi)
            c->p50_hi = a->p50[k];
    }
    c->p50 = median(a->p50, a->n);
    c->p99 = median(a->p99, a->n);
    c->virtualised = r->virtualised;
    c->emulated = a->emulated;
    c->simulated = r->simulated;
    /* one run: the interval of its p50 from its own samples; several: their range (compare.h) */
    c->ci_lo = a->n == 1 ? a->ci_lo : NAN;
    c->ci_hi = a->n == 1 ? a->ci_hi : NAN;
    a->n = 0;
    a->emulated = false;
}

static bool acc_init(const struct cmp_model *m, struct cell_acc *a)
{
    memset(a, 0, sizeof(*a));
    a->p50 = calloc(m->nall ? m->nall : 1, sizeof(double));
    a->p99 = calloc(m->nall ? m->nall : 1, sizeof(double));
    return a->p50 && a->p99;
}

static void acc_free(struct cell_acc *a)
{
    free(a->p50);
    free(a->p99);
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
                acc_add(m, acc, r, e, all.p50, all.p99);
        }
        acc_finish(m, i, acc, &row->cells[i]);
    }
    return true;
}

/* ipi_roundtrip: one row per topology class any report has. */
static bool build_class_rows(const struct cmp_model *m, struct cmp_section *s)
{
    struct ipi_class_row *rows = calloc(m->nall * IPI_MAX_CLASSES, sizeof(*rows));
    size_t *nrows = calloc(m->nall, sizeof(*nrows));
    struct cell_acc acc;
    size_t r, i, j, k;
    bool ok = false;
    if (!acc_init(m, &acc) || !rows || !nrows)
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
                        acc_add(m, &acc, r, run_exp(m, s, r), c->p50, c->p99);
                }
            }
            acc_finish(m, i, &acc, &s->rows[k].cells[i]);
        }
    }
    if (!m->cross_arch && sides_share_no_class(m, s) && !add_all_pairs_row(m, s, &acc))
        goto out;
    qsort(s->rows, s->nrows, sizeof(*s->rows), cmp_class);
    mark_unmatched(m, s);
    ok = true;
out:
    acc_free(&acc);
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
    if (!maxt || !seen || !first || !acc_init(m, &acc))
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
                acc_add_metric(m, &acc, r, run_exp(m, s, r), &mt->st);
                if (isnan(seen[i])) /* what the role stood for in this side */
                    seen[i] = (isnan(maxt[r].targets) ? -1 : maxt[r].targets) * 65536 +
                              (isnan(maxt[r].cpus) ? -1 : maxt[r].cpus);
            }
            acc_finish(m, i, &acc, &row->cells[i]);
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
    acc_free(&acc);
    free(store);
    free(groups);
    free(ents);
    free(first);
    free(maxt);
    free(seen);
    return ok;
}

/* Every other experiment: one row per distinct parameter combination in any report. */
static bool build_point_rows(const struct cmp_model *m, struct cmp_section *s)
{
    const struct m_points **lists = calloc(m->nall ? m->nall : 1, sizeof(*lists));
    struct point_index *ix = calloc(m->nall ? m->nall : 1, sizeof(*ix));
    const char *x_axis = NULL, *series = NULL;
    struct cell_acc acc = { NULL, NULL, 0, false, NAN, NAN };
    size_t i, j, r, cap = 0;
    bool ok = false;
    if (!lists || !ix || !acc_init(m, &acc))
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
                    acc_add_metric(m, &acc, r, run_exp(m, s, r), &mt->st);
            }
            acc_finish(m, i, &acc, &row->cells[i]);
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
    acc_free(&acc);
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
static bool build_value_rows(const struct cmp_model *m, struct cmp_section *s)
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

/*
 * Has an experiment before `e` (in an earlier report, or earlier in its own)
 * the same id? Then its section exists. Searching the sections instead made
 * compare quadratic in the number of experiments; model_experiment is O(log n).
 */
static bool seen_before(struct m_report *const *all, size_t report, const struct m_experiment *e)
{
    size_t i;
    if (model_experiment(all[report], e->id) != e)
        return true;
    for (i = 0; i < report; i++)
        if (model_experiment(all[i], e->id))
            return true;
    return false;
}

/* Does side i have a measured cell in some row of the section? */
static bool side_measured(const struct cmp_section *s, size_t i)
{
    size_t j;
    for (j = 0; j < s->nrows; j++)
        if (s->rows[j].cells[i].present)
            return true;
    return false;
}

/* The section's base: the baseline, or the first side that measured it (compare.h). */
static void set_base(const struct cmp_model *m, struct cmp_section *s)
{
    size_t i, j, b = m->opts.baseline < m->nreports ? m->opts.baseline : 0;
    for (i = 0; i < m->nreports && !side_measured(s, i); i++)
        ;
    s->base = side_measured(s, b) ? b : i < m->nreports ? i : b;
    if (MUTANT(base_always_first))
        s->base = 0;
    for (j = 0; j < s->nrows; j++) {
        s->rows[j].base = s->base;
        s->rows[j].band = m->opts.threshold;
    }
}

static void section_free(struct cmp_section *s)
{
    size_t j;
    for (j = 0; s->rows && j < s->nrows; j++)
        free(s->rows[j].cells);
    free(s->rows);
    free(s->exp);
    free(s->role_vals);
    group_tuples_free(&s->tuples);
    for (j = 0; s->vrows && j < s->nvrows; j++)
        free(s->vrows[j].v);
    free(s->vrows);
    group_tuples_free(&s->vtuples);
    memset(s, 0, sizeof(*s));
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
    if (m->opts.nwhere && !compare_where_applies(m, s)) { /* --where names no parameter of it */
        section_free(s);
        m->nsections--;
        return true;
    }
    if (!build_value_rows(m, s))
        return false;
    if (m->opts.nwhere)
        compare_where_rows(m, s);
    set_base(m, s);
    return true;
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

/* Some ratio of the comparison has an interval (compare_ratio_interval). */
static bool any_interval(const struct cmp_model *m)
{
    size_t k, j, i;
    double lo, hi;
    for (k = 0; k < m->nsections; k++)
        for (j = 0; j < m->sections[k].nrows; j++)
            for (i = 0; i < m->nreports; i++)
                if (compare_ratio_range(&m->sections[k].rows[j], i, &lo, &hi))
                    return true;
    return false;
}

static bool wanted(const struct cmp_model *m, const char *id)
{
    size_t i;
    if (!m->opts.nexperiments)
        return true;
    for (i = 0; i < m->opts.nexperiments; i++)
        if (strcmp(m->opts.experiments[i], id) == 0)
            return true;
    return false;
}

bool compare_build_pooled(struct m_report *const *all, const size_t *side_of, size_t nall,
                          size_t nsides, const struct cmp_options *opts, struct cmp_model *out)
{
    size_t i, j, total = 0, hw = 0;
    memset(out, 0, sizeof(*out));
    out->opts.fail_if_slower = NAN;
    out->opts.threshold = CMP_DEFAULT_THRESHOLD;
    if (opts)
        out->opts = *opts;
    out->all = all;
    out->nall = nall;
    out->side_of = calloc(nall ? nall : 1, sizeof(*out->side_of));
    out->owned = calloc(nsides ? nsides : 1, sizeof(*out->owned));
    if (!out->side_of || !out->owned) {
        compare_free(out);
        return false;
    }
    for (i = 0; i < nall; i++) {
        out->side_of[i] = side_of[i] < nsides ? side_of[i] : 0;
        if (!out->owned[out->side_of[i]])
            out->owned[out->side_of[i]] = all[i];
        else
            out->pooled = true;
    }
    for (i = 0; i < nsides; i++)
        if (!out->owned[i]) { /* an empty side: the caller's mistake */
            compare_free(out);
            return false;
        }
    out->reports = out->owned;
    out->nreports = nsides;
    if (!group_machines(out)) {
        compare_free(out);
        return false;
    }
    out->in_ns = nall > 0;
    for (i = 0; i < nall; i++) {
        out->in_ns &= all[i]->tsc_hz > 0;
        hw += compare_is_hardware(all[i]);
        total += all[i]->nexperiments;
    }
    out->mixed = hw > 0 && hw < nall;
    out->cross_arch = compare_arch_mixed(all, nall);
    if (!total)
        return true;
    /* points of older reports get the parameters later ones added, so that they align */
    if (out->opts.align_defaults && !MUTANT(no_param_defaults) &&
        !param_defaults_align(all, nall)) {
        compare_free(out);
        return false;
    }
    /* a parameter that names a CPU (the target of ipi_target_state) is a role: cpu_roles.h */
    if (out->opts.align_defaults && !cpu_roles_align(all, nall)) {
        compare_free(out);
        return false;
    }
    out->sections = calloc(total, sizeof(*out->sections));
    if (!out->sections) {
        compare_free(out);
        return false;
    }
    if (!(out->opts.threshold >= 0))
        out->opts.threshold = CMP_DEFAULT_THRESHOLD;
    /* sections in the order experiments first appear, report A first */
    for (i = 0; i < nall; i++) {
        for (j = 0; j < all[i]->nexperiments; j++) {
            const struct m_experiment *e = &all[i]->experiments[j];
            if (!e->id || !wanted(out, e->id) || seen_before(all, i, e) ||
                !compare_arch_keeps(out, e->id))
                continue;
            if (!add_section(out, e)) {
                compare_free(out);
                return false;
            }
        }
    }
    out->intervals = any_interval(out);
    return true;
}

bool compare_build(struct m_report *const *reports, size_t n, struct cmp_model *out)
{
    size_t *side = calloc(n ? n : 1, sizeof(*side)), i;
    bool ok;
    if (!side) {
        memset(out, 0, sizeof(*out));
        return false;
    }
    for (i = 0; i < n; i++)
        side[i] = i;
    ok = compare_build_pooled(reports, side, n, n, NULL, out);
    free(side);
    return ok;
}

/* A cell's interval: its p50s' range over two runs or more, else its p50_ci95. */
static bool cell_interval(const struct cmp_cell *c, double *lo, double *hi)
{
    if (c->runs >= 2) {
        *lo = c->p50_lo;
        *hi = c->p50_hi;
        return true;
    }
    *lo = c->ci_lo;
    *hi = c->ci_hi;
    return isfinite(*lo) && isfinite(*hi);
}

enum cmp_interval compare_ratio_interval(const struct cmp_row *row, size_t side, double *lo,
                                         double *hi)
{
    const struct cmp_cell *a = &row->cells[row->base], *b = &row->cells[side];
    double alo, ahi, blo, bhi;
    *lo = *hi = NAN;
    if (side == row->base || !a->present || !b->present || !cell_interval(a, &alo, &ahi) ||
        !cell_interval(b, &blo, &bhi) || !(alo > 0))
        return CMP_IV_NONE;
    *lo = blo / ahi;
    *hi = bhi / alo;
    return a->runs >= 2 && b->runs >= 2 ? CMP_IV_RUNS
           : a->runs == 1 && b->runs == 1 ? CMP_IV_CI95 : CMP_IV_MIXED;
}

bool compare_ratio_range(const struct cmp_row *row, size_t side, double *lo, double *hi)
{
    return compare_ratio_interval(row, side, lo, hi) != CMP_IV_NONE;
}

const char *compare_interval_text(enum cmp_interval k)
{
    switch (k) {
    case CMP_IV_RUNS: return "range over the runs";
    case CMP_IV_CI95: return "interval from the p50s' 95% intervals";
    case CMP_IV_MIXED: return "interval from the runs' ranges and the p50s' 95% intervals";
    default: return "no interval";
    }
}

enum cmp_verdict compare_verdict(const struct cmp_row *row, size_t side)
{
    double lo, hi, q = compare_ratio(row, side), band;
    if (!isfinite(q))
        return CMP_NO_RATIO;
    if (!compare_ratio_range(row, side, &lo, &hi))
        return CMP_SPREAD_UNKNOWN;
    /* the interval on one side of 1 (not noise) and the ratio past the dead band (it matters) */
    band = MUTANT(verdict_without_band) ? 0 : row->band;
    if (lo > 1 && q > 1 + band)
        return CMP_SLOWER;
    if (hi < 1 && q < 1 - band)
        return CMP_FASTER;
    return CMP_NO_DIFFERENCE;
}

const char *compare_verdict_text(enum cmp_verdict v)
{
    switch (v) {
    case CMP_SPREAD_UNKNOWN: return "spread unknown";
    case CMP_FASTER: return "faster";
    case CMP_SLOWER: return "slower";
    case CMP_NO_DIFFERENCE: return "no difference";
    default: return "-";
    }
}

/* Without a spread, a ratio this far from 1 counts as a difference (--only-differences). */
#define CMP_UNKNOWN_SPREAD_BAND 0.10

bool compare_row_differs(const struct cmp_model *m, const struct cmp_row *row)
{
    size_t i;
    for (i = 0; i < m->nreports; i++) {
        enum cmp_verdict v = compare_verdict(row, i);
        double q = compare_ratio(row, i);
        if (v == CMP_SLOWER || v == CMP_FASTER ||
            (v == CMP_SPREAD_UNKNOWN && fabs(q - 1) > CMP_UNKNOWN_SPREAD_BAND))
            return true;
    }
    return false;
}

double compare_row_max_ratio(const struct cmp_model *m, const struct cmp_row *row)
{
    double best = NAN;
    size_t i;
    for (i = 0; i < m->nreports; i++) {
        double q = compare_ratio(row, i);
        if (isfinite(q) && !(q <= best))
            best = q;
    }
    return best;
}

size_t compare_slower_points(const struct cmp_model *m, double pct, FILE *err)
{
    size_t k, j, i, n = 0;
    double limit = 1 + pct / 100;
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        for (j = 0; j < s->nrows; j++) {
            const struct cmp_row *row = &s->rows[j];
            if (row->unmatched)
                continue;
            for (i = 0; i < m->nreports; i++) {
                double q = compare_ratio(row, i), lo, hi;
                bool known = compare_ratio_range(row, i, &lo, &hi);
                char point[256];
                if (!isfinite(q) || !((known ? lo : q) > limit))
                    continue;
                n++;
                if (!err)
                    continue;
                if (s->by_class)
                    snprintf(point, sizeof(point), "class=%s", row->cls);
                else
                    group_tuple_text(&s->keys, row->vals, point, sizeof(point));
                if (known)
                    fprintf(err, "tlbscope-report: slower: %s vs %s: %s %s: p50 ratio %.3f, "
                            "%s %.3f-%.3f, above %.3f\n", m->reports[i]->label,
                            m->reports[s->base]->label, s->id, point, q,
                            compare_interval_text(compare_ratio_interval(row, i, &lo, &hi)), lo,
                            hi, limit);
                else
                    fprintf(err, "tlbscope-report: slower: %s vs %s: %s %s: p50 ratio %.3f "
                            "(spread unknown: one run per side), above %.3f\n",
                            m->reports[i]->label, m->reports[s->base]->label, s->id, point, q,
                            limit);
            }
        }
    }
    return n;
}

/*
 * "; A predates working_set (taken as 0 ...): measured differently" when a
 * default explains why a pair shares no point, else "".
 */
static const char *defaulted_why(const struct cmp_model *m, const struct cmp_section *s,
                                 size_t side, char *buf, size_t cap)
{
    size_t sides[2] = { s->base, side }, k, d, len = 0;
    buf[0] = '\0';
    for (k = 0; k < 2; k++) {
        const struct m_experiment *e = s->exp[sides[k]];
        for (d = 0; e && d < e->ndefaulted; d++) {
            const char *what = param_default_meaning(s->id, e->defaulted[d]);
            snprintf(buf + len, cap - len, "; %s predates %s (taken as %s), so its points were "
                     "measured differently", m->reports[sides[k]]->label, e->defaulted[d],
                     what ? what : "its default");
            len = strlen(buf);
        }
    }
    return buf;
}

/*
 * "target 1 vs 2": the first parameter (or the topology class) whose values
 * two sides never share, which is why no point of one meets one of the
 * other; "" when every parameter shares some value (a combination differs).
 */
static bool side_has_value(const struct cmp_section *s, size_t side, size_t k,
                           const struct cmp_row *like)
{
    size_t j;
    for (j = 0; j < s->nrows; j++) {
        const struct cmp_row *row = &s->rows[j];
        if (!row->cells[side].present || row->by_role)
            continue;
        if (s->by_class ? strcmp(row->cls, like->cls) == 0
                        : model_param_cmp(row->vals[k], like->vals[k]) == 0)
            return true;
    }
    return false;
}

static void side_values(const struct cmp_section *s, size_t side, size_t k, char *buf, size_t cap)
{
    size_t j, i, n = 0, len = 0;
    char v[64];
    buf[0] = '\0';
    for (j = 0; j < s->nrows && len + 1 < cap; j++) {
        const struct cmp_row *row = &s->rows[j];
        bool dup = false;
        if (!row->cells[side].present || row->by_role)
            continue;
        for (i = 0; i < j && !dup; i++)
            dup = s->rows[i].cells[side].present && !s->rows[i].by_role &&
                  (s->by_class ? strcmp(s->rows[i].cls, row->cls) == 0
                               : model_param_cmp(s->rows[i].vals[k], row->vals[k]) == 0);
        if (dup)
            continue;
        if (n++ >= 3) /* the first three, whole; the rest counted ("and 5 more") */
            continue;
        snprintf(buf + len, cap - len, "%s%s", n > 1 ? ", " : "",
                 s->by_class ? row->cls
                 : row->vals[k] ? model_param_text(row->vals[k], v, sizeof(v)) : "(none)");
        len = strlen(buf);
    }
    if (n > 3 && len + 1 < cap)
        snprintf(buf + len, cap - len, " and %zu more", n - 3);
}

static const char *disjoint_param(const struct cmp_model *m, const struct cmp_section *s,
                                  size_t a, size_t b, char *buf, size_t cap)
{
    size_t k, j, nk = s->by_class ? 1 : s->keys.n;
    char va[120], vb[120];
    buf[0] = '\0';
    for (k = 0; k < nk; k++) {
        bool shared = false;
        for (j = 0; j < s->nrows && !shared; j++)
            shared = s->rows[j].cells[a].present && !s->rows[j].by_role &&
                     side_has_value(s, b, k, &s->rows[j]);
        if (shared)
            continue;
        side_values(s, a, k, va, sizeof(va));
        side_values(s, b, k, vb, sizeof(vb));
        snprintf(buf, cap, "; %s %s vs %s (%s vs %s)", s->by_class ? "class" : s->keys.keys[k],
                 va, vb, m->reports[a]->label, m->reports[b]->label);
        break;
    }
    return buf;
}

size_t compare_disjoint_pairs(const struct cmp_model *m, FILE *err, bool fatal)
{
    char why[600], which[400];
    size_t k, i, j, n = 0;
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        for (i = 0; i < m->nreports; i++) {
            bool measured = false, ratio = false;
            if (i == s->base)
                continue;
            for (j = 0; j < s->nrows && !ratio; j++) {
                measured |= s->rows[j].cells[i].present;
                ratio |= isfinite(compare_ratio(&s->rows[j], i));
            }
            if (!measured || ratio || !side_measured(s, s->base))
                continue;
            n++;
            if (err)
                fprintf(err, "tlbscope-report: %s: %s: %s and %s have no point in common "
                        "(no parameter point of one matches one of the other, by value or "
                        "role)%s%s: nothing compared%s\n", fatal ? "error" : "warning", s->id,
                        m->reports[s->base]->label, m->reports[i]->label,
                        disjoint_param(m, s, s->base, i, which, sizeof(which)),
                        defaulted_why(m, s, i, why, sizeof(why)), fatal ? "" : " there");
        }
    }
    return n;
}

size_t compare_points_compared(const struct cmp_model *m)
{
    size_t k, j, i, n = 0;
    for (k = 0; k < m->nsections; k++)
        for (j = 0; j < m->sections[k].nrows; j++)
            for (i = 0; i < m->nreports; i++)
                n += !m->sections[k].rows[j].unmatched &&
                     isfinite(compare_ratio(&m->sections[k].rows[j], i));
    if (MUTANT(gate_passes_on_nothing))
        n++;
    return n;
}

void compare_defaulted_lines(const struct cmp_model *m, const struct cmp_section *s, FILE *out,
                             const char *prefix, int width)
{
    size_t i, k;
    char line[600];
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        size_t len;
        if (!e || !e->ndefaulted)
            continue;
        snprintf(line, sizeof(line), "%s predates ", m->reports[i]->label);
        for (k = 0; k < e->ndefaulted; k++) {
            const char *what = param_default_meaning(s->id, e->defaulted[k]);
            len = strlen(line);
            snprintf(line + len, sizeof(line) - len, "%s%s (taken as %s)", k ? ", " : "",
                     e->defaulted[k], what ? what : "its default");
        }
        len = strlen(line);
        snprintf(line + len, sizeof(line) - len, "; its points are matched with that default");
        units_print_wrapped(out, prefix, "      ", line, width);
    }
}

bool compare_row_counts(const struct cmp_row *row, size_t side)
{
    const struct cmp_cell *a = &row->cells[row->base], *b = &row->cells[side];
    /* both sides' role stood for the same count: the value row of those points has this ratio */
    if (row->by_role && !MUTANT(role_rows_doubled) && a->role_of == b->role_of)
        return false;
    return !row->unmatched;
}

const char *compare_percent_text(double ratio, char *buf, size_t cap)
{
    double pct = (ratio - 1) * 100;
    if (!isfinite(ratio))
        snprintf(buf, cap, "%s", "");
    else if (fabs(pct) < 0.5)
        snprintf(buf, cap, "%s", "+0%");
    else
        snprintf(buf, cap, "%+.0f%%", pct);
    return buf;
}

void compare_free(struct cmp_model *m)
{
    size_t i;
    for (i = 0; i < m->nsections; i++)
        section_free(&m->sections[i]);
    free(m->sections);
    m->sections = NULL;
    m->nsections = 0;
    free(m->machine);
    m->machine = NULL;
    free(m->side_of);
    m->side_of = NULL;
    free(m->owned);
    m->owned = NULL;
}
