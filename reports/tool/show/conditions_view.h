/*
 * The conditions each experiment was measured under (reports/SCHEMA.md,
 * experiments[].conditions) in the host tool: a line per experiment in
 * `show`, a table in `html`, and the warnings `compare` prints when two
 * reports' conditions differ in a way that changes the numbers:
 *   - effective clock (APERF/MPERF) more than 5% apart;
 *   - SMIs during one report's experiment (the counter moved) and not the other's;
 *   - a different target_wait (targets spinning vs halting), APIC mode
 *     (xAPIC vs x2APIC) or full-flush method;
 *   - one report's effective clock more than 5% from its TSC's (nominal).
 */
#ifndef TLBSCOPE_REPORT_CONDITIONS_VIEW_H
#define TLBSCOPE_REPORT_CONDITIONS_VIEW_H

#include <stdio.h>

#include "reports/tool/model/model.h"

#define CONDITIONS_FREQ_TOLERANCE 0.05 /* 5%: beyond it latencies scale with the clock */

/* The experiment object of report `r` named `id`, or NULL. */
const json_t *conditions_experiment(const struct m_report *r, const char *id);
/* "warning: ..." lines (wrapped at 80 columns) comparing every report with the first; returns
 * how many. With `out` NULL it only counts. */
size_t conditions_compare_warnings(struct m_report *const *reports, size_t n, FILE *out);
/* The same warnings one line each, without the prefix (html's "measured differently" list). */
size_t conditions_compare_lines(struct m_report *const *reports, size_t n, FILE *out);
/* `show`: the conditions of experiment `e` of `r`, one line (nothing for an older report). */
void conditions_show(const struct m_report *r, const struct m_experiment *e, FILE *out);
/* A short text of an experiment's conditions ("SMIs 0, 2950 MHz, boost on, SMT off, spin"). */
const char *conditions_text(const json_t *cond, char *buf, size_t cap);

#endif
