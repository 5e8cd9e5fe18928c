/*
 * The closing summary of a comparison (issue 31, item 3): one row per
 * experiment, one column per side against the base, each cell the geometric
 * mean of the p50 ratios and its verdict, as critcmp and `pyperf compare_to
 * --table` close theirs. A verdict needs an interval (compare.h): slower or
 * faster when the geometric means of the intervals' ends lie on one side of 1
 * and the mean is past the dead band, else no difference; spread unknown
 * where a row has no interval.
 */
#ifndef TLBSCOPE_REPORT_COMPARE_SUMMARY_H
#define TLBSCOPE_REPORT_COMPARE_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/compare/compare.h"

/* The experiment's verdict for a side from its summary (compare_summary). */
enum cmp_verdict compare_summary_verdict(const struct cmp_model *m, const struct cmp_summary *s);
/* The table, titled; nothing when no experiment has a ratio. */
void compare_summary_print(const struct cmp_model *m, FILE *out, bool markdown);

#endif
