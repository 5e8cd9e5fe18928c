/* The recommendations section (reports/SCHEMA.md) in show and compare. */
#ifndef TLBSCOPE_REPORT_RECOMMEND_VIEW_H
#define TLBSCOPE_REPORT_RECOMMEND_VIEW_H

#include <stdio.h>

#include "reports/tool/model/model.h"

/* "What this machine suggests": one entry a line; nothing for a version 1 report. */
void recommend_view_show(const struct m_report *r, FILE *out);
/* Each recommendation side by side, one line per report. */
void recommend_view_compare(struct m_report *const *reports, size_t n, FILE *out);

#endif
