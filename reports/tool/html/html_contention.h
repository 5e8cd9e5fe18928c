/*
 * The HTML page's views for issue 12 (reports/tool/html/html.c calls them after
 * each experiment's own section): shootdown_contention as throughput versus
 * the number of initiators m, one line per report and method, a chart per
 * mode and page count; ipi_target_state as latency by target state (round
 * trip and the target's lost time); and every experiment's conditions.
 */
#ifndef TLBSCOPE_REPORT_HTML_CONTENTION_H
#define TLBSCOPE_REPORT_HTML_CONTENTION_H

#include <stdio.h>

#include "reports/tool/compare/compare.h"

void html_contention_extras(FILE *out, const struct cmp_model *m, const struct cmp_section *s);

#endif
