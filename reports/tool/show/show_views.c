/*
 * Per-experiment sections of `show`. ipi_roundtrip gets its matrix and class
 * summary, shootdown_seq_vs_conc its side-by-side table with the ratio; every
 * other experiment with axes is pivoted generically (rows: axes.x, columns:
 * axes.series, one table per value of the remaining parameters), so new
 * experiments are readable without new code.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/group.h"
#include "reports/tool/views/ipi.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/model/point_index.h"
#include "reports/tool/show/show.h"
#include "reports/tool/show/show_ceiling.h"
#include "reports/tool/show/show_contention.h"
#include "reports/tool/views/table.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")
#define PIVOT_MAX_COLUMNS 6
_Static_assert(PIVOT_MAX_COLUMNS >= 2, "a pivot without series has the p50 and p99 columns");

const char *show_time_cell(const struct m_report *r, double ticks, char *buf, size_t cap)
{
    char ns[32], t[40];
    if (ticks == SHOW_NO_SAMPLES)
        snprintf(buf, cap, "no samples");
    else if (ticks == SHOW_FEW_SAMPLES)
        snprintf(buf, cap, "n<100");
    else if (!isfinite(ticks))
        snprintf(buf, cap, "-");
    else if (r->tsc_hz > 0 && !show_wide)
        snprintf(buf, cap, "%s", units_time(model_ticks_to_ns(r, ticks), ns, sizeof(ns)));
    else if (r->tsc_hz > 0)
        snprintf(buf, cap, "%s (%s)", units_time(model_ticks_to_ns(r, ticks), ns, sizeof(ns)),
                 units_count(ticks, t, sizeof(t)));
    else
        snprintf(buf, cap, "%s", units_count(ticks, t, sizeof(t)));
    return buf;
}

static const char *cell_legend(const struct m_report *r)
{
    if (r->aarch64) /* CNTVCT_EL0 ticks at cpu.counter_hz */
        return r->tsc_hz > 0 ? (show_wide ? "time (counter ticks)"
                                          : "time (--wide: with counter ticks)")
                             : "counter ticks";
    return r->tsc_hz > 0 ? (show_wide ? "time (TSC ticks)" : "time (--wide: with TSC ticks)")
                         : "TSC ticks";
}

static void show_ipi_matrix(const struct m_report *r, const struct ipi_matrix *m, FILE *out)
{
    char cell[32], label[48];
    size_t i, j, w = 3;
    for (i = 0; i < m->n * m->n; i++) {
        double v = r->tsc_hz > 0 ? model_ticks_to_ns(r, m->p50[i]) : m->p50[i];
        size_t len = strlen(units_ticks(v, cell, sizeof(cell)));
        if (len > w)
            w = len;
    }
    if (18 + m->n * (w + 1) > (size_t)SHOW_WIDTH) { /* the class table below stands in */
        fprintf(out, "  matrix of %zu CPUs omitted: wider than %d columns (show --wide prints "
                "it)\n", m->n, SHOW_WIDTH);
        return;
    }
    fprintf(out, "  p50 round trip in %s; rows: initiator CPU, columns: target CPU\n",
            r->tsc_hz > 0 ? "ns" : "TSC ticks");
    fprintf(out, "  %-16s", "init \\ target");
    for (j = 0; j < m->n; j++)
        fprintf(out, " %*lld", (int)w, m->cpu[j]);
    fputc('\n', out);
    for (i = 0; i < m->n; i++) {
        fprintf(out, "  %-16s", ipi_cpu_label(r, m->cpu[i], true, label, sizeof(label)));
        for (j = 0; j < m->n; j++) {
            double v = m->p50[i * m->n + j];
            v = r->tsc_hz > 0 ? model_ticks_to_ns(r, v) : v;
            fprintf(out, " %*s", (int)w, units_ticks(v, cell, sizeof(cell)));
        }
        fputc('\n', out);
    }
    if (!r->aarch64) /* an aarch64 CPU is its MADT index; its MPIDR is in the report */
        fputs("  (CPU labels: index (package/core/thread))\n", out);
}

static void show_ipi(const struct m_report *r, const struct m_experiment *e, FILE *out)
{
    struct ipi_matrix m;
    struct ipi_class_row rows[IPI_MAX_CLASSES];
    size_t i, n = ipi_class_rows(e, rows);
    char a[48], b[48];
    if (ipi_matrix_build(r, e, SHOW_MATRIX_MAX_CPUS, &m)) {
        if (m.n)
            show_ipi_matrix(r, &m, out);
        else if (m.participants)
            fprintf(out, "  %zu CPUs took part: matrix omitted (html shows it as a heatmap)\n",
                    m.participants);
        ipi_matrix_free(&m);
    }
    if (!n)
        return;
    {
        struct table *t = table_new(4);
        table_header(t, 0, "class", false);
        table_header(t, 1, "pairs", true);
        table_header(t, 2, "p50", true);
        table_header(t, 3, "p99", true);
        for (i = 0; i < n; i++) {
            size_t row = table_add_row(t);
            table_set(t, row, 0, "%s%s", rows[i].cls, rows[i].from_summary ? "" : " (median)");
            table_set(t, row, 1, "%zu", rows[i].pairs);
            table_set(t, row, 2, "%s", show_time_cell(r, rows[i].p50, a, sizeof(a)));
            table_set(t, row, 3, "%s", show_time_cell(r, rows[i].p99, b, sizeof(b)));
        }
        fprintf(out, "  by topology class, %s:\n", cell_legend(r));
        table_print(t, out, TABLE_TEXT, "    ");
        table_free(t);
    }
}

/* The point at one (facet, x, series) position, or NULL: the index's keys are fk, x, series. */
static const struct m_point *find_cell(const struct point_index *ix, const struct group_keys *fk,
                                       const struct m_param *const *facet,
                                       const struct m_param *x, const struct m_param *s)
{
    const struct m_param *vals[GROUP_MAX_KEYS + 2];
    size_t k;
    for (k = 0; k < fk->n; k++)
        vals[k] = facet[k];
    vals[k++] = x;
    vals[k] = s;
    return point_index_find(ix, vals);
}

/*
 * p50 or p99 in ticks; SHOW_NO_SAMPLES when the metric has n == 0,
 * SHOW_FEW_SAMPLES for a p99 of fewer than 100 samples, NaN when absent.
 */
static double stat_of(const struct m_metric *m, bool p99)
{
    if (!m)
        return NAN;
    if (m->st.n == 0)
        return SHOW_NO_SAMPLES;
    if (p99 && !isfinite(m->st.p99) && m->st.n < 100)
        return SHOW_FEW_SAMPLES;
    return p99 ? m->st.p99 : m->st.p50;
}

static double p_of(const struct m_point *p, bool p99)
{
    return stat_of(p ? model_primary_metric(p) : NULL, p99);
}

/* conc/seq from the two cells beside it (finding 7: never a stored number the cells contradict). */
static double ratio_of(double conc, double seq)
{
    return isfinite(conc) && isfinite(seq) && seq > 0 ? conc / seq : NAN;
}

/* p99 cells: ns only (ticks are in the p50 cells), so the table fits 100 columns. */
static const char *short_time(const struct m_report *r, double ticks, char *buf, size_t cap)
{
    if (ticks == SHOW_NO_SAMPLES || ticks == SHOW_FEW_SAMPLES) {
        snprintf(buf, cap, ticks == SHOW_NO_SAMPLES ? "no samples" : "n<100");
        return buf;
    }
    return r->tsc_hz > 0 ? units_time(model_ticks_to_ns(r, ticks), buf, cap)
                         : units_count(ticks, buf, cap);
}

static void show_seq_conc_facet(const struct m_report *r, const struct point_index *ix,
                                const struct m_experiment *e,
                                const struct group_keys *fk, const struct m_param *const *facet,
                                const struct group_tuples *xs, FILE *out)
{
    static const char *const heads[] = { "seq p50", "conc p50", "conc/seq", "seq p99",
                                         "conc p99", "conc/seq" };
    struct m_param seq = { "mode", "seq", 0 }, conc = { "mode", "conc", 0 };
    struct table *t = table_new(7);
    char cell[6][48], xs_text[48];
    size_t i, c;
    table_header(t, 0, e->x_axis, true);
    for (c = 0; c < 6; c++)
        table_header(t, c + 1, heads[c], true);
    for (i = 0; i < xs->n; i++) {
        const struct m_param *x = group_tuple(xs, i)[0];
        const struct m_point *ps = find_cell(ix, fk, facet, x, &seq);
        const struct m_point *pc = find_cell(ix, fk, facet, x, &conc);
        double r50 = ratio_of(p_of(pc, false), p_of(ps, false));
        double r99 = ratio_of(p_of(pc, true), p_of(ps, true));
        size_t row;
        if (!ps && !pc)
            continue;
        row = table_add_row(t);
        table_set(t, row, 0, "%s", model_param_text(x, xs_text, sizeof(xs_text)));
        table_set(t, row, 1, "%s", show_time_cell(r, p_of(ps, false), cell[0], sizeof(cell[0])));
        table_set(t, row, 2, "%s", show_time_cell(r, p_of(pc, false), cell[1], sizeof(cell[1])));
        table_set(t, row, 3, "%s", units_ratio(r50, cell[4], sizeof(cell[4])));
        table_set(t, row, 4, "%s", short_time(r, p_of(ps, true), cell[2], sizeof(cell[2])));
        table_set(t, row, 5, "%s", short_time(r, p_of(pc, true), cell[3], sizeof(cell[3])));
        table_set(t, row, 6, "%s", units_ratio(r99, cell[5], sizeof(cell[5])));
    }
    table_print(t, out, TABLE_TEXT, "    ");
    table_free(t);
}

/* A value of a point by name (ticks), NaN when the point or the value is absent. */
static double value_of(const struct m_point *p, const char *key)
{
    size_t j;
    for (j = 0; p && j < p->nvalues; j++)
        if (strcmp(p->values[j].key, key) == 0)
            return p->values[j].v;
    return NAN;
}

/*
 * Where the time of each seq/conc point goes (core/exp/shootdown_breakdown.h):
 * send and local flush on the initiator's TSC, the handler of the target
 * that acknowledged last on its own, delivery + acknowledgement derived (the
 * initiator's wait minus that handler). Means, which add up to the mean
 * latency (issue 32); reports before it have p50s of each part (which do
 * not add up) and the slowest handler: shown as such, with p50 latency.
 * False when no point of the facet has either (reports before issue 20).
 */
static bool show_seq_conc_breakdown(const struct m_report *r, const struct point_index *ix,
                                    const struct group_keys *fk,
                                    const struct m_param *const *facet,
                                    const struct group_tuples *xs, FILE *out)
{
    static const char *const modes[] = { "seq", "conc" };
    static const char *const heads[] = { "targets", "mode", "send", "local flush",
                                         "delivery+ack*", "handler", "latency" };
    struct table *t = table_new(7);
    char cell[5][48], xs_text[48];
    size_t i, c, m, rows = 0;
    bool means = false; /* this release's means (else an older report's p50s) */
    for (c = 0; c < 7; c++)
        table_header(t, c, heads[c], c != 1);
    for (i = 0; i < xs->n; i++) {
        const struct m_param *x = group_tuple(xs, i)[0];
        for (m = 0; m < 2; m++) {
            struct m_param mode = { "mode", modes[m], 0 };
            const struct m_point *p = find_cell(ix, fk, facet, x, &mode);
            double parts[5];
            size_t row;
            if (!p) /* no such point (a placement, a count the plan left out) */
                continue;
            means = isfinite(value_of(p, "send_mean"));
            parts[0] = value_of(p, means ? "send_mean" : "send_p50");
            parts[1] = value_of(p, means ? "local_flush_mean" : "local_flush_p50");
            parts[2] = value_of(p, means ? "delivery_ack_mean" : "delivery_ack_p50");
            if (!isfinite(parts[0]))
                continue;
            parts[3] = means ? value_of(p, "last_handler_mean")
                             : stat_of(model_metric(p, "remote_handler"), false);
            parts[4] = means && model_primary_metric(p) ? model_primary_metric(p)->st.mean
                             : p_of(p, false);
            row = table_add_row(t);
            rows++;
            table_set(t, row, 0, "%s", model_param_text(x, xs_text, sizeof(xs_text)));
            table_set(t, row, 1, "%s", modes[m]);
            for (c = 0; c < 5; c++) {
                /* --wide: ticks beside the latency only; five time-and-ticks cells take
                 * 108 columns, past --wide's 100 */
                bool wide = show_wide;
                show_wide = wide && c == 4;
                table_set(t, row, c + 2, "%s", show_time_cell(r, parts[c], cell[c], sizeof(cell[c])));
                show_wide = wide;
            }
        }
    }
    if (rows) {
        fputs(means ? "    where the time goes, mean of each part (they add up to the mean latency;"
                      "\n    conc's local flush is inside its wait; handler: the last target to ack):\n"
                    : "    where the time goes, p50 of each part (handler: the slowest):\n",
              out);
        fputs("    (handler and delivery: a ring-0 target with no entry mitigations; a target\n"
              "    running user code also pays the kernel entry)\n",
              out);
        table_print(t, out, TABLE_TEXT, "    ");
    }
    table_free(t);
    return rows > 0;
}

/*
 * Under a spread facet of shootdown_seq_vs_conc: which classes its targets
 * held at each count (class_mix, seen from the initiator; issue 32): a
 * placement-blind spread's cost depends on it. Nothing for older reports.
 */
static void show_spread_mix(const struct m_experiment *e, const struct m_param *const *facet,
                            size_t nfacet, FILE *out)
{
    char line[400];
    size_t i, f, len = 0;
    bool spread = false;
    for (f = 0; f < nfacet; f++)
        spread |= facet[f] && facet[f]->str && strcmp(facet[f]->key, "placement") == 0 &&
                  strcmp(facet[f]->str, "spread") == 0;
    if (!spread)
        return;
    len = (size_t)snprintf(line, sizeof(line), "the targets' classes, from the initiator:");
    for (i = 0; i < e->results.count && len < sizeof(line); i++) {
        const struct m_point *p = &e->results.items[i];
        const struct m_param *pl = model_param(p, "placement"), *m = model_param(p, "mode");
        const struct m_param *k = model_param(p, "targets");
        const char *cls;
        const json_t *n;
        bool first = true;
        if (!p->class_mix || !pl || !pl->str || strcmp(pl->str, "spread") != 0 || !m ||
            !m->str || strcmp(m->str, "conc") != 0 || !k)
            continue;
        len += (size_t)snprintf(line + len, sizeof(line) - len, " %.0f:", k->num);
        json_object_foreach((json_t *)p->class_mix, cls, n) {
            if (len >= sizeof(line))
                break;
            len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s %" JSON_INTEGER_FORMAT,
                                    first ? "" : ",", cls, json_integer_value(n));
            first = false;
        }
        if (len < sizeof(line))
            len += (size_t)snprintf(line + len, sizeof(line) - len, ";");
    }
    if (len < sizeof(line) && line[len - 1] == ';') {
        line[len - 1] = '\0';
        units_print_wrapped(out, "    ", "      ", line, SHOW_WIDTH);
    }
}

/* Column c's cell in row x (NULL x: its header) as show prints it; its point in *pt. */
static const char *pivot_cell(const struct m_report *r, const struct point_index *ix,
                              const struct m_experiment *e, const struct group_keys *fk,
                              const struct m_param *const *facet, const struct group_tuples *ss,
                              const struct m_param *x, size_t c, const struct m_point **pt,
                              char *buf, size_t cap)
{
    bool series = e->series && ss->n;
    if (!x)
        return series ? model_param_text(group_tuple(ss, c)[0], buf, cap) : (c ? "p99" : "p50");
    *pt = find_cell(ix, fk, facet, x, series ? group_tuple(ss, c)[0] : NULL);
    return show_time_cell(r, p_of(*pt, series ? false : c == 1), buf, cap);
}

/*
 * One facet's table: rows axes.x, a column per series value (at most PIVOT_MAX_COLUMNS); the
 * columns that do not fit SHOW_WIDTH beside the first ones go to a block of their own below,
 * the x column repeated.
 */
static void show_pivot_facet(const struct m_report *r, const struct point_index *ix,
                             const struct m_experiment *e,
                             const struct group_keys *fk, const struct m_param *const *facet,
                             const struct group_tuples *xs, const struct group_tuples *ss,
                             FILE *out)
{
    size_t ncols = e->series && ss->n ? (ss->n < PIVOT_MAX_COLUMNS ? ss->n : PIVOT_MAX_COLUMNS) : 2;
    size_t w[PIVOT_MAX_COLUMNS], xw = strlen(e->x_axis), i, c, c0, c1, width, row;
    const struct m_point *pt = NULL;
    char cell[48], text[48];
    for (i = 0; i < xs->n; i++)
        if (strlen(model_param_text(group_tuple(xs, i)[0], text, sizeof(text))) > xw)
            xw = strlen(text);
    for (c = 0; c < ncols; c++) { /* the widest cell of each column, its header included */
        w[c] = strlen(pivot_cell(r, ix, e, fk, facet, ss, NULL, c, &pt, cell, sizeof(cell)));
        for (i = 0; i < xs->n; i++)
            if (strlen(pivot_cell(r, ix, e, fk, facet, ss, group_tuple(xs, i)[0], c, &pt, cell,
                                  sizeof(cell))) > w[c])
                w[c] = strlen(cell);
    }
    for (c0 = 0; c0 < ncols; c0 = c1) {
        struct table *t;
        width = 4 + xw; /* the table's indent and its x column */
        for (c1 = c0; c1 < ncols && (c1 == c0 || width + 2 + w[c1] <= (size_t)SHOW_WIDTH); c1++)
            width += 2 + w[c1];
        t = table_new(c1 - c0 + 1);
        table_header(t, 0, e->x_axis, true);
        for (c = c0; c < c1; c++)
            table_header(t, c - c0 + 1,
                         pivot_cell(r, ix, e, fk, facet, ss, NULL, c, &pt, text, sizeof(text)), true);
        for (i = 0; i < xs->n; i++) {
            const struct m_param *x = group_tuple(xs, i)[0];
            size_t found = 0;
            for (c = c0; c < c1; c++)
                found += (pivot_cell(r, ix, e, fk, facet, ss, x, c, &pt, cell, sizeof(cell)), pt != NULL);
            if (!found) /* an x value only other facets have (e.g. invlpgb_range's CPU sweep) */
                continue;
            row = table_add_row(t);
            table_set(t, row, 0, "%s", model_param_text(x, text, sizeof(text)));
            for (c = c0; c < c1; c++)
                table_set(t, row, c - c0 + 1, "%s",
                          pivot_cell(r, ix, e, fk, facet, ss, x, c, &pt, cell, sizeof(cell)));
        }
        table_print(t, out, TABLE_TEXT, "    ");
        table_free(t);
    }
    if (e->series && ss->n > PIVOT_MAX_COLUMNS)
        fprintf(out, "    (%zu more %s values in the JSON report)\n", ss->n - PIVOT_MAX_COLUMNS,
                e->series);
}

/* Rows axes.x, columns axes.series, one table per combination of the other parameters. */
static void show_pivot(const struct m_report *r, const struct m_experiment *e, bool seq_conc,
                       FILE *out)
{
    const struct m_points *lists[1] = { &e->results };
    struct group_keys fk, xk = { { e->x_axis }, 1 }, sk = { { e->series }, 1 };
    struct group_tuples facets, xs, ss;
    struct group_keys ik;
    struct point_index ix;
    char text[160];
    size_t f;
    bool breakdown = false;
    group_other_keys(lists, 1, e->x_axis, e->series, &fk);
    if (!group_tuples(lists, 1, &fk, &facets))
        return;
    if (!group_tuples(lists, 1, &xk, &xs)) {
        group_tuples_free(&facets);
        return;
    }
    if (!e->series || !group_tuples(lists, 1, &sk, &ss))
        memset(&ss, 0, sizeof(ss));
    /* cells are looked up by facet, x and series: sorted once, found in log time */
    ik = fk;
    group_keys_add(&ik, e->x_axis);
    group_keys_add(&ik, seq_conc ? "mode" : e->series && ss.n ? e->series : NULL);
    if (!point_index_build(&e->results, &ik, &ix)) {
        group_tuples_free(&facets);
        group_tuples_free(&xs);
        group_tuples_free(&ss);
        return;
    }
    if (seq_conc) {
        char legend[200];
        snprintf(legend, sizeof(legend), "latency by %s, seq vs conc; p50 cells: %s, p99 cells: "
                 "%s", e->x_axis, cell_legend(r), r->tsc_hz > 0 ? "time" : "TSC ticks");
        units_print_wrapped(out, "  ", "  ", legend, SHOW_WIDTH);
        units_print_wrapped(out, "  ", "  ",
                            "where the time goes: send (request slots and ICR writes) and local "
                            "flush on the initiator's TSC, handler (of the target that acked "
                            "last; in older reports the slowest target's) on the "
                            "target's; delivery+ack* is derived: the initiator's wait from its "
                            "last ICR write to the last acknowledgement, minus that handler (two "
                            "CPUs' clocks are never subtracted)",
                            SHOW_WIDTH);
    } else
        fprintf(out, "  p50 latency by %s%s%s; cells: %s\n", e->x_axis, e->series ? " and " : "",
                e->series ? e->series : "", cell_legend(r));
    for (f = 0; f < facets.n; f++) {
        const struct m_param *const *facet = group_tuple(&facets, f);
        /* wrapped: a facet can carry long values (ipi_target_state's residency_reason) */
        if (fk.n)
            units_print_wrapped(out, "  ", "    ", group_tuple_text(&fk, facet, text, sizeof(text)),
                                SHOW_WIDTH);
        if (seq_conc) {
            show_seq_conc_facet(r, &ix, e, &fk, facet, &xs, out);
            show_spread_mix(e, facet, fk.n, out);
            breakdown |= show_seq_conc_breakdown(r, &ix, &fk, facet, &xs, out);
        } else {
            show_pivot_facet(r, &ix, e, &fk, facet, &xs, &ss, out);
        }
    }
    if (seq_conc && !breakdown)
        units_print_wrapped(out, "  ", "  ",
                            "where the time goes: not recorded (send_mean, local_flush_mean, "
                            "last_handler_mean, delivery_ack_mean: an older report)",
                            SHOW_WIDTH);
    point_index_free(&ix);
    group_tuples_free(&facets);
    group_tuples_free(&xs);
    group_tuples_free(&ss);
}

static const char *params_text(const struct m_point *p, char *buf, size_t cap)
{
    char v[32];
    size_t j, len = 0;
    buf[0] = '\0';
    for (j = 0; j < p->nparams && len < cap; j++) {
        snprintf(buf + len, cap - len, "%s%s=%s", j ? " " : "", p->params[j].key,
                 model_param_text(&p->params[j], v, sizeof(v)));
        len = strlen(buf);
    }
    return buf;
}

/* Points that carry only values (a control experiment, ratios): one line per value. */
static void show_value_list(const struct m_points *pts, const char *title, FILE *out)
{
    struct table *t = table_new(3);
    char params[160], v[32];
    size_t i, j, row;
    table_header(t, 0, "point", false);
    table_header(t, 1, "name", false);
    table_header(t, 2, "value", true);
    for (i = 0; i < pts->count && i < 64; i++) {
        const struct m_point *p = &pts->items[i];
        for (j = 0; j < p->nvalues; j++) {
            row = table_add_row(t);
            table_set(t, row, 0, "%s", j ? "" : params_text(p, params, sizeof(params)));
            table_set(t, row, 1, "%s", p->values[j].key);
            table_set(t, row, 2, "%s", units_number(p->values[j].v, v, sizeof(v)));
        }
    }
    fprintf(out, "  %s:\n", title);
    table_print(t, out, TABLE_TEXT, "    ");
    if (pts->count > 64)
        fprintf(out, "    ... %zu more points in the JSON report\n", pts->count - 64);
    table_free(t);
}

/* One line per point: for experiments without axes, and for summaries. */
static void show_point_list(const struct m_report *r, const struct m_points *pts,
                            const char *title, FILE *out)
{
    struct table *t;
    char a[48], b[48], params[160], v[32];
    size_t i, j, len;
    if (!pts->count)
        return;
    if (!model_points_have_metrics(pts)) {
        show_value_list(pts, title, out);
        return;
    }
    t = table_new(5);
    table_header(t, 0, "point", false);
    table_header(t, 1, "metric", false);
    table_header(t, 2, "p50", true);
    table_header(t, 3, "p99", true);
    table_header(t, 4, "values", false);
    for (i = 0; i < pts->count && i < 64; i++) {
        const struct m_point *p = &pts->items[i];
        const struct m_metric *m = model_primary_metric(p);
        size_t row = table_add_row(t);
        table_set(t, row, 0, "%s", params_text(p, params, sizeof(params)));
        table_set(t, row, 1, "%s", m ? m->name : "");
        table_set(t, row, 2, "%s", m ? show_time_cell(r, stat_of(m, false), a, sizeof(a)) : "");
        table_set(t, row, 3, "%s", m ? show_time_cell(r, stat_of(m, true), b, sizeof(b)) : "");
        for (j = 0, len = 0, params[0] = '\0'; j < p->nvalues && len < sizeof(params); j++) {
            snprintf(params + len, sizeof(params) - len, "%s%s=%s", j ? " " : "", p->values[j].key,
                     units_number(p->values[j].v, v, sizeof(v)));
            len = strlen(params);
        }
        table_set(t, row, 4, "%s", params);
    }
    fprintf(out, "  %s (p50, p99 in %s):\n", title, cell_legend(r));
    table_print(t, out, TABLE_TEXT, "    ");
    if (pts->count > 64)
        fprintf(out, "    ... %zu more points in the JSON report\n", pts->count - 64);
    table_free(t);
}

void show_experiment(const struct m_report *r, const struct m_experiment *e, FILE *out)
{
    char a[32], b[32], c[32], head[512];
    size_t i;
    bool is_ipi = e->id && strcmp(e->id, IPI_EXPERIMENT) == 0;
    bool seq_conc = e->id && strcmp(e->id, "shootdown_seq_vs_conc") == 0 && e->x_axis;
    snprintf(head, sizeof(head), "%s: %s%s%s%s", S(e->id), S(e->title),
             r->simulated ? " [SIMULATED]" : "", e->emulated ? " [EMULATED]" : "",
             e->partial ? " [PARTIAL]" : "");
    fputc('\n', out);
    units_print_wrapped(out, "== ", "   ", head, SHOW_WIDTH);
    fprintf(out, "  %s, %zu points, %s checks, %s stale reads, %s ms\n", S(e->status),
            e->results.count, units_number(e->checks, a, sizeof(a)),
            units_number(e->stale_reads, b, sizeof(b)), units_number(e->duration_ms, c, sizeof(c)));
    if (e->reason)
        units_print_wrapped(out, "  reason: ", "          ", e->reason, SHOW_WIDTH);
    for (i = 0; i < json_array_size(e->notes); i++)
        if (json_is_string(json_array_get(e->notes, i)))
            units_print_wrapped(out, "  note: ", "        ",
                                json_string_value(json_array_get(e->notes, i)), SHOW_WIDTH);
    if (is_ipi) {
        show_ipi(r, e, out);
        return;
    }
    if (e->id && strcmp(e->id, CONTENTION_EXPERIMENT) == 0 && e->x_axis) {
        struct m_experiment latency;
        if (show_contention_latency_points(e, &latency)) {
            if (model_points_have_metrics(&latency.results))
                show_pivot(r, &latency, false, out);
            free(latency.results.items);
        }
        show_contention_rates(r, e, out);
    } else if (e->x_axis && model_points_have_metrics(&e->results))
        show_pivot(r, e, seq_conc, out);
    else
        show_point_list(r, &e->results, "results", out);
    if (e->id && strcmp(e->id, CEILING_EXPERIMENT) == 0)
        show_ceiling_summary(e, out);
    else if (!seq_conc)
        show_point_list(r, &e->summary, "summary", out);
}
