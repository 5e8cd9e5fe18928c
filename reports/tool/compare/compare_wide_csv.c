/*
 * compare's output as one CSV table (the table format CSV): a row per
 * experiment and point, per side its p50, p99 and flags and the ratio to the
 * baseline. The tidy CSV of compare --csv is compare_csv.c's.
 */
#include <math.h>
#include <stdio.h>

#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_csv.h"

static const char *unit_name(const struct cmp_model *m) { return m->in_ns ? "ns" : "ticks"; }

static const char *plain_value(const struct cmp_model *m, const struct cmp_cell *c, double v,
                               char *buf, size_t cap)
{
    if (!c->present || !isfinite(v))
        snprintf(buf, cap, "%s", "");
    else if (m->in_ns)
        snprintf(buf, cap, "%.1f", v);
    else
        snprintf(buf, cap, "%.0f", v);
    return buf;
}

/* One table: experiment, point, unit, then per report p50, p99, flags (and the ratio). */
void compare_wide_csv_print(const struct cmp_model *m, FILE *out)
{
    size_t ncols = 3 + m->nreports * 4 - 1, i, j, k, c;
    struct table *t = table_new(ncols);
    char head[64], a[64], point[256];
    table_header(t, 0, "experiment", false);
    table_header(t, 1, "point", false);
    table_header(t, 2, "unit", false);
    for (i = 0, c = 3; i < m->nreports; i++) {
        const char *l = m->reports[i]->label;
        snprintf(head, sizeof(head), "%s_p50", l);
        table_header(t, c++, head, true);
        snprintf(head, sizeof(head), "%s_p99", l);
        table_header(t, c++, head, true);
        snprintf(head, sizeof(head), "%s_flags", l);
        table_header(t, c++, head, false);
        if (i != m->opts.baseline) {
            snprintf(head, sizeof(head), "%s_over_%s_p50", l, m->reports[m->opts.baseline]->label);
            table_header(t, c++, head, true);
        }
    }
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        for (j = 0; j < s->nrows; j++) {
            const struct cmp_row *row = &s->rows[j];
            size_t r = table_add_row(t);
            table_set(t, r, 0, "%s", s->id);
            if (s->by_class)
                snprintf(point, sizeof(point), "class=%s", row->cls);
            else
                group_tuple_text(&s->keys, row->vals, point, sizeof(point));
            table_set(t, r, 1, "%s", point);
            table_set(t, r, 2, "%s", unit_name(m));
            for (i = 0, c = 3; i < m->nreports; i++) {
                const struct cmp_cell *cell = &row->cells[i];
                table_set(t, r, c++, "%s", plain_value(m, cell, cell->p50, a, sizeof(a)));
                table_set(t, r, c++, "%s", plain_value(m, cell, cell->p99, a, sizeof(a)));
                table_set(t, r, c++, "%s", compare_flags(cell));
                if (i != m->opts.baseline) {
                    double q = compare_ratio(row, i);
                    if (isfinite(q))
                        table_set(t, r, c, "%.3f", q);
                    c++;
                }
            }
        }
    }
    table_print(t, out, TABLE_CSV, "");
    table_free(t);
}
