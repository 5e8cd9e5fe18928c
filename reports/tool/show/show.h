/* `show`: the text summary of one saved report, like the .txt the tool writes, and more. */
#ifndef TLBSCOPE_REPORT_SHOW_H
#define TLBSCOPE_REPORT_SHOW_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/model/model.h"

/* Largest IPI matrix printed in full; above it the per-class summary stands in. */
#define SHOW_MATRIX_MAX_CPUS 16
/*
 * `show --wide`: time cells carry their TSC ticks ("11.8 us (30,524)") and
 * prose wraps at 100 columns. By default show fits an 80-column terminal
 * (the UEFI console of most servers is 80x25): times only, wrapped at 80.
 * One process shows one report, so a flag the CLI sets once will do.
 */
extern bool show_wide;
#define SHOW_WIDTH (show_wide ? 100 : 80)

void show_report(const struct m_report *r, FILE *out);

/* One experiment's section (show_views.c). */
void show_experiment(const struct m_report *r, const struct m_experiment *e, FILE *out);
/* "1.15 us": p50 scaled (with --wide, "1.15 us (3,000)"), or just ticks without tsc_hz. */
const char *show_time_cell(const struct m_report *r, double ticks, char *buf, size_t cap);
/* A statistic of a metric with n == 0: show_time_cell prints "no samples". */
#define SHOW_NO_SAMPLES (-HUGE_VAL)
/* A p99 of fewer than 100 samples (or p90 of fewer than 10): show_time_cell prints "n<100". */
#define SHOW_FEW_SAMPLES (HUGE_VAL)

#endif
