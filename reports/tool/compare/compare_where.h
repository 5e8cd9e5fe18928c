/*
 * compare --where KEY=VALUE (repeatable): only the points whose parameter KEY
 * has that value ("pages=1", "class=same_package", "targets=all other CPUs"),
 * in the experiments that have the parameter; the others are left out, as
 * pyperf's and critcmp's filters do. Every output (text, Markdown, JSON, the
 * gate) sees the filtered rows; the tidy CSV, one row per report's point,
 * keeps the points whose recorded values match (a role such as "all other
 * CPUs" is a value only compare's rows have).
 */
#ifndef TLBSCOPE_REPORT_COMPARE_WHERE_H
#define TLBSCOPE_REPORT_COMPARE_WHERE_H

#include <stdbool.h>

#include "reports/tool/compare/compare.h"

/* Is `clause` KEY=VALUE with a non-empty key and value? */
bool compare_where_valid(const char *clause);
/* Does the section have every clause's parameter (ipi_roundtrip: "class")? */
bool compare_where_applies(const struct cmp_model *m, const struct cmp_section *s);
/* Removes the section's rows (and derived-value rows) that some clause does not match. */
void compare_where_rows(const struct cmp_model *m, struct cmp_section *s);
/* Does a report's own point match every clause (the tidy CSV: its values as recorded)? */
bool compare_where_point(const struct cmp_model *m, const struct m_point *p);

#endif
