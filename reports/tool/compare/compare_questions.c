/*
 * The questions of a cross-architecture comparison (compare_questions.h):
 * each side's points on Linux's path (the table's filter), their parameters
 * read as the question's, rows where two sides or more share the aligned
 * values, the nearest values matched where the grids differ, and the cells
 * in ns, each side's runs at its own rate.
 */
#include "reports/tool/compare/compare_questions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare_cells.h"
#include "reports/tool/views/ipi.h"

/* Is `text` one of the '|'-separated words of `list`? */
static bool word_in(const char *text, const char *list)
{
    size_t n = strlen(text);
    const char *w = list, *bar;
    for (;;) {
        bar = strchr(w, '|');
        if ((size_t)(bar ? bar - w : (ptrdiff_t)strlen(w)) == n && strncmp(w, text, n) == 0)
            return true;
        if (!bar)
            return false;
        w = bar + 1;
    }
}

/*
 * The point's value of question parameter `canon` (aq_map): 1 read into *out,
 * 0 the side has no such parameter (or the point lacks it), -1 its word is
 * none the question maps (not on its path).
 */
static int canon_of(const struct aq_side *sd, const struct m_point *p, const char *canon,
                    struct m_param *out)
{
    const struct aq_map *mp = NULL;
    const struct m_param *v;
    size_t k;
    for (k = 0; k < AQ_MAX_MAPS && sd->map[k].canon; k++)
        if (strcmp(sd->map[k].canon, canon) == 0)
            mp = &sd->map[k];
    if (!mp || !(v = model_param(p, mp->key)))
        return 0;
    out->key = canon;
    out->str = v->str;
    out->num = v->num;
    if (!mp->from[0])
        return 1;
    for (k = 0; k < AQ_MAX_WORDS && mp->from[k]; k++)
        if (v->str && strcmp(v->str, mp->from[k]) == 0) {
            out->str = mp->to[k];
            return 1;
        }
    return -1;
}

/* On Linux's path: a latency, every filter holds, every aligned parameter reads. */
static bool on_path(const struct aq_question *q, const struct aq_side *sd, const struct m_point *p)
{
    const struct m_metric *lat = model_metric(p, "latency");
    struct m_param v;
    size_t k;
    char buf[64];
    if (!lat || !lat->st.present || !isfinite(lat->st.p50))
        return false;
    for (k = 0; k < AQ_MAX_FILTERS && sd->filter[k].key && !MUTANT(arch_question_filter_dropped);
         k++) {
        const struct m_param *have = model_param(p, sd->filter[k].key);
        if (strcmp(sd->filter[k].value, "-") == 0 ? have != NULL
            : !have || !word_in(model_param_text(have, buf, sizeof(buf)), sd->filter[k].value))
            return false;
    }
    for (k = 0; k < AQ_MAX_KEYS && q->align[k]; k++)
        if (canon_of(sd, p, q->align[k], &v) != 1)
            return false;
    for (k = 0; k < AQ_MAX_KEYS && q->nearest[k]; k++)
        if (canon_of(sd, p, q->nearest[k], &v) < 0)
            return false;
    return true;
}

/* The point's aligned values equal the row's, and its nearest ones those chosen for its side. */
static bool in_row(const struct aq_question *q, const struct aq_side *sd, const struct m_point *p,
                   const struct m_param *align, const struct m_param *nearest, size_t upto)
{
    struct m_param v;
    size_t k;
    if (!on_path(q, sd, p))
        return false;
    for (k = 0; k < AQ_MAX_KEYS && q->align[k]; k++)
        if (canon_of(sd, p, q->align[k], &v) != 1 || model_param_cmp(&v, &align[k]) != 0)
            return false;
    for (k = 0; k < upto; k++)
        if (nearest[k].key &&
            (canon_of(sd, p, q->nearest[k], &v) != 1 || model_param_cmp(&v, &nearest[k]) != 0))
            return false;
    return true;
}

/* The run whose tick rate turns run r's ticks into ns: its own. */
static size_t rate_run(const struct cmp_model *m, size_t r)
{
    size_t o;
    if (MUTANT(arch_question_other_rate))
        for (o = 0; o < m->nall; o++)
            if (m->side_of[o] != m->side_of[r])
                return o;
    return r;
}

/* Side i's value of nearest key k for the row: the one nearest to the anchor (ties: larger). */
static bool pick_near(const struct cq_answer *a, const struct cq_row *row, size_t i, size_t k,
                      double anchor, double *got)
{
    const struct m_experiment *e = a->exp[i];
    bool any = false;
    size_t j;
    for (j = 0; e && j < e->results.count; j++) {
        const struct m_point *p = &e->results.items[j];
        struct m_param v;
        if (!in_row(a->q, a->side[i], p, row->align, &row->nearest[i * AQ_MAX_KEYS], k) ||
            canon_of(a->side[i], p, a->q->nearest[k], &v) != 1 || v.str || isnan(v.num))
            continue;
        if (!any || fabs(v.num - anchor) < fabs(*got - anchor) ||
            (fabs(v.num - anchor) == fabs(*got - anchor) && v.num > *got))
            *got = v.num;
        any = true;
    }
    return any;
}

/*
 * The nearest keys of a row, one after another: the anchor (a value some
 * side has) whose picks spread least over the sides (ties: the larger, as
 * "every other CPU"), each side then its value nearest to it.
 */
static void choose_nearest(const struct cmp_model *m, const struct cq_answer *a,
                           struct cq_row *row)
{
    size_t k, i, j, c;
    for (k = 0; k < AQ_MAX_KEYS && a->q->nearest[k]; k++) {
        double best = NAN, best_spread = INFINITY, got;
        for (c = 0; c < m->nreports; c++) {
            const struct m_experiment *e = a->exp[c];
            for (j = 0; e && j < e->results.count; j++) {
                struct m_param v;
                double lo = INFINITY, hi = -INFINITY;
                if (!in_row(a->q, a->side[c], &e->results.items[j], row->align,
                            &row->nearest[c * AQ_MAX_KEYS], k) ||
                    canon_of(a->side[c], &e->results.items[j], a->q->nearest[k], &v) != 1 ||
                    v.str)
                    continue;
                for (i = 0; i < m->nreports; i++)
                    if (a->exp[i] && pick_near(a, row, i, k, v.num, &got)) {
                        lo = fmin(lo, got);
                        hi = fmax(hi, got);
                    }
                if (hi - lo < best_spread || (hi - lo == best_spread && v.num > best)) {
                    best_spread = hi - lo;
                    best = v.num;
                }
            }
        }
        for (i = 0; i < m->nreports && !isnan(best); i++)
            if (a->exp[i] && pick_near(a, row, i, k, best, &got))
                row->nearest[i * AQ_MAX_KEYS + k] =
                    (struct m_param){ .key = a->q->nearest[k], .num = got };
    }
}

/* Side i's cell of the row: the matching point of each of its runs, in ns at that run's rate. */
static void fill_cell(const struct cmp_model *m, const struct cq_answer *a, struct cq_row *row,
                      size_t i, struct cell_acc *acc)
{
    size_t r, j;
    for (r = 0; r < m->nall; r++) {
        const struct m_experiment *e;
        if (m->side_of[r] != i || !(e = model_experiment(m->all[r], a->side[i]->experiment)))
            continue;
        if (a->q->all_pairs) {
            struct ipi_class_row all;
            if (ipi_all_pairs_row(e, &all))
                cell_acc_add(m, acc, rate_run(m, r), e, all.p50, all.p99);
            continue;
        }
        for (j = 0; j < e->results.count; j++) {
            const struct m_point *p = &e->results.items[j];
            if (!in_row(a->q, a->side[i], p, row->align, &row->nearest[i * AQ_MAX_KEYS],
                        AQ_MAX_KEYS))
                continue;
            if (!row->point[i])
                row->point[i] = p;
            cell_acc_add_metric(m, acc, rate_run(m, r), e, &model_metric(p, "latency")->st);
            break;
        }
    }
    cell_acc_finish(m, i, acc, &row->row.cells[i]);
}

static bool row_alloc(const struct cmp_model *m, struct cq_row *row)
{
    memset(row, 0, sizeof(*row));
    row->nearest = calloc(m->nreports * AQ_MAX_KEYS, sizeof(*row->nearest));
    row->point = calloc(m->nreports, sizeof(*row->point));
    row->row.cells = calloc(m->nreports, sizeof(*row->row.cells));
    return row->nearest && row->point && row->row.cells;
}

static void row_free(struct cq_row *row)
{
    free(row->nearest);
    free(row->point);
    free(row->row.cells);
}

static int cmp_align(const struct m_param *x, const struct m_param *y)
{
    size_t k;
    int c;
    for (k = 0; k < AQ_MAX_KEYS && x[k].key; k++)
        if ((c = model_param_cmp(&x[k], &y[k])) != 0)
            return c;
    return 0;
}

static int cmp_rows(const void *a, const void *b)
{
    return cmp_align(((const struct cq_row *)a)->align, ((const struct cq_row *)b)->align);
}

/* The distinct aligned values of every side's points on the path, as rows (sorted). */
static bool collect_rows(const struct cmp_model *m, struct cq_answer *a)
{
    size_t i, j, k, cap = 1;
    for (i = 0; i < m->nreports; i++)
        cap += a->exp[i] ? a->exp[i]->results.count : 0;
    if (!(a->rows = calloc(cap, sizeof(*a->rows))))
        return false;
    if (a->q->all_pairs)
        return row_alloc(m, &a->rows[a->nrows++]);
    for (i = 0; i < m->nreports; i++) {
        for (j = 0; a->exp[i] && j < a->exp[i]->results.count; j++) {
            const struct m_point *p = &a->exp[i]->results.items[j];
            struct m_param v[AQ_MAX_KEYS];
            memset(v, 0, sizeof(v));
            if (!on_path(a->q, a->side[i], p))
                continue;
            for (k = 0; k < AQ_MAX_KEYS && a->q->align[k]; k++)
                canon_of(a->side[i], p, a->q->align[k], &v[k]);
            for (k = 0; k < a->nrows && cmp_align(a->rows[k].align, v) != 0; k++)
                ;
            if (k < a->nrows)
                continue;
            if (!row_alloc(m, &a->rows[a->nrows++]))
                return false;
            memcpy(a->rows[k].align, v, sizeof(v));
        }
    }
    qsort(a->rows, a->nrows, sizeof(*a->rows), cmp_rows);
    return true;
}

/* Does side i have a point on the question's path? */
static bool side_answers(const struct cq_answer *a, size_t i)
{
    size_t j;
    struct ipi_class_row all;
    if (!a->exp[i])
        return false;
    if (a->q->all_pairs)
        return ipi_all_pairs_row(a->exp[i], &all) > 0;
    for (j = 0; j < a->exp[i]->results.count; j++)
        if (on_path(a->q, a->side[i], &a->exp[i]->results.items[j]))
            return true;
    return false;
}

/* Why a side does not answer, appended to a->reason. */
static void why_not(const struct cmp_model *m, struct cq_answer *a, size_t i)
{
    const struct m_report *r = m->reports[i];
    const struct m_experiment *e = a->side[i] ? model_experiment(r, a->side[i]->experiment) : NULL;
    size_t len = strlen(a->reason);
    char *at = a->reason + len;
    size_t room = sizeof(a->reason) - len;
    if (!a->side[i])
        snprintf(at, room, "%s%s (%s) has no such question", len ? "; " : "", r->label,
                 r->architecture);
    else if (!e)
        snprintf(at, room, "%s%s (%s) has no %s experiment (its tool version has none)",
                 len ? "; " : "", r->label, r->architecture, a->side[i]->experiment);
    else if (e->status && strcmp(e->status, "SKIP") == 0)
        snprintf(at, room, "%s%s (%s): %s was skipped: %s", len ? "; " : "", r->label,
                 r->architecture, a->side[i]->experiment,
                 e->reason ? e->reason : "no reason given");
    else
        snprintf(at, room, "%s%s (%s): %s has no point on Linux's path", len ? "; " : "",
                 r->label, r->architecture, a->side[i]->experiment);
}

/* One question: its sides, rows and cells, or the reason it compares nothing. */
static bool answer(const struct cmp_model *m, const struct aq_question *q, struct cq_answer *a)
{
    struct cell_acc acc;
    size_t i, j, k, kept = 0;
    a->q = q;
    a->side = calloc(m->nreports, sizeof(*a->side));
    a->exp = calloc(m->nreports, sizeof(*a->exp));
    a->instead = calloc(m->nreports, sizeof(*a->instead));
    if (!a->side || !a->exp || !a->instead)
        return false;
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *alt;
        a->side[i] = aq_side_of(q, m->reports[i]->architecture);
        a->exp[i] = a->side[i] ? model_experiment(m->reports[i], a->side[i]->experiment) : NULL;
        /* a report from before the side's path existed: the path it measured then */
        if (a->exp[i] && !side_answers(a, i) && a->side[i]->before) {
            a->side[i] = a->side[i]->before;
            a->exp[i] = model_experiment(m->reports[i], a->side[i]->experiment);
        }
        if (a->exp[i] && !side_answers(a, i))
            a->exp[i] = NULL; /* why_not says why */
        a->answering += a->exp[i] != NULL;
        alt = a->side[i] && a->side[i]->instead_experiment
                  ? model_experiment(m->reports[i], a->side[i]->instead_experiment) : NULL;
        a->instead[i] = alt && alt->status && strcmp(alt->status, "SKIP") != 0 &&
                        alt->results.count > 0;
    }
    if (a->answering < 2) {
        for (i = 0; i < m->nreports; i++)
            if (!a->exp[i])
                why_not(m, a, i);
        return true;
    }
    if (!collect_rows(m, a) || !cell_acc_init(m, &acc))
        return false;
    for (j = 0; j < a->nrows; j++) {
        struct cq_row *row = &a->rows[j];
        size_t present = 0;
        choose_nearest(m, a, row);
        for (i = 0; i < m->nreports; i++) {
            if (a->exp[i])
                fill_cell(m, a, row, i, &acc);
            present += row->row.cells[i].present;
        }
        if (present >= 2)
            a->rows[kept++] = *row;
        else
            row_free(row);
    }
    cell_acc_free(&acc);
    a->nrows = kept;
    /* the base: the baseline where it answers, else the first side that does */
    a->base = m->opts.baseline < m->nreports && a->exp[m->opts.baseline] ? m->opts.baseline : 0;
    for (i = 0; i < m->nreports && !a->exp[a->base]; i++)
        a->base = i;
    for (j = 0; j < a->nrows; j++) {
        a->rows[j].row.base = a->base;
        a->rows[j].row.band = m->opts.threshold;
    }
    if (!a->nrows) {
        snprintf(a->reason, sizeof(a->reason), "no point two sides share (by");
        for (k = 0; k < AQ_MAX_KEYS && q->align[k]; k++)
            snprintf(a->reason + strlen(a->reason), sizeof(a->reason) - strlen(a->reason),
                     "%s %s", k ? "," : "", q->align[k]);
        snprintf(a->reason + strlen(a->reason), sizeof(a->reason) - strlen(a->reason), ")");
    }
    return true;
}

/* --experiment: the question, or an experiment that answers it on some side, is named. */
static bool wanted(const struct cmp_model *m, const struct aq_question *q)
{
    size_t i, s;
    for (i = 0; i < m->opts.nexperiments; i++) {
        if (strcmp(m->opts.experiments[i], q->id) == 0)
            return true;
        for (s = 0; s < AQ_MAX_ARCHES; s++)
            if (q->sides[s].experiment &&
                strcmp(m->opts.experiments[i], q->sides[s].experiment) == 0)
                return true;
    }
    return m->opts.nexperiments == 0;
}

bool compare_questions_build(const struct cmp_model *m, struct cq_set *out)
{
    size_t k;
    memset(out, 0, sizeof(*out));
    if (!m->cross_arch || !m->in_ns)
        return true;
    if (!(out->answers = calloc(aq_nquestions, sizeof(*out->answers))))
        return false;
    out->nsides = m->nreports;
    for (k = 0; k < aq_nquestions; k++) {
        if (!wanted(m, &aq_questions[k]))
            continue;
        if (!answer(m, &aq_questions[k], &out->answers[out->n++])) {
            compare_questions_free(out);
            return false;
        }
    }
    return true;
}

void compare_questions_free(struct cq_set *s)
{
    size_t k, j;
    for (k = 0; k < s->n; k++) {
        struct cq_answer *a = &s->answers[k];
        for (j = 0; j < a->nrows; j++)
            row_free(&a->rows[j]);
        free(a->rows);
        free(a->side);
        free(a->exp);
        free(a->instead);
    }
    free(s->answers);
    memset(s, 0, sizeof(*s));
}

bool compare_questions_use(const struct cq_set *s, const char *id)
{
    size_t k, i;
    for (k = 0; id && k < s->n; k++)
        for (i = 0; s->answers[k].nrows && i < s->nsides; i++)
            if (s->answers[k].exp[i] && strcmp(s->answers[k].side[i]->experiment, id) == 0)
                return true;
    return false;
}

const char *compare_questions_how(const struct cq_answer *a, const struct cq_row *r, size_t i,
                                  char *buf, size_t cap)
{
    const struct aq_side *sd = a->side[i];
    const struct m_param *v = sd && sd->shown && r->point[i] ? model_param(r->point[i], sd->shown)
                                                              : NULL;
    char val[64] = "";
    if (!sd || !r->row.cells[i].present) {
        snprintf(buf, cap, "-");
        return buf;
    }
    if (v)
        model_param_text(v, val, sizeof(val));
    snprintf(buf, cap, "%s%s%s", sd->how ? sd->how : "", sd->how && val[0] ? " " : "", val);
    return buf;
}

const char *compare_questions_details(const struct aq_side *sd, const struct m_report *r,
                                      char *buf, size_t cap)
{
    size_t k, len = 0;
    buf[0] = '\0';
    for (k = 0; k < AQ_MAX_DETAILS && sd->details[k]; k++) {
        const json_t *v = r->root ? json_object_get(json_object_get(r->root, "method"),
                                                    sd->details[k])
                                  : NULL;
        char val[64];
        if (json_is_string(v))
            snprintf(val, sizeof(val), "%s", json_string_value(v));
        else if (json_is_integer(v))
            snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
        else
            continue;
        len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s %s",
                                len ? ", " : "", sd->details[k], val);
    }
    return buf;
}
