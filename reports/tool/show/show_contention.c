/*
 * `show` for shootdown_contention: its latency points go through the
 * generic pivot (show_views.c); its throughput, which the pivot cannot show
 * (steady points carry no metric), is a table per (mode, pages): rows m,
 * columns the shootdowns per second of each method in rounds (all start
 * together) and steady (each in a loop, no check in the window).
 * Reports before issue 20 have no `measure` parameter and no steady points;
 * their one rate included a check of every shootdown: shown as such, the
 * steady state named as not recorded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/show/show_contention.h"
#include "reports/tool/views/table.h"
#include "reports/tool/model/units.h"

#define MAX_PAGES 4
#define MAX_M 32

static bool is_steady(const struct m_point *p)
{
    const char *m = model_param_string(p, "measure");
    return m && strcmp(m, "steady") == 0;
}

bool show_contention_latency_points(const struct m_experiment *e, struct m_experiment *copy)
{
    size_t i;
    *copy = *e;
    copy->results.items = malloc((e->results.count ? e->results.count : 1) *
                                 sizeof(*copy->results.items));
    if (!copy->results.items)
        return false;
    copy->results.count = 0;
    for (i = 0; i < e->results.count; i++)
        if (!is_steady(&e->results.items[i]))
            copy->results.items[copy->results.count++] = e->results.items[i];
    return true;
}

/* The point of (mode, method, pages, m, measure); measure NULL: a point without one. */
static const struct m_point *find(const struct m_experiment *e, const char *mode,
                                  const char *method, double pages, double m, const char *measure)
{
    size_t i;
    for (i = 0; i < e->results.count; i++) {
        const struct m_point *p = &e->results.items[i];
        const char *pm = model_param_string(p, "mode"), *pmeth = model_param_string(p, "method");
        const char *pmeasure = model_param_string(p, "measure");
        if (pm && pmeth && strcmp(pm, mode) == 0 && strcmp(pmeth, method) == 0 &&
            model_param_number(p, "pages") == pages && model_param_number(p, "initiators") == m &&
            (measure ? pmeasure && strcmp(pmeasure, measure) == 0 : !pmeasure))
            return p;
    }
    return NULL;
}

static void rate_cell(struct table *t, size_t row, size_t col, const struct m_point *p,
                      const char *key)
{
    char buf[32];
    double v = p ? model_value(p, key) : NAN;
    table_set(t, row, col, "%s", isfinite(v) ? units_number(round(v), buf, sizeof(buf)) : "-");
}

/* Distinct values of a numeric parameter, ascending, at most cap. */
static size_t distinct(const struct m_experiment *e, const char *key, double *out, size_t cap)
{
    size_t i, j, n = 0;
    for (i = 0; i < e->results.count; i++) {
        double v = model_param_number(&e->results.items[i], key);
        bool seen = false;
        for (j = 0; j < n; j++)
            seen |= out[j] == v;
        if (!isfinite(v) || seen || n == cap)
            continue;
        for (j = n++; j > 0 && out[j - 1] > v; j--)
            out[j] = out[j - 1];
        out[j] = v;
    }
    return n;
}

void show_contention_rates(const struct m_report *r, const struct m_experiment *e, FILE *out)
{
    static const char *const modes[] = { "all", "groups" }, *const methods[] = { "ipi", "invlpgb" };
    double pages[MAX_PAGES], ms[MAX_M];
    size_t np = distinct(e, "pages", pages, MAX_PAGES), nm = distinct(e, "initiators", ms, MAX_M);
    size_t i, k, j, c;
    bool old = e->results.count && !model_param_string(&e->results.items[0], "measure");
    /* issue 20 to 32: a round rate (m over the mean round) beside steady; after: steady twice */
    bool rounds = false;
    (void)r;
    for (i = 0; i < e->results.count; i++)
        rounds |= isfinite(model_value(&e->results.items[i], "round_shootdowns_per_s"));
    if (!e->results.count)
        return;
    if (old)
        fputs("  shootdowns per second of all m initiators, each shootdown checked inside the\n"
              "  window (an older report); the steady state: not recorded\n",
              out);
    else if (rounds)
        fputs("  shootdowns per second of all m initiators: rounds (all start together) and\n"
              "  steady (each in a loop, no check in the window)\n",
              out);
    else
        fputs("  shootdowns per second of all m initiators in the steady state (each in a loop,\n"
              "  no check in the window; median of the windows), and without the remaps each\n"
              "  initiator timed in its loop\n",
              out);
    for (i = 0; i < 2; i++)
        for (k = 0; k < np; k++) {
            struct table *t = table_new(old ? 3 : 5);
            size_t row, rows = 0;
            char head[48];
            table_header(t, 0, "initiators", true);
            for (c = 0; c < 2; c++) {
                if (old) {
                    table_header(t, 1 + c, methods[c], true);
                    continue;
                }
                snprintf(head, sizeof(head), rounds ? "%s rounds" : "%s steady", methods[c]);
                table_header(t, 1 + 2 * c, head, true);
                snprintf(head, sizeof(head), rounds ? "%s steady" : "%s no remap", methods[c]);
                table_header(t, 2 + 2 * c, head, true);
            }
            for (j = 0; j < nm; j++) {
                const struct m_point *p[4];
                bool any = false;
                for (c = 0; c < 2; c++) {
                    p[2 * c] = find(e, modes[i], methods[c], pages[k], ms[j],
                                    old ? NULL : "latency");
                    p[2 * c + 1] = old ? NULL
                                       : find(e, modes[i], methods[c], pages[k], ms[j], "steady");
                    any |= p[2 * c] || p[2 * c + 1];
                }
                if (!any)
                    continue;
                row = table_add_row(t);
                rows++;
                table_set(t, row, 0, "%.0f", ms[j]);
                for (c = 0; c < 2; c++) {
                    if (old) {
                        rate_cell(t, row, 1 + c, p[2 * c], "shootdowns_per_s");
                        continue;
                    }
                    if (rounds) {
                        rate_cell(t, row, 1 + 2 * c, p[2 * c], "round_shootdowns_per_s");
                        rate_cell(t, row, 2 + 2 * c, p[2 * c + 1], "shootdowns_per_s");
                        continue;
                    }
                    rate_cell(t, row, 1 + 2 * c, p[2 * c + 1], "shootdowns_per_s");
                    rate_cell(t, row, 2 + 2 * c, p[2 * c + 1], "shootdowns_per_s_no_remap");
                }
            }
            if (rows) {
                fprintf(out, "  mode=%s pages=%.0f\n", modes[i], pages[k]);
                table_print(t, out, TABLE_TEXT, "    ");
            }
            table_free(t);
        }
}
