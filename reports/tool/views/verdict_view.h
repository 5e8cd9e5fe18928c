/*
 * The run's verdict (core/run/verdict.h) read back from a report: the counts from
 * its experiments, CPUs and errors, so `show` prints the same last line as the
 * app, also for reports written before the app wrote a "verdict" object, and
 * `validate` can check the one a report carries.
 */
#ifndef TLBSCOPE_REPORT_VERDICT_VIEW_H
#define TLBSCOPE_REPORT_VERDICT_VIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/run/verdict.h"

/* From the report's JSON; false when its "result" is not one of the four words. */
bool verdict_of_report(const json_t *root, struct verdict *v);
/* The summary's last lines: how the run ended, then the verdict (80 columns). */
void verdict_view_show(const json_t *root, FILE *out);

#endif
