/*
 * The heatmaps of the pages as SVG (svg.h: svg_heatmap): n x n cells
 * coloured by value (Viridis, log when the range is wide), with the colour
 * scale, the lines between packages and the cells not measured.
 */
#include "reports/tool/views/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Viridis, sampled at five stops: dark = fast, yellow = slow; readable in greyscale too. */
static void heat_color(double t, char *buf, size_t cap)
{
    static const unsigned char stops[5][3] = {
        { 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c },
        { 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 } };
    double f;
    int i, k, rgb[3];
    if (!isfinite(t))
        t = 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    f = t * 4;
    i = (int)f;
    if (i >= 4)
        i = 3;
    f -= i;
    for (k = 0; k < 3; k++)
        rgb[k] = (int)(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]) + 0.5);
    snprintf(buf, cap, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static double heat_t(double v, double lo, double hi, bool log_scale)
{
    if (!(hi > lo))
        return 0.5;
    if (log_scale)
        return (log(v) - log(lo)) / (log(hi) - log(lo));
    return (v - lo) / (hi - lo);
}

void svg_heatmap(FILE *out, const struct svg_heatmap *h)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t i, j, n = h->n, every;
    int cs, left = 118, top = 64, w, ht, lx;
    bool log_scale, titles = n <= 64;
    char color[16], t[32];
    for (i = 0; i < n * n; i++) {
        if (!isfinite(h->cells[i]))
            continue;
        lo = h->cells[i] < lo ? h->cells[i] : lo;
        hi = h->cells[i] > hi ? h->cells[i] : hi;
    }
    if (h->scale_fixed && lo <= hi) { /* the page's scale: colours compare across reports */
        lo = h->lo;
        hi = h->hi;
    }
    cs = n ? (int)(560 / n) : 20;
    /* small machines: cells big enough to print their value in */
    cs = n <= 8 ? 44 : cs > 30 ? 30 : cs < 3 ? 3 : cs;
    every = cs >= 14 ? 1 : (size_t)(14 + cs - 1) / (size_t)cs;
    /* the colour scale beside the cells: its 16 steps and "linear colour scale, shared" in
     * 11 px ticks (about 6 px a character) need 24 + 175 px */
    w = left + cs * (int)n + 200;
    /* the caption is one line of 13 px bold text, about 7.5 px a character: the figure is
     * at least that wide, or a browser clips it at the edge */
    if (h->title && w < 16 + (int)(strlen(h->title) * 7.5))
        w = 16 + (int)(strlen(h->title) * 7.5);
    ht = top + cs * (int)n + 30;
    if (ht < top + 224) /* room for the colour scale */
        ht = top + 224;
    log_scale = lo > 0 && hi / lo > 10;
    fprintf(out, "<svg class=\"heatmap\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            w, ht, w, ht);
    fputs("<title>", out);
    svg_text(out, h->title);
    fputs("</title>\n<text class=\"ctitle\" x=\"8\" y=\"18\">", out);
    svg_text(out, h->title);
    fputs("</text>\n", out);
    fprintf(out, "<text class=\"alabel\" x=\"%d\" y=\"40\">target CPU &#8594;</text>\n", left);
    fprintf(out, "<text class=\"alabel\" transform=\"translate(14 %d) rotate(-90)\" "
            "text-anchor=\"middle\">initiator CPU</text>\n", top + cs * (int)n / 2);
    for (i = 0; i < n; i += every) {
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
                left + cs * (i + 0.5), top - 6);
        svg_text(out, h->labels[i]);
        fprintf(out, "</text><text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                left - 6, top + cs * (i + 0.5) + 4);
        svg_text(out, h->labels[i]);
        fputs("</text>\n", out);
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            double v = h->cells[i * n + j];
            if (isfinite(v))
                heat_color(heat_t(v, lo, hi, log_scale), color, sizeof(color));
            else
                snprintf(color, sizeof(color), "#eeeeee");
            fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">",
                    left + cs * (int)j, top + cs * (int)i, cs, cs, color);
            if (titles && isfinite(v)) {
                fputs("<title>", out);
                svg_text(out, h->labels[i]);
                fputs(" &#8594; ", out);
                svg_text(out, h->labels[j]);
                fprintf(out, ": %s %s</title>", svg_tick_text(v, t, sizeof(t)), h->unit);
            }
            fputs("</rect>\n", out);
            if (n <= 8 && isfinite(v)) { /* the value itself, light on the dark half of the scale */
                /* the class, not only the fill attribute: a page's CSS rule for svg text wins
                 * over a presentation attribute, and made every label dark (issue 23) */
                bool dark = heat_t(v, lo, hi, log_scale) < 0.55;
                fprintf(out, "<text class=\"cell %s\" x=\"%.1f\" y=\"%.1f\" "
                        "text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
                        dark ? "on-dark" : "on-light", left + cs * (j + 0.5),
                        top + cs * (i + 0.5) + 4, dark ? "#ffffff" : "#000000",
                        svg_tick_text(v, t, sizeof(t)));
            }
        }
    }
    /* package boundaries: CPUs are in topology order, so a package is one block */
    for (i = 1; h->package && i < n; i++) {
        if (h->package[i] == h->package[i - 1])
            continue;
        fprintf(out, "<line class=\"package\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                "stroke=\"#d00000\" stroke-width=\"2\"/>\n", left + cs * (int)i, top,
                left + cs * (int)i, top + cs * (int)n);
        fprintf(out, "<line class=\"package\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                "stroke=\"#d00000\" stroke-width=\"2\"/>\n", left, top + cs * (int)i,
                left + cs * (int)n, top + cs * (int)i);
    }
    /* the colour scale: 16 steps from the fastest to the slowest pair */
    lx = left + cs * (int)n + 24;
    if (lo <= hi) {
        for (i = 0; i < 16; i++) {
            double f = 1 - (double)i / 15, v = log_scale ? exp(log(lo) + f * (log(hi) - log(lo)))
                                                         : lo + f * (hi - lo);
            heat_color(heat_t(v, lo, hi, log_scale), color, sizeof(color));
            fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"10\" fill=\"%s\"/>\n", lx,
                    top + (int)i * 10, color);
        }
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%d\">%s %s (slow)</text>\n", lx + 22,
                top + 9, svg_tick_text(hi, t, sizeof(t)), h->unit);
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%d\">%s %s (fast)</text>\n", lx + 22,
                top + 159, svg_tick_text(lo, t, sizeof(t)), h->unit);
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%d\">%s%s</text>\n", lx, top + 178,
                log_scale ? "log colour scale" : "linear colour scale",
                h->scale_fixed ? ", shared" : "");
        if (h->package)
            fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#d00000\" "
                    "stroke-width=\"2\"/><text class=\"tick\" x=\"%d\" y=\"%d\">package "
                    "boundary</text>\n", lx, top + 210, lx + 12, top + 210, lx + 16, top + 214);
    }
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#eeeeee\"/>"
            "<text class=\"tick\" x=\"%d\" y=\"%d\">not measured</text>\n",
            lx, top + 188, lx + 16, top + 197);
    fputs("</svg>\n", out);
}
