/*
 * What the page concludes, before any table or chart (issue 31, item 5): the
 * run verdict of each report as the app prints it ("COMPLETE: 9 measured, 1
 * not applicable"), one headline per experiment as compare prints it (the
 * ratio, its interval and the verdict), and the reports' recommendations side
 * by side (one column per report up to HTML_RECOMMEND_COLUMNS, else one row
 * per report).
 */
#ifndef TLBSCOPE_REPORT_HTML_CONCLUSIONS_H
#define TLBSCOPE_REPORT_HTML_CONCLUSIONS_H

#include <stdio.h>

#include "reports/tool/compare/compare.h"

/* More reports than this: the recommendations in the long layout (a row per report). */
#define HTML_RECOMMEND_COLUMNS 3

void html_conclusions(FILE *out, const struct cmp_model *m);
/* The report's verdict line into buf ("COMPLETE: ..."), or NULL when its result is not valid. */
const char *html_verdict_text(const struct m_report *r, char *buf, size_t cap);

#endif
