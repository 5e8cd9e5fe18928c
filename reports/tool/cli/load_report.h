/* Loading one report for a view (reports/tool/cli/load_report.c). */
#ifndef TLBSCOPE_REPORT_CLI_LOAD_REPORT_H
#define TLBSCOPE_REPORT_CLI_LOAD_REPORT_H

#include <stdio.h>

#include "reports/tool/model/model.h"

/*
 * Loads, validates and models one report, as show/compare/html do: NULL
 * (with the reason on `err`) when it is not a readable tlbscope report of a
 * known version or it fails validation (the first problem named: exit
 * status 1, as show's, compare's and html's help say).
 */
struct m_report *commands_load_report(const char *path, FILE *err);

#endif
