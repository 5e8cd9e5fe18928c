/* `show` for shootdown_contention: latency through the pivot, throughput in its own table. */
#ifndef TLBSCOPE_REPORT_SHOW_CONTENTION_H
#define TLBSCOPE_REPORT_SHOW_CONTENTION_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/model/model.h"

#define CONTENTION_EXPERIMENT "shootdown_contention"

/*
 * `copy` is `e` with only its latency points (every point of a report
 * before issue 20); free copy->results.items. False when out of memory.
 */
bool show_contention_latency_points(const struct m_experiment *e, struct m_experiment *copy);
/* Shootdowns per second by m and method, per (mode, pages); old reports say what is missing. */
void show_contention_rates(const struct m_report *r, const struct m_experiment *e, FILE *out);

#endif
