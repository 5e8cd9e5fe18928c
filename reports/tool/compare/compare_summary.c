#include "reports/tool/compare/compare_summary.h"

#include <math.h>
#include <string.h>

#include "reports/tool/model/units.h"

#define SUMMARY_WIDTH 80

/*
 * Per side: the geometric mean of the p50 ratios over the compared rows, and
 * the geometric means of the range ends when every row has a range.
 */
bool compare_summary(const struct cmp_model *m, const struct cmp_section *s, size_t side,
                     struct cmp_summary *out)
{
    size_t j;
    double sum = 0, slo = 0, shi = 0;
    memset(out, 0, sizeof(*out));
    out->all_ranged = true;
    out->kind = CMP_IV_NONE;
    for (j = 0; j < s->nrows; j++) {
        const struct cmp_row *row = &s->rows[j];
        double q = compare_ratio(row, side), lo, hi;
        enum cmp_interval k;
        if (!compare_row_counts(row, side) || !(q > 0) || !isfinite(q))
            continue;
        out->n++;
        sum += log(q);
        k = compare_ratio_interval(row, side, &lo, &hi);
        if (k != CMP_IV_NONE && lo > 0) {
            slo += log(lo);
            shi += log(hi);
            out->kind = out->kind == CMP_IV_NONE || out->kind == k ? k : CMP_IV_MIXED;
        } else {
            out->all_ranged = false;
        }
        switch (compare_verdict(row, side)) {
        case CMP_FASTER: out->faster++; break;
        case CMP_SLOWER: out->slower++; break;
        case CMP_NO_DIFFERENCE: out->noise++; break;
        default: break;
        }
    }
    if (!out->n)
        return false;
    out->geomean = exp(sum / (double)out->n);
    out->lo = out->all_ranged ? exp(slo / (double)out->n) : NAN;
    out->hi = out->all_ranged ? exp(shi / (double)out->n) : NAN;
    return true;
}

enum cmp_verdict compare_summary_verdict(const struct cmp_model *m, const struct cmp_summary *s)
{
    double t = m->opts.threshold;
    if (!s->n || !isfinite(s->geomean))
        return CMP_NO_RATIO;
    if (!s->all_ranged)
        return CMP_SPREAD_UNKNOWN;
    if (s->lo > 1 && s->geomean > 1 + t)
        return CMP_SLOWER;
    if (s->hi < 1 && s->geomean < 1 - t)
        return CMP_FASTER;
    return CMP_NO_DIFFERENCE;
}

/* "0.47 faster", "1.02 no difference (vs B)": the cell of one experiment and side. */
static bool cell_text(const struct cmp_model *m, const struct cmp_section *s, size_t side,
                      char *buf, size_t cap)
{
    struct cmp_summary sum;
    char q[32];
    size_t len;
    if (side == s->base || !compare_summary(m, s, side, &sum))
        return false;
    snprintf(buf, cap, "%s %s", units_ratio(sum.geomean, q, sizeof(q)),
             compare_verdict_text(compare_summary_verdict(m, &sum)));
    len = strlen(buf);
    if (s->base != m->opts.baseline) /* the section's ratios divide by another side */
        snprintf(buf + len, cap - len, " (vs %s)", m->reports[s->base]->label);
    return true;
}

static bool any_cell(const struct cmp_model *m)
{
    char buf[96];
    size_t k, i;
    for (k = 0; k < m->nsections; k++)
        for (i = 0; i < m->nreports; i++)
            if (cell_text(m, &m->sections[k], i, buf, sizeof(buf)))
                return true;
    return false;
}

/* Experiments down, sides across (the baseline's column left out: its ratios are 1). */
static struct table *wide_table(const struct cmp_model *m)
{
    struct table *t = table_new(m->nreports);
    char buf[96];
    size_t k, i, c;
    if (!t)
        return NULL;
    table_header(t, 0, "experiment", false);
    for (i = 0, c = 1; i < m->nreports; i++)
        if (i != m->opts.baseline)
            table_header(t, c++, m->reports[i]->label, false);
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        size_t r = table_add_row(t);
        table_set(t, r, 0, "%s", s->id);
        for (i = 0, c = 1; i < m->nreports; i++) {
            if (i == m->opts.baseline)
                continue;
            table_set(t, r, c++, "%s", cell_text(m, s, i, buf, sizeof(buf)) ? buf : "-");
        }
    }
    return t;
}

/* One row per experiment and side: for more sides than fit side by side. */
static struct table *long_table(const struct cmp_model *m)
{
    struct table *t = table_new(3);
    char buf[96];
    size_t k, i;
    if (!t)
        return NULL;
    table_header(t, 0, "experiment", false);
    table_header(t, 1, "side", false);
    table_header(t, 2, "geometric mean, verdict", false);
    for (k = 0; k < m->nsections; k++) {
        for (i = 0; i < m->nreports; i++) {
            size_t r;
            if (!cell_text(m, &m->sections[k], i, buf, sizeof(buf)))
                continue;
            r = table_add_row(t);
            table_set(t, r, 0, "%s", m->sections[k].id);
            table_set(t, r, 1, "%s", m->reports[i]->label);
            table_set(t, r, 2, "%s", buf);
        }
    }
    return t;
}

void compare_summary_print(const struct cmp_model *m, FILE *out, bool markdown)
{
    struct table *t;
    char title[300];
    if (m->nreports < 2 || !any_cell(m))
        return;
    t = wide_table(m);
    if (t && !markdown && !m->opts.wide && table_text_width(t) + 2 > SUMMARY_WIDTH) {
        table_free(t);
        t = long_table(m);
    }
    if (!t)
        return;
    snprintf(title, sizeof(title), "Summary: per experiment the geometric mean of the p50 "
             "ratios to %s and its verdict (an interval on one side of 1, more than %g%% "
             "from 1)", m->reports[m->opts.baseline]->label, m->opts.threshold * 100);
    if (markdown) {
        fprintf(out, "\n## Summary\n\n%s\n\n", title);
        table_print(t, out, TABLE_MARKDOWN, "");
    } else {
        fputc('\n', out);
        units_print_wrapped(out, "", "  ", title, SUMMARY_WIDTH);
        table_print(t, out, TABLE_TEXT, "  ");
    }
    table_free(t);
}
