/*
 * One experiment on the HTML page: status per report, then charts. Chart
 * layout comes from the report itself: axes.x is the x axis, axes.series
 * splits lines (colour), reports are told apart by dash pattern, and every
 * other parameter is a facet (one chart per value, e.g. per page count).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/html/html.h"
#include "reports/tool/views/ipi.h"
#include "reports/tool/model/point_index.h"
#include "reports/tool/views/svg.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")

static const char *unit_name(const struct cmp_model *m) { return m->in_ns ? "ns" : "TSC ticks"; }

static double to_unit(const struct cmp_model *m, const struct m_report *r, double ticks)
{
    return m->in_ns ? model_ticks_to_ns(r, ticks) : ticks;
}

static void status_list(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    size_t i, j;
    fputs("<ul class=\"status\">\n", out);
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        fprintf(out, "<li><strong>%s</strong> ", m->reports[i]->label);
        if (!e) {
            fputs("<span class=\"muted\">not in this report</span></li>\n", out);
            continue;
        }
        fputs("<span class=\"badge ", out);
        svg_text(out, S(e->status));
        fputs("\">", out);
        svg_text(out, S(e->status));
        fputs("</span>", out);
        if (e->emulated)
            fputs("<span class=\"badge emu\">EMULATED</span>", out);
        if (m->reports[i]->virtualised)
            fputs("<span class=\"badge virt\">VIRTUALISED</span>", out);
        if (m->reports[i]->simulated)
            fputs("<span class=\"badge sim\">SIMULATED</span>", out);
        if (e->partial)
            fputs("<span class=\"badge SKIP\">PARTIAL</span>", out);
        if (e->reason) {
            fputs(" ", out);
            svg_text(out, e->reason);
        }
        for (j = 0; j < json_array_size(e->notes); j++) {
            const json_t *note = json_array_get(e->notes, j);
            if (!json_is_string(note))
                continue;
            fputs("<br><span class=\"muted\">note: ", out);
            svg_text(out, json_string_value(note));
            fputs("</span>", out);
        }
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

/* " (virt.* sim.^ emu.~)": a series or heatmap's marks, as the table cells carry them. */
static const char *flag_suffix(const struct m_report *r, const struct m_experiment *e,
                               char *buf, size_t cap)
{
    const char *marks[3];
    size_t n = 0, i, len;
    if (r->virtualised)
        marks[n++] = "virt.*";
    if (r->simulated)
        marks[n++] = "sim.^";
    if (e->emulated)
        marks[n++] = "emu.~";
    buf[0] = '\0';
    for (i = 0; i < n; i++) {
        len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s%s", i ? " " : " (", marks[i], i + 1 == n ? ")" : "");
    }
    return buf;
}

/* Chart data for one facet: a series per report and axes.series value. */
struct chart_build {
    struct svg_series *series;
    size_t nseries, cap;
    double *store; /* x and y arrays of all series */
};

static void chart_build_free(struct chart_build *b)
{
    free(b->series);
    free(b->store);
}

static bool x_is_numeric(const struct group_tuples *xs)
{
    size_t i;
    for (i = 0; i < xs->n; i++) {
        const struct m_param *x = group_tuple(xs, i)[0];
        if (!x || x->str || !isfinite(x->num))
            return false;
    }
    return xs->n > 0;
}

/* Is side i a pool of reports (html past HTML_MAX_REPORTS: a CPU model)? */
static bool pooled_side(const struct cmp_model *m, size_t i)
{
    return m->pooled && compare_side_runs(m, i) > 1;
}

/* The experiment's p50 range over every report and facet: one y scale for all its charts. */
static bool experiment_range(const struct cmp_model *m, const struct cmp_section *s, double *lo,
                             double *hi)
{
    size_t i, j;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (i = 0; i < m->nreports; i++) {
        for (j = 0; s->exp[i] && j < s->exp[i]->results.count; j++) {
            const struct m_metric *mt = model_primary_metric(&s->exp[i]->results.items[j]);
            double v = mt ? to_unit(m, m->reports[i], mt->st.p50) : NAN;
            if (!isfinite(v) || (mt && mt->st.n == 0))
                continue;
            *lo = v < *lo ? v : *lo;
            *hi = v > *hi ? v : *hi;
        }
        /* a pooled side's medians (pooled_p50): within its reports' range, but not its first's */
        for (j = 0; pooled_side(m, i) && j < s->nrows; j++) {
            double v = s->rows[j].cells[i].present ? s->rows[j].cells[i].p50 : NAN;
            if (isfinite(v) && v > 0) {
                *lo = v < *lo ? v : *lo;
                *hi = v > *hi ? v : *hi;
            }
        }
    }
    return *lo <= *hi;
}

/*
 * The first point of report i's results (in report order) at this facet, x
 * and (by_series) series value sv (NULL: the point lacks it). ix[i], when
 * built, holds them sorted by facet keys, x and series: log time. Else, or
 * when series is x itself, the points are searched.
 */
static const struct m_point *chart_point(const struct cmp_section *s, size_t i,
                                         const struct point_index *ix,
                                         const struct group_keys *fk,
                                         const struct m_param *const *facet, const char *x_axis,
                                         const struct m_param *x, const char *series,
                                         bool by_series, const struct m_param *sv)
{
    const struct m_experiment *e = s->exp[i];
    const struct m_param *vals[GROUP_MAX_KEYS];
    size_t j, k;
    if (ix && ix[i].keys.n == fk->n + 1 + by_series) {
        for (k = 0; k < fk->n; k++)
            vals[k] = facet[k];
        vals[k++] = x;
        if (by_series)
            vals[k] = sv;
        return point_index_find(&ix[i], vals);
    }
    for (j = 0; j < e->results.count; j++) {
        const struct m_point *q = &e->results.items[j];
        if (group_match(q, fk, facet) && model_param_cmp(model_param(q, x_axis), x) == 0 &&
            (!by_series || model_param_cmp(model_param(q, series), sv) == 0))
            return q;
    }
    return NULL;
}

/*
 * A pooled side's p50 at this facet, x and series value, in the page's unit: its cell in the
 * section's row of that point (the median of its reports' p50s, as the table has it); NaN
 * where it has none. The rows hold every key of the facet, x and series.
 */
static double pooled_p50(const struct cmp_section *s, size_t i, const struct group_keys *fk,
                         const struct m_param *const *facet, const char *x_axis,
                         const struct m_param *x, const char *series, bool by_series,
                         const struct m_param *sv)
{
    size_t r, j, k;
    for (r = 0; r < s->nrows; r++) {
        const struct cmp_row *row = &s->rows[r];
        bool match = row->vals && !row->by_role && row->cells[i].present;
        for (j = 0; match && j < s->keys.n; j++) {
            const char *key = s->keys.keys[j];
            const struct m_param *want = NULL;
            bool known = true;
            if (strcmp(key, x_axis) == 0)
                want = x;
            else if (by_series && strcmp(key, series) == 0)
                want = sv;
            else {
                for (k = 0; k < fk->n && strcmp(fk->keys[k], key) != 0; k++)
                    ;
                known = k < fk->n;
                want = known ? facet[k] : NULL;
            }
            match = !known || model_param_cmp(row->vals[j], want) == 0;
        }
        if (match)
            return row->cells[i].p50;
    }
    return NAN;
}

static void facet_chart(FILE *out, const struct cmp_model *m, const struct cmp_section *s,
                        const struct point_index *ix, const struct group_keys *fk,
                        const struct m_param *const *facet, const char *x_axis,
                        const char *series, const struct group_tuples *xs,
                        const struct group_tuples *ss, const double *yrange)
{
    char note[96];
    size_t nvals = series && ss->n ? ss->n : 1, i, v, k, total = m->nreports * nvals;
    bool numeric = x_is_numeric(xs);
    const char **cats = calloc(xs->n ? xs->n : 1, sizeof(*cats));
    char (*cat_text)[48] = calloc(xs->n ? xs->n : 1, sizeof(*cat_text));
    char title[256], ftext[160], vtext[48], ylabel[64], flags[32];
    struct chart_build b = { calloc(total, sizeof(struct svg_series)), 0, total,
                             calloc(total * (xs->n ? xs->n : 1) * 2, sizeof(double)) };
    struct svg_chart c;
    if (!cats || !cat_text || !b.series || !b.store)
        goto out;
    for (k = 0; k < xs->n; k++)
        cats[k] = model_param_text(group_tuple(xs, k)[0], cat_text[k], sizeof(cat_text[k]));
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        if (!e)
            continue;
        for (v = 0; v < nvals; v++) {
            struct svg_series *se = &b.series[b.nseries];
            const struct m_param *sv = series && ss->n ? group_tuple(ss, v)[0] : NULL;
            size_t finite = 0;
            se->x = &b.store[b.nseries * xs->n * 2];
            se->y = se->x + xs->n;
            for (k = 0; k < xs->n; k++) {
                const struct m_param *x = group_tuple(xs, k)[0];
                const struct m_point *p = chart_point(s, i, ix, fk, facet, x_axis, x, series,
                                                        series && ss->n, sv);
                const struct m_metric *mt = p ? model_primary_metric(p) : NULL;
                se->x[k] = numeric ? x->num : (double)k;
                se->y[k] = mt ? to_unit(m, m->reports[i], mt->st.p50) : NAN;
                /* a CPU model's line: the median over its reports, as its table cells */
                if (pooled_side(m, i) && !MUTANT(html_pool_first_report))
                    se->y[k] = pooled_p50(s, i, fk, facet, x_axis, x, series, series && ss->n, sv);
                finite += isfinite(se->y[k]);
            }
            if (!finite)
                continue;
            se->n = xs->n;
            snprintf(se->name, sizeof(se->name), "%s%s%s%s", m->reports[i]->label, sv ? " " : "",
                     sv ? model_param_text(sv, vtext, sizeof(vtext)) : "",
                     flag_suffix(m->reports[i], e, flags, sizeof(flags)));
            /* colour says which report, dash which series value (mode, variant, ...) */
            se->color = svg_palette(i);
            se->marker = svg_marker(i);
            se->dash = series && ss->n ? svg_dash(v) : NULL;
            b.nseries++;
        }
    }
    /* a facet of points with values only (shootdown_contention's steady ones): no latency chart */
    if (!b.nseries)
        goto out;
    group_tuple_text(fk, facet, ftext, sizeof(ftext));
    snprintf(title, sizeof(title), "%s: p50 %s by %s%s%s", s->id, "latency", x_axis,
             ftext[0] ? ", " : "", ftext);
    snprintf(ylabel, sizeof(ylabel), "p50 latency (%s)", unit_name(m));
    memset(&c, 0, sizeof(c));
    c.title = title;
    c.x_label = x_axis;
    c.y_label = ylabel;
    c.x_categorical = !numeric;
    c.x_cats = cats;
    c.ncats = xs->n;
    c.series = b.series;
    c.nseries = b.nseries;
    if (yrange) {
        c.y_fixed = true;
        c.y_lo = yrange[0];
        c.y_hi = yrange[1];
    }
    snprintf(note, sizeof(note), "colour and marker: report%s%s", series && ss->n ? "; dash: " : "",
             series && ss->n ? series : "");
    c.note = note;
    fputs("<figure>\n", out);
    svg_line_chart(out, &c);
    fputs("</figure>\n", out);
out:
    free(cats);
    free(cat_text);
    chart_build_free(&b);
}

static void point_charts(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    const struct m_points **lists = calloc(m->nreports, sizeof(*lists));
    const char *x_axis = NULL, *series = NULL;
    struct group_keys fk, xk, sk;
    struct group_tuples facets, xs, ss;
    size_t i, f, shown;
    double yrange[2];
    bool measured = false, ranged;
    if (!lists)
        return;
    for (i = 0; i < m->nreports; i++) {
        if (!s->exp[i])
            continue;
        measured |= model_points_have_metrics(&s->exp[i]->results);
        lists[i] = &s->exp[i]->results;
        x_axis = x_axis ? x_axis : s->exp[i]->x_axis;
        series = series ? series : s->exp[i]->series;
    }
    memset(&xk, 0, sizeof(xk));
    memset(&sk, 0, sizeof(sk));
    group_keys_add(&xk, x_axis);
    group_keys_add(&sk, series);
    group_other_keys(lists, m->nreports, x_axis, series, &fk);
    memset(&ss, 0, sizeof(ss));
    if (!x_axis || !measured || !group_tuples(lists, m->nreports, &fk, &facets)) {
        free(lists);
        return;
    }
    if (group_tuples(lists, m->nreports, &xk, &xs)) {
        if (!series || group_tuples(lists, m->nreports, &sk, &ss)) {
            /* the charts' points by facet, x and series: a search of every point per cell
               grew with the points times the cells */
            struct point_index *ix = calloc(m->nreports, sizeof(*ix));
            struct group_keys ik = fk;
            group_keys_add(&ik, x_axis);
            group_keys_add(&ik, series && ss.n ? series : NULL);
            for (i = 0; ix && i < m->nreports; i++)
                if (lists[i] && !point_index_build(lists[i], &ik, &ix[i]))
                    memset(&ix[i], 0, sizeof(ix[i])); /* out of memory: that report is searched */
            /* every facet (small multiples wrap on the page), on one y scale */
            shown = facets.n < HTML_MAX_FACETS ? facets.n : HTML_MAX_FACETS;
            ranged = experiment_range(m, s, &yrange[0], &yrange[1]);
            for (i = 0; i < shown; i++) {
                /* evenly spread over the facets, first and last included */
                f = shown > 1 ? i * (facets.n - 1) / (shown - 1) : 0;
                facet_chart(out, m, s, ix, &fk, group_tuple(&facets, f), x_axis, series, &xs, &ss,
                            ranged ? yrange : NULL);
            }
            for (i = 0; ix && i < m->nreports; i++)
                point_index_free(&ix[i]);
            free(ix);
            if (facets.n > shown) {
                /* a parameter's name: the report's */
                fprintf(out, "<p class=\"muted\">%zu of %zu charts shown (", shown, facets.n);
                svg_text(out, fk.n ? fk.keys[0] : "facet");
                fputs(" values spread evenly); the table below has every point.</p>\n", out);
            }
            group_tuples_free(&ss);
        }
        group_tuples_free(&xs);
    }
    group_tuples_free(&facets);
    free(lists);
}

/* The IPI p50 range over every report's matrix: one colour scale for the page. */
static bool heat_range(const struct cmp_model *m, const struct cmp_section *s, double *lo,
                       double *hi)
{
    size_t i, k;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (i = 0; i < m->nreports; i++) {
        struct ipi_matrix mx;
        if (!s->exp[i] || !ipi_matrix_build(m->reports[i], s->exp[i], HTML_HEATMAP_MAX_CPUS, &mx))
            continue;
        for (k = 0; k < mx.n * mx.n; k++) {
            double v = to_unit(m, m->reports[i], mx.p50[k]);
            if (!isfinite(v))
                continue;
            *lo = v < *lo ? v : *lo;
            *hi = v > *hi ? v : *hi;
        }
        ipi_matrix_free(&mx);
    }
    return *lo <= *hi;
}

static void ipi_heatmap(FILE *out, const struct cmp_model *m, size_t i, const struct m_experiment *e,
                        const double *scale)
{
    long long *package = NULL;
    const struct m_report *r = m->reports[i];
    struct ipi_matrix mx;
    struct svg_heatmap h;
    char title[160], flags[32], (*labels)[24] = NULL;
    const char **label_ptrs = NULL;
    double *cells = NULL;
    size_t k;
    if (!ipi_matrix_build(r, e, HTML_HEATMAP_MAX_CPUS, &mx))
        return;
    if (!mx.n) {
        if (mx.participants)
            fprintf(out, "<p class=\"muted\">Report %s: %zu CPUs took part, too many for a "
                    "heatmap; see the class summary.</p>\n", r->label, mx.participants);
        ipi_matrix_free(&mx);
        return;
    }
    labels = calloc(mx.n, sizeof(*labels));
    label_ptrs = calloc(mx.n, sizeof(*label_ptrs));
    cells = malloc(mx.n * mx.n * sizeof(*cells));
    package = calloc(mx.n, sizeof(*package));
    if (labels && label_ptrs && cells && package) {
        for (k = 0; k < mx.n; k++) {
            const struct m_cpu *cpu = model_cpu(r, mx.cpu[k]);
            snprintf(labels[k], sizeof(labels[k]), "%lld", mx.cpu[k]);
            label_ptrs[k] = labels[k];
            package[k] = cpu ? cpu->package : -1;
        }
        memset(&h, 0, sizeof(h));
        h.package = package;
        if (scale) {
            h.scale_fixed = true;
            h.lo = scale[0];
            h.hi = scale[1];
        }
        for (k = 0; k < mx.n * mx.n; k++)
            cells[k] = to_unit(m, r, mx.p50[k]);
        snprintf(title, sizeof(title), "%s: IPI round trip p50, report %s%s", e->id ? e->id : "",
                 r->label, flag_suffix(r, e, flags, sizeof(flags)));
        h.title = title;
        h.n = mx.n;
        h.labels = label_ptrs;
        h.cells = cells;
        h.unit = m->in_ns ? "ns" : "ticks";
        /* a cell of the section's grid (html_experiment), titled with the report's name */
        fputs("<figure class=\"heat\"><figcaption class=\"heat-title\">", out);
        svg_text(out, r->label);
        fputs("</figcaption>\n", out);
        svg_heatmap(out, &h);
        if (MUTANT(html_heatmaps_in_column)) /* the old figures: one a row, a caption each */
            fputs("<figcaption class=\"muted\">CPUs ordered by package, core, thread; red lines: "
                  "package boundaries; one colour scale for every report on the page</figcaption>\n",
                  out);
        fputs("</figure>\n", out);
    }
    free(labels);
    free(label_ptrs);
    free(cells);
    free(package);
    ipi_matrix_free(&mx);
}

/* The per-class summary: bars of p50 per report, whiskers up to p99. */
static void ipi_class_chart(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    struct svg_series *se = calloc(m->nreports, sizeof(*se));
    const char **cats = calloc(s->nrows ? s->nrows : 1, sizeof(*cats));
    double *store = calloc(m->nreports * (s->nrows ? s->nrows : 1) * 3, sizeof(double));
    struct svg_chart c;
    char ylabel[64], flags[32];
    size_t i, k, n = 0;
    if (se && cats && store && s->nrows) {
        for (k = 0; k < s->nrows; k++)
            cats[k] = s->rows[k].cls;
        for (i = 0; i < m->nreports; i++) {
            if (!s->exp[i])
                continue;
            se[n].x = &store[n * s->nrows * 3];
            se[n].y = se[n].x + s->nrows;
            se[n].y_hi = se[n].y + s->nrows;
            se[n].y_lo = se[n].y;
            for (k = 0; k < s->nrows; k++) {
                const struct cmp_cell *cell = &s->rows[k].cells[i];
                se[n].x[k] = (double)k;
                se[n].y[k] = cell->present ? cell->p50 : NAN;
                se[n].y_hi[k] = cell->present ? cell->p99 : NAN;
            }
            se[n].n = s->nrows;
            se[n].color = svg_palette(i);
            se[n].marker = svg_marker(i);
            snprintf(se[n].name, sizeof(se[n].name), "%s%s", m->reports[i]->label,
                     flag_suffix(m->reports[i], s->exp[i], flags, sizeof(flags)));
            n++;
        }
        snprintf(ylabel, sizeof(ylabel), "round trip (%s)", unit_name(m));
        memset(&c, 0, sizeof(c));
        c.title = "ipi_roundtrip by topology class: bar p50, whisker to p99";
        c.x_label = "topology class (nearest first)";
        c.y_label = ylabel;
        c.x_categorical = true;
        c.x_cats = cats;
        c.ncats = s->nrows;
        c.series = se;
        c.nseries = n;
        c.note = "colour: report";
        c.direction = "lower is better";
        fputs("<figure>\n", out);
        svg_bar_chart(out, &c);
        fputs("</figure>\n", out);
    }
    free(se);
    free(cats);
    free(store);
}

/*
 * The data table side by side for up to HTML_SIDE_BY_SIDE reports; for more, side by side
 * while it fits the page's width, else without
 * p99, else the long layout (a row per point and report: many reports). Never
 * one of compare's narrower layouts, made for 80 columns: the page wraps instead.
 */
static struct table *data_table(const struct cmp_model *m, const struct cmp_section *s,
                                enum cmp_layout *layout)
{
    struct table *t;
    *layout = CMP_LAYOUT_WIDE;
    if (m->nreports <= HTML_SIDE_BY_SIDE) /* p99 and the intervals of a few reports: wrapped */
        return compare_section_table(m, s);
    t = compare_section_table_fit(m, s, HTML_TABLE_CHARS, layout);
    if (*layout == CMP_LAYOUT_WIDE || *layout == CMP_LAYOUT_P50 || *layout == CMP_LAYOUT_LONG)
        return t;
    table_free(t);
    *layout = CMP_LAYOUT_WIDE;
    return compare_section_table(m, s);
}

void html_experiment(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    enum cmp_layout layout = CMP_LAYOUT_WIDE;
    struct table *t;
    size_t i;
    fputs("<h2>", out);
    svg_text(out, s->id);
    fputs(": ", out);
    svg_text(out, S(s->title));
    fputs("</h2>\n", out);
    status_list(out, m, s);
    if (s->by_class) {
        double scale[2];
        bool shared = heat_range(m, s, &scale[0], &scale[1]);
        /* the reports' heatmaps side by side, a few a row (CSS grid), not one long column */
        fputs(MUTANT(html_heatmaps_in_column) ? "<div>\n" : "<div class=\"heatgrid\">\n", out);
        for (i = 0; i < m->nreports; i++)
            if (s->exp[i] && s->exp[i]->results.count)
                ipi_heatmap(out, m, i, s->exp[i], shared ? scale : NULL);
        fprintf(out, "</div>\n<p class=\"muted\">Heatmaps: the IPI round trip's p50 per initiator "
                "and target CPU, CPUs ordered by package, core, thread; red lines: package "
                "boundaries; %s.</p>\n", shared ? "one colour scale for every report on the page"
                                                 : "each report's own colour scale");
        ipi_class_chart(out, m, s);
    } else {
        point_charts(out, m, s);
    }
    if ((t = compare_values_table(m, s))) {
        fprintf(out, "<details%s><summary>Derived values from the summary points</summary>\n",
                !s->nrows ? " open" : "");
        table_print(t, out, TABLE_HTML, "");
        fputs("</details>\n", out);
        table_free(t);
    }
    if (!s->nrows)
        return;
    t = data_table(m, s, &layout);
    fprintf(out, "<details%s><summary>Data: p50 %sper point in %s, ratio of p50 to "
            "report %s%s</summary>\n", s->nrows <= 12 ? " open" : "",
            layout == CMP_LAYOUT_P50 ? "" : "and p99 ", unit_name(m),
            m->nreports ? m->reports[s->base]->label : "A",
            layout == CMP_LAYOUT_LONG ? " (long layout: a row per point and report)" : "");
    table_print(t, out, TABLE_HTML, "");
    fputs("</details>\n", out);
    table_free(t);
}
