#include "reports/tool/html/html_ceiling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/views/svg.h"
#include "reports/tool/model/units.h"

#define W 640.0
#define H 300.0
#define L 70.0 /* plot area margins */
#define R 130.0
#define T 46.0 /* two title lines: the curves' facet, then unit and direction */
#define B 45.0
#define LINUX_CEILING 33

static const char *const modes[] = { "invlpg", "full_cr3", "full_invpcid" };

static const json_t *flush_ceiling(const struct m_report *r)
{
    const json_t *list = json_object_get(r->root, "experiments"), *e;
    size_t i;
    json_array_foreach(list, i, e) {
        const char *id = json_string_value(json_object_get(e, "id"));
        if (id && strcmp(id, "flush_ceiling") == 0)
            return e;
    }
    return NULL;
}

/* A chart's curves: local, one working set, one form (NULL: a report from before the forms). */
struct chart_key {
    long long w;
    const char *form;
};

static bool same_form(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool is_local_w(const json_t *params, const struct chart_key *k)
{
    const char *kind = json_string_value(json_object_get(params, "kind"));
    return kind && strcmp(kind, "local") == 0 &&
           json_integer_value(json_object_get(params, "working_set")) == k->w &&
           same_form(json_string_value(json_object_get(params, "working_set_form")), k->form);
}

/* How a chart's title names its form; an older report's is said to be unrecorded. */
static const char *form_text(const char *form)
{
    if (!form)
        return "working-set form not recorded";
    if (strcmp(form, "scattered_cold") == 0)
        return "scattered frames, cold page tables";
    return form;
}

/* A curve's points (pages 1 to 512 by powers of two and around p*: a few dozen). */
#define CURVE_MAX 128
struct curve_point {
    double pages, v;
};

static int by_pages(const void *a, const void *b)
{
    double x = ((const struct curve_point *)a)->pages, y = ((const struct curve_point *)b)->pages;
    return x < y ? -1 : x > y;
}

static double px(double p, double pmax) { return L + (W - L - R) * log2(p) / log2(pmax); }
/* log scale: the curves span orders of magnitude between 1 and 512 pages */
static double py(double v, double vmin, double vmax)
{
    double lo = log(fmax(vmin, 1)), hi = log(fmax(vmax, 2));
    return H - B - (H - T - B) * (log(fmax(v, 1)) - lo) / (hi > lo ? hi - lo : 1);
}

static double value(const json_t *pt, const char *key)
{
    return json_number_value(json_object_get(json_object_get(pt, "values"), key));
}

/*
 * The page's unit: ns from the report's own TSC rate, as every other chart of
 * the page; TSC ticks only for a report that lacks its rate.
 */
static bool in_ns(const struct m_report *r) { return r->tsc_hz > 0; }

static double to_unit(const struct m_report *r, double ticks)
{
    if (!in_ns(r) || MUTANT(html_ceiling_in_ticks))
        return ticks;
    return model_ticks_to_ns(r, ticks);
}

static double p50(const struct m_report *r, const json_t *pt)
{
    return to_unit(r, json_number_value(json_object_get(
                          json_object_get(json_object_get(pt, "metrics"), "latency"), "p50")));
}

/* Log-scale y ticks at 1, 2 and 5 times a power of ten, with grid lines. */
static void y_ticks(FILE *out, double vmin, double vmax)
{
    static const double mult[] = { 1, 2, 5 };
    double d, v;
    char t[32];
    int k;
    for (d = pow(10, floor(log10(fmax(vmin, 1)))); d <= vmax * 10; d *= 10) {
        for (k = 0; k < 3; k++) {
            v = mult[k] * d;
            if (v < vmin * 0.999 || v > vmax * 1.001)
                continue;
            fprintf(out, "<line class=\"grid\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" "
                         "y2=\"%.1f\"/><text class=\"tick\" x=\"%.0f\" y=\"%.1f\" "
                         "text-anchor=\"end\">%s</text>\n",
                    L, py(v, vmin, vmax), W - R, py(v, vmin, vmax), L - 6,
                    py(v, vmin, vmax) + 4, svg_tick_text(v, t, sizeof(t)));
        }
    }
}

/* The summary's p* and band for (local, w, form, full_cr3). */
static void summary(const json_t *e, const struct chart_key *k, double *pstar, double *lo,
                    double *hi)
{
    const json_t *list = json_object_get(e, "summary"), *s;
    size_t i;
    *pstar = *lo = *hi = NAN;
    json_array_foreach(list, i, s) {
        const json_t *q = json_object_get(s, "params");
        const char *full = json_string_value(json_object_get(q, "full"));
        const json_t *v = json_object_get(s, "values");
        if (!is_local_w(q, k) || !full || strcmp(full, "full_cr3") != 0)
            continue;
        if (json_object_get(v, "p_star"))
            *pstar = value(s, "p_star");
        if (json_object_get(v, "band_low")) {
            *lo = value(s, "band_low");
            *hi = value(s, "band_high");
        }
    }
}

static void chart(FILE *out, const struct m_report *r, const json_t *e, const struct chart_key *k)
{
    const json_t *res = json_object_get(e, "results"), *pt;
    double vmin = INFINITY, vmax = 0, pmax = 2, pstar, lo, hi;
    size_t i, m;
    json_array_foreach(res, i, pt) {
        const json_t *q = json_object_get(pt, "params");
        double p = (double)json_integer_value(json_object_get(q, "pages"));
        if (!is_local_w(q, k))
            continue;
        vmin = fmin(vmin, to_unit(r, value(pt, "p25")));
        vmax = fmax(vmax, to_unit(r, value(pt, "p75")));
        pmax = fmax(pmax, p);
    }
    if (vmax <= 0)
        return;
    summary(e, k, &pstar, &lo, &hi);
    fprintf(out, "<svg class=\"chart ceiling\" xmlns=\"http://www.w3.org/2000/svg\" "
                 "width=\"%.0f\" height=\"%.0f\" role=\"img\">\n<text class=\"ctitle\" x=\"8\" "
                 "y=\"18\">", W, H);
    svg_text(out, r->label);
    fprintf(out, ": local, working set %lld pages, ", k->w);
    svg_text(out, form_text(k->form)); /* the report's word where it is not one we know */
    fprintf(out, "<tspan x=\"8\" dy=\"16\">p50 in %s, log scale; lower is better</tspan>"
                 "</text>\n", in_ns(r) ? "ns" : "TSC ticks (the report lacks its TSC rate)");
    if (!isnan(lo))
        fprintf(out, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"#ddd\">"
                     "<title>noise band: p25-p75 overlap</title></rect>\n",
                px(lo, pmax), T, fmax(1, px(hi, pmax) - px(lo, pmax)), H - T - B);
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\"/>\n"
                 "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\"/>\n",
            L, H - B, W - R, H - B, L, T, L, H - B);
    y_ticks(out, vmin, vmax);
    for (i = 1; i <= (size_t)pmax; i *= 4)
        fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%zu"
                     "</text>\n", px((double)i, pmax), H - B, px((double)i, pmax), H - B + 5,
                px((double)i, pmax), H - B + 17, i);
    fprintf(out, "<text class=\"alabel\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">pages "
                 "(log scale)</text>\n<text class=\"alabel\" transform=\"translate(14 %.0f) "
                 "rotate(-90)\" text-anchor=\"middle\">p50 (%s), lower is better</text>\n",
            (L + W - R) / 2, H - 8, (T + H - B) / 2, in_ns(r) ? "ns" : "TSC ticks");
    for (m = 0; m < 3; m++) {
        struct curve_point pts[CURVE_MAX];
        size_t np = 0, j;
        char t[32];
        json_array_foreach(res, i, pt) {
            const json_t *q = json_object_get(pt, "params");
            const char *mode = json_string_value(json_object_get(q, "mode"));
            if (!is_local_w(q, k) || !mode || strcmp(mode, modes[m]) != 0 || np == CURVE_MAX)
                continue;
            pts[np].pages = (double)json_integer_value(json_object_get(q, "pages"));
            pts[np++].v = p50(r, pt);
        }
        /* by page count: a report lists its points in the order it measured them */
        qsort(pts, np, sizeof(pts[0]), by_pages);
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                svg_palette(m));
        for (j = 0; j < np; j++)
            fprintf(out, "%s%.1f,%.1f", j ? " " : "", px(pts[j].pages, pmax),
                    py(pts[j].v, vmin, vmax));
        fputs("\"/>\n", out);
        /* a marker on every point, its value in its title */
        for (j = 0; j < np; j++) {
            if (in_ns(r))
                units_time(pts[j].v, t, sizeof(t));
            else
                snprintf(t, sizeof(t), "%.0f ticks", pts[j].v);
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s, %.0f "
                         "pages: %s</title></circle>\n",
                    px(pts[j].pages, pmax), py(pts[j].v, vmin, vmax), svg_palette(m), modes[m],
                    pts[j].pages, t);
        }
        fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                     "stroke-width=\"3\"/><circle cx=\"%.0f\" cy=\"%.0f\" r=\"3\" fill=\"%s\"/>"
                     "<text class=\"legend\" x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                W - R + 8, T + 12 + 16 * (double)m, W - R + 24, T + 12 + 16 * (double)m,
                svg_palette(m), W - R + 16, T + 12 + 16 * (double)m, svg_palette(m), W - R + 28,
                T + 16 + 16 * (double)m, modes[m]);
    }
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#555\" "
                 "stroke-dasharray=\"5,4\"/><text x=\"%.1f\" y=\"%.0f\" font-size=\"11\">Linux 33"
                 "</text>\n",
            px(LINUX_CEILING, pmax), T, px(LINUX_CEILING, pmax), H - B, px(LINUX_CEILING, pmax) + 3,
            T + 10);
    if (!isnan(pstar))
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#c00\" "
                     "stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" "
                     "fill=\"#c00\">p* = %.0f</text>\n",
                px(pstar, pmax), T, px(pstar, pmax), H - B, px(pstar, pmax) + 3, T + 24, pstar);
    else
        fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" fill=\"#c00\">no crossover:"
                     "<tspan x=\"%.0f\" dy=\"13\">INVLPG cheaper at</tspan><tspan x=\"%.0f\" "
                     "dy=\"13\">every count</tspan></text>\n",
                W - R + 8, T + 70, W - R + 8, W - R + 8);
    fputs("</svg>\n", out);
}

void html_ceiling(FILE *out, struct m_report *const *reports, size_t n)
{
    size_t i, j, any = 0;
    for (i = 0; i < n; i++)
        any += flush_ceiling(reports[i]) != NULL;
    if (!any)
        return;
    fputs("<section id=\"flush-ceiling\">\n<h2>Flush ceiling: p single-page flushes vs one full "
          "flush</h2>\n<p class=\"muted\">Local cost of the flush and of touching the working set "
          "after it, per working set and form (contiguous: the lower bound; scattered frames "
          "with cold page tables: the other). Red: p*, from which the full flush is cheaper "
          "(the report's summary); dashed: Linux's tlb_single_page_flush_ceiling of 33.</p>\n",
          out);
    for (i = 0; i < n; i++) {
        const json_t *e = flush_ceiling(reports[i]), *pt;
        struct chart_key keys[16];
        size_t nkeys = 0, k;
        if (!e)
            continue;
        if (reports[i]->virtualised || reports[i]->simulated || reports[i]->machine_emulated)
            fprintf(out, "<p class=\"muted\">%s: %s: these curves do not describe hardware.</p>\n",
                    reports[i]->label, reports[i]->simulated     ? "SIMULATED"
                                       : reports[i]->virtualised ? "VIRTUALISED"
                                                                 : "EMULATED");
        json_array_foreach(json_object_get(e, "results"), j, pt) {
            const json_t *q = json_object_get(pt, "params");
            struct chart_key key = {
                json_integer_value(json_object_get(q, "working_set")),
                json_string_value(json_object_get(q, "working_set_form")),
            };
            for (k = 0; k < nkeys && !(keys[k].w == key.w && same_form(keys[k].form, key.form));
                 k++)
                ;
            if (k == nkeys && nkeys < 16)
                keys[nkeys++] = key;
        }
        for (k = 0; k < nkeys; k++)
            chart(out, reports[i], e, &keys[k]);
    }
    fputs("</section>\n", out);
}
