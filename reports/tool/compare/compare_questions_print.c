/*
 * The questions of a cross-architecture comparison as text, Markdown and JSON
 * (compare_questions.h): per question each side's experiment, filter and
 * mechanism, what Linux does on each architecture, then a row per shared
 * point with each side's mechanism and p50 in ns and the ratios to the base.
 */
#include "reports/tool/compare/compare_questions.h"

#include <math.h>
#include <string.h>

#include "reports/tool/model/units.h"

/* "mode conc, flush invlpg or cr3_reload, no placement": the side's filter in words. */
static const char *filter_text(const struct aq_side *sd, char *buf, size_t cap)
{
    size_t k, len = 0;
    buf[0] = '\0';
    for (k = 0; k < AQ_MAX_FILTERS && sd->filter[k].key && len < cap; k++) {
        const char *v = sd->filter[k].value, *bar = strchr(v, '|');
        if (strcmp(v, "-") == 0)
            len += (size_t)snprintf(buf + len, cap - len, "%sno %s", len ? ", " : "",
                                    sd->filter[k].key);
        else if (bar)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s %.*s or %s", len ? ", " : "",
                                    sd->filter[k].key, (int)(bar - v), v, bar + 1);
        else
            len += (size_t)snprintf(buf + len, cap - len, "%s%s %s", len ? ", " : "",
                                    sd->filter[k].key, v);
    }
    return buf;
}

/* "1.84?": the ratio, marked where either value is not hardware's (the legend's ?). */
static const char *ratio_text(const struct cmp_model *m, const struct cmp_row *row, size_t i,
                              char *buf, size_t cap)
{
    const struct cmp_cell *c = &row->cells[i], *b = &row->cells[row->base];
    double q = compare_ratio(row, i);
    char r[32];
    bool marked = !compare_is_hardware(m->reports[row->base]) || !compare_is_hardware(m->reports[i]) ||
                  c->emulated || b->emulated;
    snprintf(buf, cap, "%s%s", units_ratio(q, r, sizeof(r)), isfinite(q) && marked ? "?" : "");
    return buf;
}

static const char *cell_text(const struct cmp_cell *c, char *buf, size_t cap)
{
    char num[32];
    if (!c->present || !isfinite(c->p50))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%s%s%s%s", units_time(c->p50, num, sizeof(num)),
                 c->virtualised ? "*" : "", c->simulated ? "^" : "", c->emulated ? "~" : "");
    return buf;
}

/* How many aligned and how many nearest parameters the question has. */
static void count_keys(const struct aq_question *q, size_t *nkeys, size_t *nnear)
{
    for (*nkeys = 0; *nkeys < AQ_MAX_KEYS && q->align[*nkeys]; ++*nkeys)
        ;
    for (*nnear = 0; *nnear < AQ_MAX_KEYS && q->nearest[*nnear]; ++*nnear)
        ;
}

/* Side i's value of nearest key k is the same on every row it has: said once, above the table. */
static bool nearest_constant(const struct cq_answer *a, size_t i, size_t k)
{
    const struct m_param *first = NULL;
    size_t j;
    for (j = 0; j < a->nrows; j++) {
        const struct m_param *v = &a->rows[j].nearest[i * AQ_MAX_KEYS + k];
        if (!a->rows[j].row.cells[i].present)
            continue;
        if (!first)
            first = v;
        else if ((first->key == NULL) != (v->key == NULL) ||
                 (v->key && model_param_cmp(first, v) != 0))
            return false;
    }
    return true;
}

/* "on every row: A pages 1, B pages 8": the nearest values each side keeps throughout. */
static bool constant_line(const struct cmp_model *m, const struct cq_answer *a, char *buf,
                          size_t cap)
{
    size_t i, j, k, len = 0;
    char v[64];
    buf[0] = '\0';
    for (k = 0; k < AQ_MAX_KEYS && a->q->nearest[k]; k++)
        for (i = 0; i < m->nreports; i++) {
            if (!a->exp[i] || !nearest_constant(a, i, k))
                continue;
            for (j = 0; j < a->nrows && !a->rows[j].row.cells[i].present; j++)
                ;
            if (j == a->nrows || !a->rows[j].nearest[i * AQ_MAX_KEYS + k].key)
                continue;
            len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s %s %s",
                                    len ? ", " : "", m->reports[i]->label, a->q->nearest[k],
                                    model_param_text(&a->rows[j].nearest[i * AQ_MAX_KEYS + k], v,
                                                     sizeof(v)));
        }
    return len > 0;
}

static struct table *question_table(const struct cmp_model *m, const struct cq_answer *a)
{
    size_t i, j, k, nkeys, nnear, ncols, col;
    bool varies[COMPARE_MAX_REPORTS][AQ_MAX_KEYS];
    struct table *t;
    char buf[96];
    count_keys(a->q, &nkeys, &nnear);
    ncols = (a->q->all_pairs ? 1 : nkeys);
    for (i = 0; i < m->nreports && i < COMPARE_MAX_REPORTS; i++) {
        if (!a->exp[i])
            continue;
        ncols += 2 + (i != a->base);
        for (k = 0; k < nnear; k++)
            ncols += (varies[i][k] = !nearest_constant(a, i, k));
    }
    if (!(t = table_new(ncols)))
        return NULL;
    col = 0;
    if (a->q->all_pairs)
        table_header(t, col++, "pairs", false);
    for (k = 0; k < nkeys; k++)
        table_header(t, col++, a->q->align[k], true);
    for (i = 0; i < m->nreports && i < COMPARE_MAX_REPORTS; i++) {
        if (!a->exp[i])
            continue;
        snprintf(buf, sizeof(buf), "%s how", m->reports[i]->label);
        table_header(t, col++, buf, false);
        for (k = 0; k < nnear; k++) {
            if (!varies[i][k])
                continue;
            snprintf(buf, sizeof(buf), "%s %s", m->reports[i]->label, a->q->nearest[k]);
            table_header(t, col++, buf, true);
        }
        snprintf(buf, sizeof(buf), "%s p50", m->reports[i]->label);
        table_header(t, col++, buf, true);
        if (i != a->base) {
            snprintf(buf, sizeof(buf), "%s/%s", m->reports[i]->label,
                     m->reports[a->base]->label);
            table_header(t, col++, buf, true);
        }
    }
    for (j = 0; j < a->nrows; j++) {
        const struct cq_row *r = &a->rows[j];
        size_t row = table_add_row(t);
        col = 0;
        if (a->q->all_pairs)
            table_set(t, row, col++, "all");
        for (k = 0; k < nkeys; k++)
            table_set(t, row, col++, "%s", model_param_text(&r->align[k], buf, sizeof(buf)));
        for (i = 0; i < m->nreports && i < COMPARE_MAX_REPORTS; i++) {
            if (!a->exp[i])
                continue;
            table_set(t, row, col++, "%s", compare_questions_how(a, r, i, buf, sizeof(buf)));
            for (k = 0; k < nnear; k++) {
                const struct m_param *v = &r->nearest[i * AQ_MAX_KEYS + k];
                if (varies[i][k])
                    table_set(t, row, col++, "%s", v->key && r->row.cells[i].present
                                                        ? model_param_text(v, buf, sizeof(buf))
                                                        : "-");
            }
            table_set(t, row, col++, "%s", cell_text(&r->row.cells[i], buf, sizeof(buf)));
            if (i != a->base)
                table_set(t, row, col++, "%s", ratio_text(m, &r->row, i, buf, sizeof(buf)));
        }
    }
    return t;
}

/*
 * The long layout, where the wide one is past the width (three sides or more): a row per
 * point and side, its mechanism, nearest values, p50 and ratio to the base.
 */
static struct table *question_long_table(const struct cmp_model *m, const struct cq_answer *a)
{
    size_t i, j, k, nkeys, nnear, col;
    struct table *t;
    char buf[96];
    count_keys(a->q, &nkeys, &nnear);
    if (!(t = table_new(nkeys + nnear + 4)))
        return NULL;
    for (k = 0, col = 0; k < nkeys; k++)
        table_header(t, col++, a->q->align[k], true);
    table_header(t, col++, "side", false);
    table_header(t, col++, "how", false);
    for (k = 0; k < nnear; k++)
        table_header(t, col++, a->q->nearest[k], true);
    table_header(t, col++, "p50", true);
    snprintf(buf, sizeof(buf), "/%s", m->reports[a->base]->label);
    table_header(t, col, buf, true);
    for (j = 0; j < a->nrows; j++) {
        const struct cq_row *r = &a->rows[j];
        for (i = 0; i < m->nreports; i++) {
            size_t row;
            if (!r->row.cells[i].present)
                continue;
            row = table_add_row(t);
            for (k = 0, col = 0; k < nkeys; k++)
                table_set(t, row, col++, "%s", model_param_text(&r->align[k], buf, sizeof(buf)));
            table_set(t, row, col++, "%s", m->reports[i]->label);
            table_set(t, row, col++, "%s", compare_questions_how(a, r, i, buf, sizeof(buf)));
            for (k = 0; k < nnear; k++) {
                const struct m_param *v = &r->nearest[i * AQ_MAX_KEYS + k];
                table_set(t, row, col++, "%s", v->key ? model_param_text(v, buf, sizeof(buf)) : "-");
            }
            table_set(t, row, col++, "%s", cell_text(&r->row.cells[i], buf, sizeof(buf)));
            table_set(t, row, col, "%s", i == a->base ? "" : ratio_text(m, &r->row, i, buf,
                                                                         sizeof(buf)));
        }
    }
    return t;
}

/* "only on A (x86_64)": the sides that answer, for a question that compares nothing. */
static void only_on(const struct cmp_model *m, const struct cq_answer *a, char *buf, size_t cap)
{
    size_t i, len = 0;
    buf[0] = '\0';
    for (i = 0; i < m->nreports; i++)
        if (a->exp[i])
            len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s (%s)",
                                    len ? ", " : "only on ", m->reports[i]->label,
                                    m->reports[i]->architecture);
    if (!len)
        snprintf(buf, cap, "on no side");
}

static void print_question(const struct cmp_model *m, const struct cq_set *qs, size_t n,
                           FILE *out, bool markdown, int width)
{
    const struct cq_answer *a = &qs->answers[n];
    const char *bullet = markdown ? "- " : "  ", *cont = markdown ? "  " : "      ";
    char line[1400], head[64], how[200], det[200];
    size_t i, j;
    if (markdown)
        fprintf(out, "\n### %s: %s\n\n", a->q->id, a->q->title);
    else {
        snprintf(line, sizeof(line), "%s: %s", a->q->id, a->q->title);
        fputc('\n', out);
        units_print_wrapped(out, "-- ", "   ", line, width);
    }
    for (i = 0; i < m->nreports; i++) {
        const struct aq_side *sd = a->side[i];
        if (!a->exp[i])
            continue;
        filter_text(sd, how, sizeof(how));
        compare_questions_details(sd, m->reports[i], det, sizeof(det));
        snprintf(head, sizeof(head), "%s%s (%s): ", bullet, m->reports[i]->label,
                 m->reports[i]->architecture);
        snprintf(line, sizeof(line), "%s%s%s%s: %s%s%s%s", sd->experiment, how[0] ? " (" : "",
                 how, how[0] ? ")" : "", sd->mechanism, det[0] ? " [" : "", det,
                 det[0] ? "]" : "");
        units_print_wrapped(out, head, cont, line, width);
    }
    /* what Linux does, once per architecture of the sides */
    for (i = 0; i < m->nreports; i++) {
        const struct aq_side *sd = aq_side_of(a->q, m->reports[i]->architecture);
        bool instead = false;
        for (j = 0; j < i && strcmp(m->reports[j]->architecture, m->reports[i]->architecture); j++)
            ;
        if (j < i || !sd)
            continue;
        for (j = i; j < m->nreports; j++)
            instead |= a->instead[j] &&
                       strcmp(m->reports[j]->architecture, m->reports[i]->architecture) == 0;
        snprintf(head, sizeof(head), "%sLinux on %s: ", bullet, sd->arch);
        snprintf(line, sizeof(line), "%s%s%s", sd->linux_does, instead ? "; " : "",
                 instead ? sd->instead : "");
        units_print_wrapped(out, head, cont, line, width);
    }
    if (!a->nrows) {
        only_on(m, a, how, sizeof(how));
        snprintf(line, sizeof(line), "%s: %s", how, a->reason);
        units_print_wrapped(out, markdown ? "- not compared: " : "  not compared: ", cont, line,
                            width);
        return;
    }
    if (constant_line(m, a, line, sizeof(line)))
        units_print_wrapped(out, markdown ? "- on every row: " : "  on every row: ", cont, line,
                            width);
    {
        struct table *t = question_table(m, a);
        if (!markdown && table_text_width(t) + 2 > (size_t)width) {
            table_free(t);
            t = question_long_table(m, a);
            fputs("  long layout: a row per point and side (the sides do not fit side by side)\n",
                  out);
        }
        if (markdown)
            fputc('\n', out);
        table_print(t, out, markdown ? TABLE_MARKDOWN : TABLE_TEXT, "  ");
        table_free(t);
    }
}

void compare_questions_print(const struct cmp_model *m, FILE *out, bool markdown, int width)
{
    struct cq_set qs;
    size_t k;
    if (!m->cross_arch || !m->in_ns || !compare_questions_build(m, &qs))
        return;
    if (markdown)
        fprintf(out, "\n## Questions both architectures answer\n\nEach side on Linux's path "
                     "on its architecture; p50 in ns, each side from its own tick rate (tsc_hz, "
                     "counter_hz); ratios over %s's p50 (marks as in the legend).\n",
                m->reports[m->opts.baseline]->label);
    else {
        char line[400];
        snprintf(line, sizeof(line), "Questions both architectures answer: each side on "
                 "Linux's path on its architecture, p50 in ns from its own tick rate (tsc_hz, "
                 "counter_hz); ratios over the base's p50 (%s where it answers)",
                 m->reports[m->opts.baseline]->label);
        fputc('\n', out);
        units_print_wrapped(out, "== ", "   ", line, width);
    }
    for (k = 0; k < qs.n; k++)
        print_question(m, &qs, k, out, markdown, width);
    compare_questions_free(&qs);
}

static json_t *param_json(const struct m_param *p)
{
    return p->str ? json_string(p->str) : isfinite(p->num) ? json_real(p->num) : json_null();
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row_json(const struct cmp_model *m, const struct cq_answer *a,
                        const struct cq_row *r)
{
    json_t *o = json_object(), *params = json_object(), *cells = json_array();
    size_t i, k;
    char buf[200];
    if (a->q->all_pairs)
        json_object_set_new(params, "class", json_string("all_pairs"));
    for (k = 0; k < AQ_MAX_KEYS && a->q->align[k]; k++)
        json_object_set_new(params, a->q->align[k], param_json(&r->align[k]));
    for (i = 0; i < m->nreports; i++) {
        const struct cmp_cell *c = &r->row.cells[i];
        json_t *cell, *own = json_object();
        if (!a->exp[i])
            continue;
        for (k = 0; r->point[i] && k < r->point[i]->nparams; k++)
            json_object_set_new(own, r->point[i]->params[k].key,
                                param_json(&r->point[i]->params[k]));
        cell = json_pack("{s:s, s:s, s:s, s:o, s:b}", "side", m->reports[i]->label,
                         "experiment", a->side[i]->experiment, "mechanism",
                         compare_questions_how(a, r, i, buf, sizeof(buf)), "params", own,
                         "present", c->present);
        json_object_set_new(cell, "p50", num_or_null(c->present ? c->p50 : NAN));
        json_object_set_new(cell, "p99", num_or_null(c->present ? c->p99 : NAN));
        json_object_set_new(cell, "ratio", num_or_null(i == a->base ? NAN : compare_ratio(&r->row, i)));
        json_object_set_new(cell, "runs", json_integer((json_int_t)c->runs));
        json_object_set_new(cell, "virtualised", json_boolean(c->virtualised));
        json_object_set_new(cell, "emulated", json_boolean(c->emulated));
        json_object_set_new(cell, "simulated", json_boolean(c->simulated));
        json_array_append_new(cells, cell);
    }
    json_object_set_new(o, "params", params);
    json_object_set_new(o, "cells", cells);
    return o;
}

static json_t *answer_json(const struct cmp_model *m, const struct cq_answer *a)
{
    json_t *o = json_object(), *sides = json_object(), *linux_does = json_object();
    json_t *rows = json_array(), *align = json_array(), *nearest = json_array();
    size_t i, k;
    char buf[700];
    for (k = 0; k < AQ_MAX_KEYS && a->q->align[k]; k++)
        json_array_append_new(align, json_string(a->q->align[k]));
    for (k = 0; k < AQ_MAX_KEYS && a->q->nearest[k]; k++)
        json_array_append_new(nearest, json_string(a->q->nearest[k]));
    for (i = 0; i < m->nreports; i++) {
        const struct aq_side *sd = a->side[i];
        json_t *s = json_object();
        json_object_set_new(s, "architecture", json_string(m->reports[i]->architecture));
        json_object_set_new(s, "answers", json_boolean(a->exp[i] != NULL));
        if (sd) {
            json_t *filter = json_object();
            for (k = 0; k < AQ_MAX_FILTERS && sd->filter[k].key; k++)
                json_object_set_new(filter, sd->filter[k].key, json_string(sd->filter[k].value));
            json_object_set_new(s, "experiment", json_string(sd->experiment));
            json_object_set_new(s, "filter", filter);
            json_object_set_new(s, "mechanism", json_string(sd->mechanism));
            json_object_set_new(s, "details", json_string(compare_questions_details(
                                                  sd, m->reports[i], buf, sizeof(buf))));
            json_object_set_new(s, "linux", json_string(sd->linux_does));
            json_object_set_new(s, "linux_instead",
                                a->instead[i] ? json_string(sd->instead) : json_null());
            json_object_set_new(linux_does, sd->arch, json_string(sd->linux_does));
        }
        json_object_set_new(sides, m->reports[i]->label, s);
    }
    for (k = 0; k < a->nrows; k++)
        json_array_append_new(rows, row_json(m, a, &a->rows[k]));
    json_object_set_new(o, "question", json_string(a->q->id));
    json_object_set_new(o, "title", json_string(a->q->title));
    json_object_set_new(o, "compared", json_boolean(a->nrows > 0));
    if (a->nrows)
        json_object_set_new(o, "reason", json_null());
    else {
        char on[200];
        only_on(m, a, on, sizeof(on));
        snprintf(buf, sizeof(buf), "%s: %s", on, a->reason);
        json_object_set_new(o, "reason", json_string(buf));
    }
    json_object_set_new(o, "align", align);
    json_object_set_new(o, "nearest", nearest);
    json_object_set_new(o, "base", json_string(m->reports[a->base]->label));
    json_object_set_new(o, "linux", linux_does);
    json_object_set_new(o, "sides", sides);
    json_object_set_new(o, "rows", rows);
    return o;
}

json_t *compare_questions_json(const struct cmp_model *m)
{
    json_t *list = json_array();
    struct cq_set qs;
    size_t k;
    if (!compare_questions_build(m, &qs))
        return list;
    for (k = 0; k < qs.n; k++)
        json_array_append_new(list, answer_json(m, &qs.answers[k]));
    compare_questions_free(&qs);
    return list;
}
