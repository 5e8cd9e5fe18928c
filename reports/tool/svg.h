/*
 * Inline SVG for the HTML page: a line chart (linear or log axes chosen from
 * the data) and a heatmap with its colour scale. No scripts, no external
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
    double *x, *y;    /* x: the value, or the category index; y NaN breaks the line */
};

struct svg_chart {
    const char *title, *x_label, *y_label;
    bool x_categorical;
    const char *const *x_cats; /* labels of categories 0..ncats-1 */
    size_t ncats;
    struct svg_series *series;
    size_t nseries;
};

struct svg_heatmap {
    const char *title;
    size_t n;                   /* n x n cells */
    const char *const *labels;  /* one per row/column */
    const double *cells;        /* [row * n + col], NaN: not measured */
    const char *unit;
};

/* Text escaped for HTML and SVG (& < > " '), control characters dropped. */
void svg_text(FILE *out, const char *s);
void svg_line_chart(FILE *out, const struct svg_chart *c);
void svg_heatmap(FILE *out, const struct svg_heatmap *h);
/* The i-th colour of the series palette (colour-blind safe, cycles). */
const char *svg_palette(size_t i);
/* The i-th dash pattern (solid first), to tell reports apart. */
const char *svg_dash(size_t i);

#endif
