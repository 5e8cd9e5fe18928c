/*
 * One section of a comparison as a table (compare.h: compare_section_table,
 * compare_section_table_fit, compare_values_table): the parameter columns,
 * then per side p50, p99 and the ratio to the base with its interval, wide
 * or one row per side when that does not fit; the rows' order by ratio.
 * reports/tool/compare/compare_print.c puts the tables in the output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/model/cpu_roles.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")

/*
 * "1.66 ms*": the value scaled to a readable unit, with the marks of its cell
 * (legend printed with the table); ticks only where a report lacks its TSC rate.
 */
static const char *mark_value(const struct cmp_model *m, const struct cmp_cell *c, double v,
                              char *buf, size_t cap)
{
    char num[32];
    if (!c->present || !isfinite(v)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    if (m->in_ns)
        units_time(v, num, sizeof(num));
    else
        units_ticks(v, num, sizeof(num));
    snprintf(buf, cap, "%s%s%s%s", num, c->virtualised ? "*" : "", c->simulated ? "^" : "",
             c->emulated ? "~" : "");
    return buf;
}

static const struct cmp_model *sort_model; /* qsort has no context argument in C11 */
static const struct cmp_section *sort_section;

static int cmp_by_ratio(const void *a, const void *b)
{
    double x = compare_row_max_ratio(sort_model, &sort_section->rows[*(const size_t *)a]);
    double y = compare_row_max_ratio(sort_model, &sort_section->rows[*(const size_t *)b]);
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (isnan(x) != isnan(y))
        return isnan(x) ? 1 : -1;
    if (x != y && !isnan(x))
        return x > y ? -1 : 1;
    return i < j ? -1 : i > j;
}

size_t compare_row_order(const struct cmp_model *m, const struct cmp_section *s, size_t *idx)
{
    size_t j, n = 0;
    for (j = 0; j < s->nrows; j++) {
        if (s->rows[j].unmatched)
            continue;
        if (m->opts.only_differences && !compare_row_differs(m, &s->rows[j]))
            continue;
        idx[n++] = j;
    }
    if (m->opts.sort_ratio) {
        sort_model = m;
        sort_section = s;
        qsort(idx, n, sizeof(*idx), cmp_by_ratio);
    }
    return n;
}

/* "1.84" with "?" when either side's numbers are not hardware's (see the legend). */
static void ratio_cell(const struct cmp_model *m, const struct cmp_row *row, size_t i, char *buf,
                       size_t cap)
{
    const struct cmp_cell *cell = &row->cells[i];
    double q = compare_ratio(row, i);
    char a[48];
    bool marked = isfinite(q) && (!compare_is_hardware(m->reports[row->base]) ||
                                  cell->virtualised || cell->emulated || cell->simulated ||
                                  row->cells[row->base].emulated);
    char pct[24] = "";
    if (isfinite(q))
        compare_percent_text(q, pct, sizeof(pct));
    snprintf(buf, cap, "%s%s%s%s", units_ratio(q, a, sizeof(a)), marked ? "?" : "",
             pct[0] ? " " : "", pct);
}

static void range_cell(const struct cmp_row *row, size_t i, char *buf, size_t cap)
{
    double lo, hi;
    char a[32], b[32];
    if (!compare_ratio_range(row, i, &lo, &hi))
        snprintf(buf, cap, "%s", isfinite(compare_ratio(row, i)) ? "?" : "-");
    else
        snprintf(buf, cap, "%s-%s", units_ratio(lo, a, sizeof(a)), units_ratio(hi, b, sizeof(b)));
}

/* The parameter columns' headers: "class" by topology class, else the section's keys. */
/* Is parameter column c the same on every row of the section (and are there two rows)? */
static bool constant_column(const struct cmp_section *s, size_t c)
{
    char a[48], b[48];
    size_t j;
    if (s->by_class || s->nrows < 2)
        return false;
    model_param_text(s->rows[0].vals[c], a, sizeof(a));
    for (j = 1; j < s->nrows; j++)
        if (strcmp(model_param_text(s->rows[j].vals[c], b, sizeof(b)), a) != 0)
            return false;
    return true;
}

size_t compare_constant_params(const struct cmp_section *s, char *buf, size_t cap)
{
    char a[48];
    size_t c, n = 0, len = 0;
    if (cap)
        buf[0] = '\0';
    for (c = 0; !s->by_class && c < s->keys.n; c++) {
        if (!constant_column(s, c))
            continue;
        model_param_text(s->rows[0].vals[c], a, sizeof(a));
        len += (size_t)snprintf(buf + (len < cap ? len : cap), len < cap ? cap - len : 0,
                                "%s%s=%s", n ? ", " : "", s->keys.keys[c], a);
        n++;
    }
    return n;
}

/* The parameter columns shown: every one, or (drop_constant) those that vary between rows. */
static size_t shown_params(const struct cmp_section *s, bool drop_constant, bool *keep)
{
    size_t c, n = 0;
    for (c = 0; !s->by_class && c < s->keys.n; c++) {
        keep[c] = !drop_constant || !constant_column(s, c);
        n += keep[c];
    }
    return s->by_class ? 1 : n;
}

static void param_headers(struct table *t, const struct cmp_section *s, const bool *keep)
{
    size_t j, col = 0;
    if (s->by_class)
        table_header(t, 0, "class", false);
    for (j = 0; !s->by_class && j < s->keys.n; j++)
        if (!keep || keep[j])
            table_header(t, col++, s->keys.keys[j], true);
}

/* A row's parameter cells, whole: a narrow column wraps them at blanks (table_wrap). */
static void param_cells(struct table *t, size_t r, const struct cmp_section *s,
                        const struct cmp_row *row, const bool *keep)
{
    char a[128];
    size_t c, col = 0;
    if (s->by_class) {
        table_set(t, r, 0, "%s", row->cls);
        return;
    }
    for (c = 0; c < s->keys.n; c++) {
        if (keep && !keep[c])
            continue;
        model_param_text(row->vals[c], a, sizeof(a));
        if (MUTANT(compare_value_cut) && strlen(a) > 6)
            memcpy(a + 3, "...", 4); /* the old cut: "invpcid_single_context" as "inv..." */
        table_set(t, r, col++, "%s", a);
    }
}

/* The wide layout: parameters, then per side p50 and p99, and each ratio to the base. */
static struct table *wide_table(const struct cmp_model *m, const struct cmp_section *s,
                                bool p99)
{
    size_t nk = s->by_class ? 1 : s->keys.n, per = m->intervals ? 3 : 1;
    size_t ncols = nk + m->nreports * (p99 ? 2 : 1) + (m->nreports - 1) * per, i, j, c, n;
    size_t *idx = calloc(s->nrows ? s->nrows : 1, sizeof(*idx));
    struct table *t = idx ? table_new(ncols ? ncols : 1) : NULL;
    const char *bl = m->reports[s->base]->label;
    char head[64], a[48];
    if (!t) {
        free(idx);
        return NULL;
    }
    param_headers(t, s, NULL);
    for (i = 0, c = nk; i < m->nreports; i++) {
        const char *l = m->reports[i]->label;
        snprintf(head, sizeof(head), "%s p50", l);
        table_header(t, c++, head, true);
        if (p99) {
            snprintf(head, sizeof(head), "%s p99", l);
            table_header(t, c++, head, true);
        }
        if (i != s->base) {
            snprintf(head, sizeof(head), "%s/%s", l, bl);
            table_header(t, c++, head, true);
        }
        if (i != s->base && m->intervals) {
            snprintf(head, sizeof(head), "%s/%s %s", l, bl, m->pooled ? "range" : "interval");
            table_header(t, c++, head, true);
            table_header(t, c++, "verdict", false);
        }
    }
    n = compare_row_order(m, s, idx);
    for (j = 0; j < n; j++) {
        const struct cmp_row *row = &s->rows[idx[j]];
        size_t r = table_add_row(t);
        param_cells(t, r, s, row, NULL);
        for (i = 0, c = nk; i < m->nreports; i++) {
            const struct cmp_cell *cell = &row->cells[i];
            table_set(t, r, c++, "%s", mark_value(m, cell, cell->p50, a, sizeof(a)));
            if (p99)
                table_set(t, r, c++, "%s", mark_value(m, cell, cell->p99, a, sizeof(a)));
            if (i != s->base) {
                ratio_cell(m, row, i, a, sizeof(a));
                table_set(t, r, c++, "%s", a);
            }
            if (i != s->base && m->intervals) {
                range_cell(row, i, a, sizeof(a));
                table_set(t, r, c++, "%s", a);
                table_set(t, r, c++, "%s", compare_verdict_text(compare_verdict(row, i)));
            }
        }
    }
    free(idx);
    return t;
}

/* "pages=1 flush=invpcid_single_context mode=conc": a point's shown parameters, whole. */
static void point_text(const struct cmp_section *s, const struct cmp_row *row, const bool *keep,
                       char *buf, size_t cap)
{
    char a[128];
    size_t c, len = 0;
    buf[0] = '\0';
    if (s->by_class) {
        snprintf(buf, cap, "class=%s", row->cls);
        return;
    }
    for (c = 0; c < s->keys.n && len < cap; c++) {
        if (!keep[c])
            continue;
        snprintf(buf + len, cap - len, "%s%s=%s", len ? " " : "", s->keys.keys[c],
                 model_param_text(row->vals[c], a, sizeof(a)));
        len = strlen(buf);
    }
}

/*
 * The long layout, for more sides than fit side by side: one row per point
 * and side that has it, with its ratio to the section's base. by_point (the last resort):
 * the parameters leave the columns for a line above each point's rows.
 */
static struct table *long_table(const struct cmp_model *m, const struct cmp_section *s,
                                bool p99, size_t param_wrap, bool interval, bool percent,
                                bool drop_constant, bool by_point)
{
    size_t q = p99 ? 1 : 0; /* the p99 column, or none: the columns after it move left */
    bool iv = m->intervals && interval; /* the interval column (the verdict stays) */
    bool *keep = calloc(s->keys.n ? s->keys.n : 1, sizeof(*keep));
    /* by_point: one empty column, so that a point's rows stand 2 in under its line */
    size_t nk = !keep ? 0 : by_point ? (shown_params(s, drop_constant, keep), 1)
                                     : shown_params(s, drop_constant, keep);
    size_t ncols = nk + 3 + q + (m->intervals ? 1 : 0) + iv, i, j, n;
    size_t *idx = calloc(s->nrows ? s->nrows : 1, sizeof(*idx));
    struct table *t = idx && keep ? table_new(ncols) : NULL;
    char head[64], a[48], point[512];
    if (!t) {
        free(idx);
        free(keep);
        return NULL;
    }
    if (!by_point)
        param_headers(t, s, keep);
    for (j = 0; param_wrap && j < nk; j++)
        table_wrap(t, j, param_wrap);
    table_header(t, nk, "side", false);
    table_header(t, nk + 1, "p50", true);
    if (p99)
        table_header(t, nk + 2, "p99", true);
    /* compact (the last resort for 80 columns): the base is the row marked "base" */
    snprintf(head, sizeof(head), "/%s", m->reports[s->base]->label);
    table_header(t, nk + 2 + q, percent ? head : "ratio", true);
    if (iv)
        table_header(t, nk + 3 + q, m->pooled ? "range" : "interval", true);
    if (m->intervals)
        table_header(t, nk + 3 + q + iv, "verdict", false);
    n = compare_row_order(m, s, idx);
    for (j = 0; j < n; j++) {
        const struct cmp_row *row = &s->rows[idx[j]];
        if (by_point) {
            point_text(s, row, keep, point, sizeof(point));
            table_add_span(t, point[0] ? point : "(every parameter as above)");
        }
        for (i = 0; i < m->nreports; i++) {
            const struct cmp_cell *cell = &row->cells[i];
            size_t r;
            if (!cell->present)
                continue;
            r = table_add_row(t);
            if (!by_point)
                param_cells(t, r, s, row, keep);
            table_set(t, r, nk, "%s", m->reports[i]->label);
            table_set(t, r, nk + 1, "%s", mark_value(m, cell, cell->p50, a, sizeof(a)));
            if (p99)
                table_set(t, r, nk + 2, "%s", mark_value(m, cell, cell->p99, a, sizeof(a)));
            if (i == s->base) {
                table_set(t, r, nk + 2 + q, "base");
                continue;
            }
            ratio_cell(m, row, i, a, sizeof(a));
            if (!percent) /* "1.28? +28%" -> "1.28?": the ratio says it */
                a[strcspn(a, " ")] = '\0';
            table_set(t, r, nk + 2 + q, "%s", a);
            if (iv) {
                range_cell(row, i, a, sizeof(a));
                table_set(t, r, nk + 3 + q, "%s", a);
            }
            if (m->intervals) {
                enum cmp_verdict v = compare_verdict(row, i);
                table_set(t, r, nk + 3 + q + iv, "%s",
                          percent ? compare_verdict_text(v)
                          : v == CMP_NO_DIFFERENCE ? "no diff." : v == CMP_SPREAD_UNKNOWN
                                                                       ? "unknown"
                                                                       : compare_verdict_text(v));
            }
        }
    }
    free(idx);
    free(keep);
    return t;
}

struct table *compare_section_table(const struct cmp_model *m, const struct cmp_section *s)
{
    return wide_table(m, s, true);
}

/* Side by side with p99, else without it, else the long layout: the first that fits. */
struct table *compare_section_table_fit(const struct cmp_model *m, const struct cmp_section *s,
                                        size_t width, enum cmp_layout *layout)
{
    struct table *t = wide_table(m, s, true);
    size_t wrap;
    int pass;
    *layout = CMP_LAYOUT_WIDE;
    if (m->opts.wide || table_text_width(t) + 2 <= width)
        return t;
    table_free(t);
    t = wide_table(m, s, false);
    *layout = CMP_LAYOUT_P50;
    if (table_text_width(t) + 2 <= width)
        return t;
    table_free(t);
    *layout = CMP_LAYOUT_LONG;
    t = long_table(m, s, true, 0, true, true, false, false);
    if (table_text_width(t) + 2 <= width)
        return t;
    table_free(t);
    *layout = CMP_LAYOUT_LONG_P50;
    t = long_table(m, s, false, 0, true, true, false, false);
    /* long parameter values ("all other CPUs") wrap at their blanks, never cut */
    for (wrap = 20; table_text_width(t) + 2 > width && wrap >= 9; wrap--) {
        table_free(t);
        t = long_table(m, s, false, wrap, true, true, false, false);
    }
    /* still too wide (many parameters, long side names, ratios in the thousands): the
     * interval goes, then the percentage beside each ratio; the verdict stays */
    for (pass = 0; pass < 2 && table_text_width(t) + 2 > width; pass++) {
        if (pass == 0 && !m->intervals)
            continue;
        table_free(t);
        t = long_table(m, s, false, 0, false, pass == 0, false, false);
        for (wrap = 20; table_text_width(t) + 2 > width && wrap >= 9; wrap--) {
            table_free(t);
            t = long_table(m, s, false, wrap, false, pass == 0, false, false);
        }
    }
    /* then parameters the same on every row leave the table for a line above it
     * (compare_constant_params), on the most compact columns */
    if (table_text_width(t) + 2 > width) {
        table_free(t);
        *layout = CMP_LAYOUT_LONG_CONSTANT;
        t = long_table(m, s, false, 0, false, false, true, false);
        for (wrap = 20; table_text_width(t) + 2 > width && wrap >= 9; wrap--) {
            table_free(t);
            t = long_table(m, s, false, wrap, false, false, true, false);
        }
    }
    /* the last resort: the rest of the parameters on a line above each point's rows, whole
     * (a value is never cut), with the interval and percentage back if they fit */
    for (pass = 0; pass < 3 && table_text_width(t) + 2 > width; pass++) {
        table_free(t);
        *layout = CMP_LAYOUT_BY_POINT;
        t = long_table(m, s, false, 0, pass == 0, pass < 2, true, true);
        table_span_width(t, width - 2);
    }
    return t;
}

/*
 * A derived value as one format per kind, so a column reads evenly: ratios
 * and fractions with three decimals ("1.000", "0.997"), counts as integers.
 */
const char *compare_derived_text(const char *key, double v, char *buf, size_t cap)
{
    if (isfinite(v) && (strstr(key, "_over_") || strstr(key, "ratio") || strstr(key, "fraction")))
        snprintf(buf, cap, "%.3f", v);
    else
        units_number(v, buf, cap);
    return buf;
}

struct table *compare_values_table(const struct cmp_model *m, const struct cmp_section *s)
{
    size_t nk = s->vkeys.n, i, j, c;
    struct table *t;
    char a[48];
    if (!s->nvrows)
        return NULL;
    t = table_new(nk + 1 + m->nreports);
    for (j = 0; j < nk; j++)
        table_header(t, j, s->vkeys.keys[j], true);
    table_header(t, nk, "value", false);
    for (i = 0; i < m->nreports; i++)
        table_header(t, nk + 1 + i, m->reports[i]->label, true);
    for (j = 0; j < s->nvrows; j++) {
        const struct cmp_value_row *row = &s->vrows[j];
        size_t r = table_add_row(t);
        for (c = 0; c < nk; c++)
            table_set(t, r, c, "%s", model_param_text(row->vals[c], a, sizeof(a)));
        table_set(t, r, nk, "%s", row->key);
        for (i = 0; i < m->nreports; i++) {
            bool emu = s->exp[i] && s->exp[i]->emulated;
            bool shown = !isnan(row->v[i]);
            table_set(t, r, nk + 1 + i, "%s%s%s%s",
                      compare_derived_text(row->key, row->v[i], a, sizeof(a)),
                      shown && m->reports[i]->virtualised ? "*" : "",
                      shown && m->reports[i]->simulated ? "^" : "", shown && emu ? "~" : "");
        }
    }
    return t;
}
