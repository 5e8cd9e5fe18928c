/*
 * The rows of one section, for reports/tool/compare/compare.c
 * (reports/tool/compare/compare_rows.c).
 */
#ifndef TLBSCOPE_REPORT_COMPARE_ROWS_H
#define TLBSCOPE_REPORT_COMPARE_ROWS_H

#include <stdbool.h>

#include "reports/tool/compare/compare.h"

/* ipi_roundtrip's rows: one per topology class the sides measured. */
bool compare_build_class_rows(const struct cmp_model *m, struct cmp_section *s);
/* Every other experiment's rows: points aligned by parameter value, then by role. */
bool compare_build_point_rows(const struct cmp_model *m, struct cmp_section *s);
/* The derived values' rows (summary points, result points' values). */
bool compare_build_value_rows(const struct cmp_model *m, struct cmp_section *s);

#endif
