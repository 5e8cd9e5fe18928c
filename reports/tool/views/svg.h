/*
 * Inline SVG for the HTML page: a line chart (linear or log axes chosen from
 * the data) and a heatmap with its colour scale. Every chart has ticks and a
 * unit on both axes, a marker on every point, its direction ("lower is
 * better"), a title wrapped over lines rather than cut, and a legend that
 * grows the chart downwards rather than leaving an entry out. No scripts, no external
 * references: the page must open from a USB stick in any browser.
 */
#ifndef TLBSCOPE_REPORT_SVG_H
#define TLBSCOPE_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct svg_series {
    char name[96];
    const char *color;
    const char *dash; /* stroke-dasharray, or NULL for a solid line */
    size_t n;
    double *x, *y;    /* x: the value, or the category index; y NaN: no point there (the
                         line joins the points on either side: a gap is not a break) */
    double *y_lo, *y_hi; /* bar charts: the whisker ends (p50 to p99), or NULL */
    unsigned marker;     /* the points' shape (svg_marker): with the colour, tells reports apart */
};

struct svg_chart {
    const char *title, *x_label, *y_label;
    bool x_categorical;
    const char *const *x_cats; /* labels of categories 0..ncats-1 */
    size_t ncats;
    struct svg_series *series;
    size_t nseries;
    /* one y scale for every chart of an experiment: set y_fixed and the data range */
    bool y_fixed;
    double y_lo, y_hi;
    const char *note; /* a line under the legend ("colour: report, dash: mode"), or NULL */
    const char *direction; /* beside the y label; NULL: "lower is better" (latencies) */
};

struct svg_heatmap {
    const char *title;
    size_t n;                   /* n x n cells */
    const char *const *labels;  /* one per row/column */
    const double *cells;        /* [row * n + col], NaN: not measured */
    const char *unit;
    /* one colour scale for every heatmap on the page: set scale_fixed and the range */
    bool scale_fixed;
    double lo, hi;
    const long long *package;   /* per row/column, or NULL: lines drawn between packages */
};

/*
 * Text escaped for HTML and SVG (& < > " '), control characters dropped: the one escaper of
 * the pages (html, atlas), for element text and attribute values alike. Every string that
 * comes from a report or the fleet database goes through it (tests/checks/markup_sweep.sh).
 */
void svg_text(FILE *out, const char *s);
void svg_line_chart(FILE *out, const struct svg_chart *c);
/* A compact tick label: 950, 1500, 12k, 1.2M. */
const char *svg_tick_text(double v, char *buf, size_t cap);
/* Categories on x, one bar per series in each, with a whisker from y_lo to y_hi. */
void svg_bar_chart(FILE *out, const struct svg_chart *c);
/* log when the data range exceeds SVG_LOG_RATIO (1 page vs a full flush). */
#define SVG_LOG_RATIO 10
void svg_heatmap(FILE *out, const struct svg_heatmap *h);
/* The i-th colour of the series palette (SVG_PALETTE_SIZE colours, colour-blind safe, cycles). */
#define SVG_PALETTE_SIZE 12
const char *svg_palette(size_t i);
/*
 * The i-th report's marker shape (circle, square, triangle, diamond): the
 * first SVG_PALETTE_SIZE differ from their neighbours, the next ones from the
 * report of the same colour, so colour and shape tell 48 reports apart.
 */
unsigned svg_marker(size_t i);
/* The i-th dash pattern (solid first), to tell reports apart. */
const char *svg_dash(size_t i);

#endif
