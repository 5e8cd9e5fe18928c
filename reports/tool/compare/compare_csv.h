/*
 * compare --csv: one tidy table, one row per report x experiment x point x
 * metric (and per derived value), with fixed columns whatever the number of
 * reports, every parameter in its own column, and the ratio of the p50 to
 * the baseline side's. The columns are documented in reports/SCHEMA.md
 * ("Tidy CSV"); ipi_roundtrip has a row per initiator/target pair.
 */
#ifndef TLBSCOPE_REPORT_COMPARE_CSV_H
#define TLBSCOPE_REPORT_COMPARE_CSV_H

#include <stdio.h>

#include "reports/tool/compare/compare.h"

/* The parameter columns, in order; any other parameter goes to "other_params". */
extern const char *const compare_csv_params[];

void compare_csv_print(const struct cmp_model *m, FILE *out);

/*
 * The table format's CSV (reports/tool/compare/compare_wide_csv.c): one row per
 * experiment and point, per side p50, p99, flags and the ratio to the baseline.
 */
void compare_wide_csv_print(const struct cmp_model *m, FILE *out);

#endif
