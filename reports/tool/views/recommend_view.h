/* The recommendations section (reports/SCHEMA.md) in show and compare. */
#ifndef TLBSCOPE_REPORT_RECOMMEND_VIEW_H
#define TLBSCOPE_REPORT_RECOMMEND_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/model/model.h"

/* "What this machine suggests": one entry a line; nothing for a version 1 report. */
void recommend_view_show(const struct m_report *r, FILE *out);
/* Each recommendation side by side, one line per report. */
void recommend_view_compare(struct m_report *const *reports, size_t n, FILE *out);

/* The ids compare and html put side by side, NULL-terminated. */
extern const char *const recommend_view_ids[];
/* The report has a recommendations section (schema 2 and later). */
bool recommend_view_has_any(const struct m_report *r);
/* Entry `id` as one unwrapped line (times in ns from ticks), or NULL when the report has none. */
const char *recommend_view_entry(const struct m_report *r, const char *id, char *buf, size_t cap);

#endif
