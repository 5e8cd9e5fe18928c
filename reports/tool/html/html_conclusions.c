#include "reports/tool/html/html_conclusions.h"

#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare_summary.h"
#include "reports/tool/model/units.h"
#include "reports/tool/views/recommend_view.h"
#include "reports/tool/views/svg.h"
#include "reports/tool/views/verdict_view.h"

/* wide enough that the line names the experiments that did not apply, as show's does */
#define VERDICT_HTML_WIDTH 200

const char *html_verdict_text(const struct m_report *r, char *buf, size_t cap)
{
    struct verdict v;
    if (!verdict_of_report(r->root, &v))
        return NULL;
    /* no wider than the buffer: the ids are then left out, never cut */
    verdict_line(&v, cap > 1 && cap - 1 < VERDICT_HTML_WIDTH ? (unsigned)(cap - 1)
                                                               : VERDICT_HTML_WIDTH, buf, cap);
    return buf;
}

/* The verdict's word as the badge's class: COMPLETE green, ERROR and FAILURE red. */
static const char *verdict_class(const char *line)
{
    if (!line)
        return "ERROR";
    if (strncmp(line, "COMPLETE", 8) == 0)
        return "COMPLETE";
    return strncmp(line, "FAILURE", 7) == 0 ? "FAILURE" : "ERROR";
}

static void verdicts(FILE *out, const struct cmp_model *m)
{
    char line[512];
    size_t i;
    fputs("<h3>Run verdicts</h3>\n<ul class=\"verdicts\">\n", out);
    for (i = 0; i < m->nreports; i++) {
        const char *v = html_verdict_text(m->reports[i], line, sizeof(line));
        fputs("<li><strong>", out);
        svg_text(out, m->reports[i]->label);
        fprintf(out, "</strong> <span class=\"verdict %s\">", verdict_class(v));
        svg_text(out, v ? v : "no verdict: the report has no valid result");
        fputs("</span></li>\n", out);
    }
    fputs("</ul>\n", out);
}

/* The verdict's words as a class: faster, slower, no-difference, unknown. */
static const char *verdict_css(enum cmp_verdict v)
{
    switch (v) {
    case CMP_FASTER: return "faster";
    case CMP_SLOWER: return "slower";
    case CMP_NO_DIFFERENCE: return "same";
    default: return "unknown";
    }
}

/*
 * Many reports: experiments down, sides across, each cell the geometric mean
 * of the p50 ratios as a factor ("1.41x faster") and its verdict, as
 * compare's closing summary; the headlines' sentences follow, folded.
 */
static void headline_grid(FILE *out, const struct cmp_model *m)
{
    char g[32];
    size_t k, i;
    fputs("<table class=\"headline-grid\">\n<thead><tr><th>Experiment</th>", out);
    for (i = 0; i < m->nreports; i++) {
        if (i == m->opts.baseline)
            continue;
        fputs("<th>", out);
        svg_text(out, m->reports[i]->label);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        fprintf(out, "<tr><td><a href=\"#exp%zu\">", k);
        svg_text(out, s->id);
        fputs("</a>", out);
        if (s->base != m->opts.baseline) { /* its ratios divide by another side */
            fputs(" <span class=\"muted\">vs ", out);
            svg_text(out, m->reports[s->base]->label);
            fputs("</span>", out);
        }
        fputs("</td>", out);
        for (i = 0; i < m->nreports; i++) {
            struct cmp_summary sum;
            enum cmp_verdict v;
            bool slower;
            if (i == m->opts.baseline)
                continue;
            if (i == s->base || !compare_summary(m, s, i, &sum)) {
                fputs("<td class=\"muted\">-</td>", out);
                continue;
            }
            v = compare_summary_verdict(m, &sum);
            slower = sum.geomean >= 1;
            fprintf(out, "<td class=\"num\">%sx %s <span class=\"badge %s\">%s</span></td>",
                    units_ratio(slower ? sum.geomean : 1 / sum.geomean, g, sizeof(g)),
                    slower ? "slower" : "faster", verdict_css(v), compare_verdict_text(v));
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/* One row per experiment and side against the experiment's base: compare's "=>" lines. */
static void headlines(FILE *out, const struct cmp_model *m)
{
    char line[600];
    size_t k, i;
    bool grid = m->nreports > HTML_RECOMMEND_COLUMNS;
    if (m->nreports < 2 || MUTANT(html_headlines_dropped))
        return;
    fputs("<h3>Headlines</h3>\n", out);
    if (grid) {
        fputs("<p class=\"muted\">Per experiment and report: the geometric mean of the p50 "
              "ratios to ", out);
        svg_text(out, m->reports[m->opts.baseline]->label);
        fputs(" as a factor, and its verdict (lower is better).</p>\n", out);
        headline_grid(out, m);
        fputs("<details><summary>Every headline, with its interval</summary>\n", out);
    }
    fputs("<table class=\"headlines\">\n<thead><tr><th>Experiment</th>"
          "<th>Verdict</th><th>Headline (geometric mean of the p50 ratios; lower is better)</th>"
          "</tr></thead>\n<tbody>\n", out);
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        size_t shown = 0;
        for (i = 0; i < m->nreports; i++) {
            struct cmp_summary sum;
            enum cmp_verdict v;
            if (i == s->base || !compare_summary(m, s, i, &sum) ||
                !compare_headline(m, s, i, line, sizeof(line)))
                continue;
            v = compare_summary_verdict(m, &sum);
            fprintf(out, "<tr class=\"headline\"><td><a href=\"#exp%zu\">", k);
            svg_text(out, s->id);
            fprintf(out, "</a></td><td><span class=\"badge %s\">%s</span></td><td>",
                    verdict_css(v), compare_verdict_text(v));
            svg_text(out, line);
            fputs("</td></tr>\n", out);
            shown++;
        }
        if (!shown) {
            fprintf(out, "<tr class=\"headline\"><td><a href=\"#exp%zu\">", k);
            svg_text(out, s->id);
            fputs("</a></td><td><span class=\"badge unknown\">not compared</span></td>"
                  "<td class=\"muted\">no point measured by two reports</td></tr>\n", out);
        }
    }
    fputs("</tbody></table>\n", out);
    if (grid)
        fputs("</details>\n", out);
}

static void recommend_cell(FILE *out, const struct m_report *r, const char *id)
{
    char text[4096];
    const char *e = recommend_view_entry(r, id, text, sizeof(text));
    if (e) {
        fputs("<td>", out);
        svg_text(out, e);
    } else {
        fprintf(out, "<td class=\"muted\">not in this report%s",
                recommend_view_has_any(r) ? "" : " (schema version 1: no recommendations)");
    }
    fputs("</td>", out);
}

static void recommendations(FILE *out, const struct cmp_model *m)
{
    size_t i, k, any = 0;
    bool wide = m->nreports <= HTML_RECOMMEND_COLUMNS;
    for (i = 0; i < m->nreports; i++)
        any += recommend_view_has_any(m->reports[i]);
    if (!any)
        return;
    fputs("<h3>Recommendations, side by side</h3>\n<table class=\"recommendations\">\n"
          "<thead><tr><th>Recommendation</th>", out);
    if (wide)
        for (i = 0; i < m->nreports; i++) {
            fputs("<th>", out);
            svg_text(out, m->reports[i]->label);
            fputs("</th>", out);
        }
    else
        fputs("<th>Report</th><th>What it suggests</th>", out);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (k = 0; recommend_view_ids[k]; k++) {
        if (wide) {
            fprintf(out, "<tr><th>%s</th>", recommend_view_ids[k]);
            for (i = 0; i < m->nreports; i++)
                recommend_cell(out, m->reports[i], recommend_view_ids[k]);
            fputs("</tr>\n", out);
            continue;
        }
        for (i = 0; i < m->nreports; i++) {
            fputs("<tr>", out);
            if (i == 0)
                fprintf(out, "<th rowspan=\"%zu\">%s</th>", m->nreports, recommend_view_ids[k]);
            fputs("<th>", out);
            svg_text(out, m->reports[i]->label);
            fputs("</th>", out);
            recommend_cell(out, m->reports[i], recommend_view_ids[k]);
            fputs("</tr>\n", out);
        }
    }
    fputs("</tbody></table>\n", out);
}

void html_conclusions(FILE *out, const struct cmp_model *m)
{
    fputs("<section id=\"conclusions\">\n<h2>Conclusions</h2>\n", out);
    verdicts(out, m);
    headlines(out, m);
    recommendations(out, m);
    fputs("</section>\n", out);
}
