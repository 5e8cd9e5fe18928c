/*
 * The flush-ceiling curves on the HTML page: per report and working set,
 * the local latency of p INVLPGs and of each full flush against p (log
 * scale), p* of the report's summary marked, its p25-p75 noise band shaded,
 * and Linux's ceiling of 33 drawn. Inline SVG, no scripts.
 */
#ifndef TLBSCOPE_REPORT_HTML_CEILING_H
#define TLBSCOPE_REPORT_HTML_CEILING_H

#include <stdio.h>

#include "reports/tool/model/model.h"

/* Nothing when no report holds flush_ceiling points. */
void html_ceiling(FILE *out, struct m_report *const *reports, size_t n);

#endif
