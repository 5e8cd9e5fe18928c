/*
 * The line and bar charts of the HTML page as SVG (svg.h): axes, ticks,
 * series, legend and the text helpers every picture uses. The heatmap is
 * svg_heatmap.c's.
 */
#include "reports/tool/views/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/units.h"

#define CHART_W 620
#define PLOT_L 78
#define PLOT_R (CHART_W - 190)
#define PLOT_HEIGHT 286
/*
 * The chart being drawn (chart_layout): the plot starts below the title's
 * lines and the picture ends below the longer of the plot and the legend.
 * One chart at a time: the page is written by one thread.
 */
static int plot_top = 36, chart_h = 380;
/* categories too long for their slot are turned (x_turned), and the picture grows by x_room */
static bool x_turned;
static int x_room;
#define PLOT_T plot_top
#define PLOT_B (plot_top + PLOT_HEIGHT)
#define CHART_H chart_h
/* characters a line: the title's (13 px bold) over the width, the legend's (11 px) beside the plot */
#define TITLE_CHARS 78
#define LEGEND_CHARS 22
#define NOTE_CHARS 28

void svg_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            if ((unsigned char)*s >= 0x20 && *s != 0x7f)
                fputc(*s, out);
        }
    }
}

const char *svg_palette(size_t i)
{
    /* Okabe-Ito (readable by most colour-blind readers, yellow darkened), then four of Paul
     * Tol's muted scheme that none of them resembles: twelve reports of a page apart */
    static const char *const colors[SVG_PALETTE_SIZE] = {
        "#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9",
        "#b8a000", "#000000", "#882255", "#44aa99", "#332288", "#999933" };
    return colors[i % SVG_PALETTE_SIZE];
}

unsigned svg_marker(size_t i) { return (unsigned)((i + i / SVG_PALETTE_SIZE) % 4); }

/* A point's marker at (x, y), its <title> (escaped) when title is not NULL. */
static void marker(FILE *out, double x, double y, unsigned shape, const char *color,
                   const char *title)
{
    switch (shape % 4) {
    case 1:
        fprintf(out, "<rect class=\"mark\" x=\"%.1f\" y=\"%.1f\" width=\"6.4\" height=\"6.4\" "
                "fill=\"%s\">", x - 3.2, y - 3.2, color);
        break;
    case 2:
        fprintf(out, "<path class=\"mark\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\">",
                x, y - 4.2, x + 4, y + 3, x - 4, y + 3, color);
        break;
    case 3:
        fprintf(out, "<path class=\"mark\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" "
                "fill=\"%s\">", x, y - 4.3, x + 4.3, y, x, y + 4.3, x - 4.3, y, color);
        break;
    default:
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">", x, y, color);
    }
    if (title) {
        fputs("<title>", out);
        svg_text(out, title);
        fputs("</title>", out);
    }
    fputs(shape % 4 == 1 ? "</rect>" : shape % 4 ? "</path>" : "</circle>", out);
}

static size_t count_lines(const char *text, size_t width)
{
    size_t n = 0, k;
    while (text && *text) {
        k = units_line_len(text, width);
        text += k;
        while (*text == ' ')
            text++;
        n++;
    }
    return n ? n : 1;
}

/* text as <tspan> lines of at most `width` characters, `step` px apart, from (x, y). */
static void wrapped_text(FILE *out, const char *cls, int x, int y, int step, const char *text,
                         size_t width)
{
    char line[256];
    size_t k, i = 0;
    fprintf(out, "<text class=\"%s\" x=\"%d\" y=\"%d\">", cls, x, y);
    while (text && *text) {
        k = units_line_len(text, width < sizeof(line) ? width : sizeof(line) - 1);
        snprintf(line, sizeof(line), "%.*s", (int)k, text);
        fprintf(out, "<tspan x=\"%d\" dy=\"%d\">", x, i++ ? step : 0);
        svg_text(out, line);
        fputs("</tspan>", out);
        text += k;
        while (*text == ' ')
            text++;
    }
    fputs("</text>\n", out);
}

/* Legend entries' height: 18 px each, 13 more a wrapped line; then the note's. */
static int legend_height(const struct svg_chart *c)
{
    size_t i;
    int h = 0;
    for (i = 0; i < c->nseries; i++)
        h += 18 + 13 * (int)(count_lines(c->series[i].name, LEGEND_CHARS) - 1);
    if (c->note)
        h += 14 + 13 * (int)count_lines(c->note, NOTE_CHARS);
    return h;
}

/* The chart's title lines and legend decide where its plot starts and its picture ends. */
static void chart_layout(const struct svg_chart *c)
{
    int legend_end;
    size_t i, longest = 0;
    plot_top = 20 + 16 * (int)count_lines(c->title, TITLE_CHARS);
    for (i = 0; c->x_categorical && i < c->ncats; i++)
        longest = strlen(c->x_cats[i]) > longest ? strlen(c->x_cats[i]) : longest;
    /* about 6 px a character of 11 px text: side by side only when each fits its slot */
    x_turned = c->ncats && (double)longest * 6.2 > (double)(PLOT_R - PLOT_L) / (double)c->ncats - 4;
    /* turned by 40 degrees: the longest label's drop, less the line the labels had */
    x_room = x_turned && longest > 2 ? (int)((double)longest * 6.2 * 0.64) - 8 : 0;
    legend_end = plot_top + 6 + legend_height(c) + 12;
    chart_h = PLOT_B + 58 + x_room > legend_end ? PLOT_B + 58 + x_room : legend_end;
}

/* The title over the chart's width, on as many lines as it needs. */
static void chart_title(FILE *out, const struct svg_chart *c)
{
    fputs("<title>", out);
    svg_text(out, c->title);
    fputs("</title>\n", out);
    wrapped_text(out, "ctitle", 8, 20, 16, c->title, TITLE_CHARS);
}

const char *svg_dash(size_t i)
{
    static const char *const dashes[] = { NULL, "7 4", "2 3", "9 3 2 3" };
    return dashes[i % (sizeof(dashes) / sizeof(dashes[0]))];
}

const char *svg_tick_text(double v, char *buf, size_t cap)
{
    double a = fabs(v);
    if (a >= 1e6)
        snprintf(buf, cap, "%gM", round(v / 1e5) / 10);
    else if (a >= 1e4)
        snprintf(buf, cap, "%gk", round(v / 1e2) / 10);
    else if (a >= 100 || v == floor(v))
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.3g", v);
    return buf;
}

/* 1, 2 or 5 times a power of ten, near range / steps. */
static double nice_step(double range, int steps)
{
    double raw = range / steps, mag, f;
    if (!(raw > 0) || !isfinite(raw))
        return 1;
    mag = pow(10, floor(log10(raw)));
    f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

struct scale {
    bool log;
    double lo, hi; /* data space (log: the values, not their logarithms) */
    double p0, p1; /* pixels */
};

static double to_px(const struct scale *s, double v)
{
    double t;
    if (s->log)
        t = (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
    else
        t = (v - s->lo) / (s->hi - s->lo);
    if (!isfinite(t))
        t = 0.5;
    return s->p0 + t * (s->p1 - s->p0);
}

static void range_of(const struct svg_chart *c, bool want_x, double *lo, double *hi)
{
    size_t i, j;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (i = 0; i < c->nseries; i++) {
        for (j = 0; j < c->series[i].n; j++) {
            double v = want_x ? c->series[i].x[j] : c->series[i].y[j];
            if (!isfinite(v) || !isfinite(c->series[i].y[j]))
                continue;
            if (v < *lo)
                *lo = v;
            if (v > *hi)
                *hi = v;
        }
    }
}

static void axis_line(FILE *out, double x1, double y1, double x2, double y2, const char *cls)
{
    fprintf(out, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls, x1,
            y1, x2, y2);
}

static void y_ticks(FILE *out, const struct scale *ys)
{
    char t[32];
    double v, step;
    int k;
    if (ys->log) {
        int d0 = (int)floor(log10(ys->lo)), d1 = (int)ceil(log10(ys->hi));
        bool fine = d1 - d0 <= 2;
        for (k = d0; k <= d1; k++) {
            static const double mult[] = { 1, 2, 5 };
            int m;
            for (m = 0; m < (fine ? 3 : 1); m++) {
                v = mult[m] * pow(10, k);
                if (v < ys->lo * 0.999 || v > ys->hi * 1.001)
                    continue;
                axis_line(out, PLOT_L, to_px(ys, v), PLOT_R, to_px(ys, v), "grid");
                fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                        PLOT_L - 6, to_px(ys, v) + 4, svg_tick_text(v, t, sizeof(t)));
            }
        }
        return;
    }
    step = nice_step(ys->hi - ys->lo, 5);
    for (v = ys->lo, k = 0; v <= ys->hi * 1.0001 && k < 20; v += step, k++) {
        axis_line(out, PLOT_L, to_px(ys, v), PLOT_R, to_px(ys, v), "grid");
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                PLOT_L - 6, to_px(ys, v) + 4, svg_tick_text(v, t, sizeof(t)));
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void x_tick(FILE *out, const struct scale *xs, double v, const char *label)
{
    double px = to_px(xs, v);
    axis_line(out, px, PLOT_B, px, PLOT_B + 5, "axis");
    if (x_turned) /* whole, turned, rather than over each other */
        fprintf(out, "<text class=\"tick\" transform=\"translate(%.1f %d) rotate(-40)\" "
                "text-anchor=\"end\">", px + 3, PLOT_B + 14);
    else
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px,
                PLOT_B + 18);
    svg_text(out, label);
    fputs("</text>\n", out);
}

static void x_ticks(FILE *out, const struct svg_chart *c, const struct scale *xs)
{
    char t[32];
    size_t i, j, n = 0, total = 0, every;
    double *v, step, x;
    if (c->x_categorical) {
        every = c->ncats > 16 ? (c->ncats + 15) / 16 : 1;
        for (i = 0; i < c->ncats; i += every)
            x_tick(out, xs, (double)i, c->x_cats[i]);
        return;
    }
    for (i = 0; i < c->nseries; i++)
        total += c->series[i].n;
    v = malloc((total ? total : 1) * sizeof(*v));
    if (!v)
        return;
    for (i = 0; i < c->nseries; i++)
        for (j = 0; j < c->series[i].n; j++)
            if (isfinite(c->series[i].x[j]) && isfinite(c->series[i].y[j]))
                v[n++] = c->series[i].x[j];
    qsort(v, n, sizeof(*v), cmp_double);
    for (i = 0, j = 0; i < n; i++)
        if (!j || v[i] != v[j - 1])
            v[j++] = v[i];
    n = j;
    if (n <= 12) { /* the measured values themselves, e.g. 1 2 4 8 16 pages */
        for (i = 0; i < n; i++)
            x_tick(out, xs, v[i], svg_tick_text(v[i], t, sizeof(t)));
    } else if (xs->log) {
        for (x = pow(2, floor(log2(xs->lo))); x <= xs->hi * 1.0001; x *= 4)
            if (x >= xs->lo * 0.999)
                x_tick(out, xs, x, svg_tick_text(x, t, sizeof(t)));
    } else {
        step = nice_step(xs->hi - xs->lo, 8);
        for (x = ceil(xs->lo / step) * step, i = 0; x <= xs->hi * 1.0001 && i < 30; x += step, i++)
            x_tick(out, xs, x, svg_tick_text(x, t, sizeof(t)));
    }
    free(v);
}

static void plot_series(FILE *out, const struct svg_chart *c, const struct svg_series *s,
                        const struct scale *xs, const struct scale *ys)
{
    char a[32], b[32];
    size_t j;
    bool open = false;
    for (j = 0; j < s->n; j++) {
        bool ok = isfinite(s->x[j]) && isfinite(s->y[j]) && (!ys->log || s->y[j] > 0) &&
                  (!xs->log || s->x[j] > 0);
        if (!ok) /* a point this series lacks: the line goes on to the next one */
            continue;
        if (!open)
            fprintf(out, "<polyline class=\"series\" stroke=\"%s\"%s%s%s points=\"", s->color,
                    s->dash ? " stroke-dasharray=\"" : "", s->dash ? s->dash : "",
                    s->dash ? "\"" : "");
        open = true;
        fprintf(out, "%.1f,%.1f ", to_px(xs, s->x[j]), to_px(ys, s->y[j]));
    }
    if (open)
        fputs("\"/>\n", out);
    for (j = 0; j < s->n; j++) {
        char title[200];
        if (!isfinite(s->x[j]) || !isfinite(s->y[j]) || (ys->log && s->y[j] <= 0) ||
            (xs->log && s->x[j] <= 0))
            continue;
        /* escaped by marker(): a series name comes from a report */
        snprintf(title, sizeof(title), "%s: %s \u2192 %s", s->name,
                 c->x_categorical && s->x[j] >= 0 && (size_t)s->x[j] < c->ncats
                     ? c->x_cats[(size_t)s->x[j]]
                     : svg_tick_text(s->x[j], a, sizeof(a)),
                 svg_tick_text(s->y[j], b, sizeof(b)));
        marker(out, to_px(xs, s->x[j]), to_px(ys, s->y[j]), s->marker, s->color, title);
        fputc('\n', out);
    }
}

static void legend(FILE *out, const struct svg_chart *c)
{
    size_t i;
    int y = PLOT_T + 6;
    for (i = 0; i < c->nseries; i++) {
        const struct svg_series *s = &c->series[i];
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.5\"%s%s%s/>",
                PLOT_R + 14, y, PLOT_R + 40, y, s->color, s->dash ? " stroke-dasharray=\"" : "",
                s->dash ? s->dash : "", s->dash ? "\"" : "");
        marker(out, PLOT_R + 27, y, s->marker, s->color, NULL);
        /* the whole name, wrapped: a legend entry is never cut */
        wrapped_text(out, "legend", PLOT_R + 46, y + 4, 13, s->name, LEGEND_CHARS);
        y += 18 + 13 * (int)(count_lines(s->name, LEGEND_CHARS) - 1);
    }
    if (c->note)
        wrapped_text(out, "legend", PLOT_R + 14, y + 14, 13, c->note, NOTE_CHARS);
}

/* The x label under the plot, the y label turned along its left side. */
static void axis_labels(FILE *out, const struct svg_chart *c, bool x_log, bool y_log)
{
    fprintf(out, "<text class=\"alabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
            (PLOT_L + PLOT_R) / 2, PLOT_B + 44 + x_room);
    svg_text(out, c->x_label);
    fputs(x_log ? " (log scale)" : "", out);
    fputs("</text>\n", out);
    fprintf(out, "<text class=\"alabel\" transform=\"translate(18 %d) rotate(-90)\" "
            "text-anchor=\"middle\">", (PLOT_T + PLOT_B) / 2);
    svg_text(out, c->y_label);
    fputs(y_log ? " (log scale)" : "", out);
    fputs(", ", out);
    svg_text(out, c->direction ? c->direction : "lower is better");
    fputs("</text>\n", out);
}

void svg_line_chart(FILE *out, const struct svg_chart *c)
{
    struct scale xs = { false, 0, 1, PLOT_L + 10, PLOT_R - 10 }, ys = { false, 0, 1, PLOT_B, PLOT_T };
    double lo, hi;
    size_t i;
    chart_layout(c);
    xs.p0 = PLOT_L + 10;
    ys.p0 = PLOT_B;
    ys.p1 = PLOT_T;
    fprintf(out, "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            CHART_W, CHART_H, CHART_W, CHART_H);
    chart_title(out, c);
    range_of(c, false, &lo, &hi);
    if (lo <= hi && c->y_fixed) {
        lo = c->y_lo;
        hi = c->y_hi;
    }
    if (!(lo <= hi)) {
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%d\">no measured points</text>\n</svg>\n",
                PLOT_L, (PLOT_T + PLOT_B) / 2);
        return;
    }
    /* log scale when the values span more than a factor 10 (e.g. 1 page vs a full flush) */
    ys.log = lo > 0 && hi / lo > SVG_LOG_RATIO;
    if (ys.log) {
        ys.lo = pow(10, floor(log10(lo)));
        ys.hi = pow(10, ceil(log10(hi)));
    } else {
        double step = nice_step(hi > 0 ? hi : 1, 5);
        ys.lo = lo < 0 ? floor(lo / step) * step : 0;
        ys.hi = hi > 0 ? ceil(hi / step) * step : 1;
        if (ys.hi <= ys.lo)
            ys.hi = ys.lo + 1;
    }
    if (c->x_categorical) {
        xs.lo = -0.5;
        xs.hi = c->ncats ? (double)c->ncats - 0.5 : 0.5;
        xs.p0 = PLOT_L;
        xs.p1 = PLOT_R;
    } else {
        range_of(c, true, &lo, &hi);
        xs.log = lo > 0 && hi / lo >= 16;
        xs.lo = lo;
        xs.hi = hi > lo ? hi : lo + 1;
        if (!xs.log && hi <= lo) {
            xs.lo = lo - 1;
            xs.hi = lo + 1;
        }
    }
    y_ticks(out, &ys);
    axis_line(out, PLOT_L, PLOT_B, PLOT_R, PLOT_B, "axis");
    axis_line(out, PLOT_L, PLOT_T, PLOT_L, PLOT_B, "axis");
    x_ticks(out, c, &xs);
    axis_labels(out, c, xs.log, ys.log);
    for (i = 0; i < c->nseries; i++)
        plot_series(out, c, &c->series[i], &xs, &ys);
    legend(out, c);
    fputs("</svg>\n", out);
}

/* Bars: categories on x, a bar per series in each (its colour), whiskers y_lo..y_hi. */
void svg_bar_chart(FILE *out, const struct svg_chart *c)
{
    struct scale xs = { false, -0.5, 0.5, PLOT_L, PLOT_R }, ys = { false, 0, 1, PLOT_B, PLOT_T };
    double lo = INFINITY, hi = -INFINITY, slot, bw;
    size_t i, k;
    char t[32];
    for (i = 0; i < c->nseries; i++) {
        const struct svg_series *s = &c->series[i];
        for (k = 0; k < s->n; k++) {
            double a = s->y[k], b = s->y_hi ? s->y_hi[k] : s->y[k];
            if (!isfinite(a))
                continue;
            lo = a < lo ? a : lo;
            hi = (isfinite(b) ? b : a) > hi ? (isfinite(b) ? b : a) : hi;
        }
    }
    chart_layout(c);
    ys.p0 = PLOT_B;
    ys.p1 = PLOT_T;
    fprintf(out, "<svg class=\"chart bars\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "role=\"img\">\n", CHART_W, CHART_H, CHART_W, CHART_H);
    chart_title(out, c);
    if (!(lo <= hi) || !c->ncats) {
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%d\">no measured points</text>\n</svg>\n",
                PLOT_L, (PLOT_T + PLOT_B) / 2);
        return;
    }
    /* bars start at the bottom of the axis: log keeps p50 and a far p99 both readable */
    ys.log = lo > 0 && hi / lo > SVG_LOG_RATIO;
    if (ys.log) { /* a decade below the lowest bar, so every bar has a visible height */
        ys.lo = pow(10, floor(log10(lo)) - 1);
        ys.hi = pow(10, ceil(log10(hi)));
    } else {
        double step = nice_step(hi > 0 ? hi : 1, 5);
        ys.lo = 0;
        ys.hi = hi > 0 ? ceil(hi / step) * step : 1;
    }
    xs.hi = (double)c->ncats - 0.5;
    y_ticks(out, &ys);
    axis_line(out, PLOT_L, PLOT_B, PLOT_R, PLOT_B, "axis");
    axis_line(out, PLOT_L, PLOT_T, PLOT_L, PLOT_B, "axis");
    for (k = 0; k < c->ncats; k++)
        x_tick(out, &xs, (double)k, c->x_cats[k]);
    slot = (double)(PLOT_R - PLOT_L) / (double)c->ncats;
    bw = slot * 0.8 / (double)(c->nseries ? c->nseries : 1);
    for (i = 0; i < c->nseries; i++) {
        const struct svg_series *s = &c->series[i];
        for (k = 0; k < s->n && k < c->ncats; k++) {
            double x0 = PLOT_L + slot * (double)k + slot * 0.1 + bw * (double)i, y = s->y[k];
            double top, base = PLOT_B;
            if (!isfinite(y) || (ys.log && y <= 0))
                continue;
            top = to_px(&ys, y);
            fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                    "fill=\"%s\"><title>", x0, top, bw * 0.9, base - top, s->color);
            svg_text(out, s->name);
            fputs(": ", out);
            svg_text(out, c->x_cats[k]);
            fprintf(out, " p50 %s", svg_tick_text(y, t, sizeof(t)));
            if (s->y_hi && isfinite(s->y_hi[k]))
                fprintf(out, ", p99 %s", svg_tick_text(s->y_hi[k], t, sizeof(t)));
            fputs("</title></rect>\n", out);
            if (s->y_lo && s->y_hi && isfinite(s->y_lo[k]) && isfinite(s->y_hi[k]) &&
                (!ys.log || s->y_lo[k] > 0)) {
                double xm = x0 + bw * 0.45, a = to_px(&ys, s->y_lo[k]), b = to_px(&ys, s->y_hi[k]);
                fprintf(out, "<path class=\"whisker\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1f\" "
                        "stroke=\"#222\" stroke-width=\"1.5\" fill=\"none\"/>\n", xm, a, b,
                        xm - bw * 0.25, b, xm + bw * 0.25);
            }
        }
    }
    axis_labels(out, c, false, ys.log);
    legend(out, c);
    fputs("</svg>\n", out);
}
