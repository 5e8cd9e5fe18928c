/*
 * Machine-readable output (reports/SCHEMA.md, "compare --json and show
 * --json"): `compare --json` writes every compared row, the headlines and
 * the verdict; `show --json` the summary of one report. Both are one JSON
 * object on standard output, with times in ns where every report knows its
 * TSC rate and in TSC ticks otherwise (the "unit" member says which), ticks
 * kept beside each ns value.
 */
#ifndef TLBSCOPE_REPORT_REPORT_JSON_H
#define TLBSCOPE_REPORT_REPORT_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "reports/tool/compare/compare.h"
#include "reports/tool/model/model.h"

/* Bumped when a member changes meaning or goes away (members may be added). */
#define REPORT_JSON_FORMAT_VERSION 1
/* compare --json's: 2 since a verdict "within noise" became "no difference" (issue 31), with
 * the dead band, from p50_ci95 with one run per side; sides named, not lettered */
#define REPORT_JSON_COMPARE_FORMAT_VERSION 2

/*
 * The comparison, with the verdict the exit status gives: `disjoint` pairs
 * with nothing in common, `slower` points beyond --fail-if-slower (-1: not
 * asked), `exit_status`. NULL when out of memory.
 */
json_t *report_json_compare(const struct cmp_model *m, size_t disjoint, long long slower,
                            int exit_status);
/* The summary of one report. NULL when out of memory. */
json_t *report_json_show(const struct m_report *r);

#endif
