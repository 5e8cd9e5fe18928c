#include "reports/tool/html/html_contention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/html/html.h"
#include "reports/tool/show/conditions_view.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/views/svg.h"

#define MAX_X 64
#define MAX_SERIES (2 * HTML_MAX_REPORTS) /* two lines a report: none left out */

/* A string parameter, "" when absent. */
static const char *param_str(const struct m_point *p, const char *key)
{
    const char *s = model_param_string(p, key);
    return s ? s : "";
}

/*
 * Steady-state throughput vs m (measure=steady: each initiator in a loop, no
 * check in the window): one chart per (mode, pages), one line per (report,
 * method).
 */
static void throughput_chart(FILE *out, const struct cmp_model *m, const struct cmp_section *s,
                             const char *mode, double pages)
{
    static const char *const methods[] = { "ipi", "invlpgb" };
    struct svg_series series[MAX_SERIES];
    double store[MAX_SERIES][2][MAX_X];
    struct svg_chart c;
    char title[160];
    size_t i, k, n = 0;
    memset(series, 0, sizeof(series));
    for (i = 0; i < m->nreports && n < MAX_SERIES; i++) {
        const struct m_experiment *e = s->exp[i];
        for (k = 0; e && k < 2 && n < MAX_SERIES; k++) {
            struct svg_series *se = &series[n];
            size_t j;
            se->x = store[n][0];
            se->y = store[n][1];
            bool old = false;
            for (j = 0; j < e->results.count && se->n < MAX_X; j++) {
                const struct m_point *p = &e->results.items[j];
                const char *measure = param_str(p, "measure");
                /*
                 * the steady points (issue 20); a report before them has no
                 * `measure`, and its one rate had a check of every shootdown
                 */
                if (strcmp(param_str(p, "mode"), mode) != 0 ||
                    strcmp(param_str(p, "method"), methods[k]) != 0 ||
                    model_param_number(p, "pages") != pages ||
                    (measure[0] && strcmp(measure, "steady") != 0))
                    continue;
                old |= !measure[0];
                se->x[se->n] = model_param_number(p, "initiators");
                se->y[se->n] = model_value(p, "shootdowns_per_s");
                se->n++;
            }
            if (!se->n)
                continue;
            snprintf(se->name, sizeof(se->name), "%s %s%s%s%s", m->reports[i]->label, methods[k],
                     old ? " (checks in the window: an older report)" : " steady",
                     e->emulated && k == 1 ? " (emulated)" : "",
                     m->reports[i]->simulated ? " (simulated)" : "");
            se->color = svg_palette(i);
            se->marker = svg_marker(i);
            se->dash = svg_dash(k);
            n++;
        }
    }
    if (!n)
        return;
    snprintf(title, sizeof(title), "%s: shootdowns per second by concurrent initiators m, %s, "
             "%.0f page%s", s->id, mode, pages, pages == 1 ? "" : "s");
    memset(&c, 0, sizeof(c));
    c.title = title;
    c.x_label = "initiators (m)";
    c.y_label = "shootdowns per second (all initiators, steady state)";
    c.direction = "higher is better";
    c.note = "colour and marker: report; dash: method";
    c.series = series;
    c.nseries = n;
    fputs("<figure>\n", out);
    svg_line_chart(out, &c);
    fputs("</figure>\n", out);
}

static void contention_charts(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    static const char *const modes[] = { "all", "groups" };
    double pages[2] = { NAN, NAN };
    size_t i, j, k, np = 0;
    for (i = 0; i < m->nreports; i++)
        for (j = 0; s->exp[i] && j < s->exp[i]->results.count; j++) {
            double p = model_param_number(&s->exp[i]->results.items[j], "pages");
            bool seen = false;
            for (k = 0; k < np; k++)
                seen |= pages[k] == p;
            if (!seen && np < 2 && isfinite(p))
                pages[np++] = p;
        }
    for (i = 0; i < 2; i++)
        for (k = 0; k < np; k++)
            throughput_chart(out, m, s, modes[i], pages[k]);
}

/* Latency by target state: categories are the states, lines per report and metric. */
static void target_state_chart(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    static const char *const metrics[] = { "roundtrip", "target_lost" };
    const char *cats[MAX_X];
    struct svg_series series[MAX_SERIES];
    double store[MAX_SERIES][2][MAX_X];
    struct svg_chart c;
    char title[160], ylabel[64];
    size_t i, j, k, ncats = 0, n = 0;
    for (i = 0; i < m->nreports; i++)
        for (j = 0; s->exp[i] && j < s->exp[i]->results.count; j++) {
            const char *st = param_str(&s->exp[i]->results.items[j], "state");
            bool seen = false;
            for (k = 0; k < ncats; k++)
                seen |= strcmp(cats[k], st) == 0;
            if (!seen && ncats < MAX_X && st[0])
                cats[ncats++] = st;
        }
    memset(series, 0, sizeof(series));
    for (i = 0; i < m->nreports && n < MAX_SERIES; i++) {
        const struct m_experiment *e = s->exp[i];
        for (k = 0; e && k < 2 && n < MAX_SERIES; k++) {
            struct svg_series *se = &series[n];
            se->x = store[n][0];
            se->y = store[n][1];
            for (j = 0; j < ncats; j++) {
                size_t q;
                se->x[j] = (double)j;
                se->y[j] = NAN;
                for (q = 0; q < e->results.count; q++) {
                    const struct m_point *p = &e->results.items[q];
                    const struct m_metric *mt = model_metric(p, metrics[k]);
                    if (mt && strcmp(param_str(p, "state"), cats[j]) == 0)
                        se->y[j] = m->in_ns ? model_ticks_to_ns(m->reports[i], mt->st.p50)
                                            : mt->st.p50;
                }
            }
            se->n = ncats;
            snprintf(se->name, sizeof(se->name), "%s %s p50%s", m->reports[i]->label,
                     k ? "target lost time (its own TSC)" : "round trip (initiator's TSC)",
                     m->reports[i]->simulated ? " (simulated)" : "");
            se->color = svg_palette(i);
            se->marker = svg_marker(i);
            se->dash = svg_dash(k);
            n++;
        }
    }
    if (!n || !ncats)
        return;
    snprintf(title, sizeof(title), "%s: IPI latency by the target's state", s->id);
    snprintf(ylabel, sizeof(ylabel), "p50 (%s)", m->in_ns ? "ns" : "TSC ticks");
    memset(&c, 0, sizeof(c));
    c.title = title;
    c.x_label = "target state";
    c.note = "colour and marker: report; dash: round trip or lost time";
    c.y_label = ylabel;
    c.x_categorical = true;
    c.x_cats = cats;
    c.ncats = ncats;
    c.series = series;
    c.nseries = n;
    fputs("<figure>\n", out);
    svg_line_chart(out, &c);
    fputs("</figure>\n", out);
}

/* Each report's conditions for this experiment, one line each. */
static void conditions_list(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    char buf[800];
    size_t i;
    bool any = false;
    for (i = 0; i < m->nreports; i++) {
        const json_t *cond = json_object_get(conditions_experiment(m->reports[i], s->id),
                                             "conditions");
        if (!cond)
            continue;
        if (!any)
            fputs("<p class=\"muted\">Conditions:</p>\n<ul class=\"conditions\">\n", out);
        any = true;
        fputs("<li>", out);
        svg_text(out, m->reports[i]->label);
        fputs(": ", out);
        svg_text(out, conditions_text(cond, buf, sizeof(buf)));
        fputs("</li>\n", out);
    }
    if (any)
        fputs("</ul>\n", out);
}

void html_contention_extras(FILE *out, const struct cmp_model *m, const struct cmp_section *s)
{
    if (s->id && strcmp(s->id, "shootdown_contention") == 0)
        contention_charts(out, m, s);
    else if (s->id && strcmp(s->id, "ipi_target_state") == 0)
        target_state_chart(out, m, s);
    conditions_list(out, m, s);
}
