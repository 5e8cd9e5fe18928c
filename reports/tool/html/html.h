/*
 * `html`: one self-contained page for one or more reports: inline CSS and
 * SVG, no JavaScript, no network references, so it opens from a USB stick
 * in any browser. The machine identity table comes first, then per
 * experiment its status, charts (one series per report, laid out by the
 * experiment's axes.x and axes.series), an IPI heatmap per report, and the
 * data table that `compare` prints. Virtualised and emulated reports are
 * flagged wherever their numbers appear.
 */
#ifndef TLBSCOPE_REPORT_HTML_H
#define TLBSCOPE_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/compare/compare.h"
#include "reports/tool/model/model.h"
#include "reports/tool/views/svg.h"

/*
 * Columns a page has (compare takes COMPARE_MAX_REPORTS): every side is
 * named (NAME=FILE or its CPU), and colour with marker shape tells this many
 * apart (svg_marker). Past it, a column per CPU model (html_render_sides).
 */
#define HTML_MAX_REPORTS (4 * SVG_PALETTE_SIZE)
/* Charts per experiment at most; facets beyond it are sampled evenly. */
#define HTML_MAX_FACETS 48 /* every facet of today's experiments (9 page counts); a cap for odd reports */
/* Reports whose data tables are always side by side (p50, p99, ratio and interval each). */
#define HTML_SIDE_BY_SIDE 4
/* More reports: a data table wider than this many characters takes the long layout (the page is ~1300 px). */
#define HTML_TABLE_CHARS 180
/* Largest IPI heatmap drawn (cells = CPUs squared). */
#define HTML_HEATMAP_MAX_CPUS 128

/* False when out of memory (the page is then incomplete). Each report its own column. */
bool html_render(FILE *out, struct m_report *const *reports, size_t n);
/*
 * The same with the reports in sides (columns): side_of[r] (0 .. nsides-1, each non-empty)
 * is report r's; a side of several reports is pooled as compare pools runs (the median of
 * their p50s, the range as interval) and the page says so. html uses it past
 * HTML_MAX_REPORTS reports, a side per CPU model (cli/sides.h, sides_pool_models).
 */
bool html_render_sides(FILE *out, struct m_report *const *all, const size_t *side_of, size_t n,
                       size_t nsides);

/* One experiment's section (html_experiment.c). */
void html_experiment(FILE *out, const struct cmp_model *m, const struct cmp_section *s);

#endif
