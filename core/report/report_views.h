/*
 * Experiment-specific text views for the summary (the IPI matrix, the
 * seq/conc table, ...). Each experiment can register a view; the generic
 * one prints the parameter points.
 */
#ifndef TLBSCOPE_CORE_REPORT_VIEWS_H
#define TLBSCOPE_CORE_REPORT_VIEWS_H

#include "core/run/run.h"
#include "core/lib/strbuf.h"
#include "core/report/time_text.h"

void report_view_experiment(const struct run *r, const struct experiment_record *e,
                            struct strbuf *sb);
/* The generic table: one line per point with p50/p99 and ns conversions. */
void report_view_points(const struct run *r, const struct experiment_record *e,
                        const struct point_list *l, struct strbuf *sb, uint32_t max_lines);

#endif
