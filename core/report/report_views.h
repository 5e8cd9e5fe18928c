/*
 * Experiment-specific text views for the summary (the IPI matrix, the
 * seq/conc table, ...). Each experiment can register a view; the generic
 * one prints the parameter points (point_views.h, the aarch64 summary's too).
 */
#ifndef TLBSCOPE_CORE_REPORT_VIEWS_H
#define TLBSCOPE_CORE_REPORT_VIEWS_H

#include "core/run/run.h"
#include "core/lib/strbuf.h"
#include "core/report/time_text.h"

void report_view_experiment(const struct run *r, const struct experiment_record *e,
                            struct strbuf *sb);

#endif
