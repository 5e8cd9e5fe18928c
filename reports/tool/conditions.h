/*
 * How each report was measured, side by side: the machine and method rows
 * compare (text, Markdown) and html open with, and which of them differ.
 *
 * Every report field these rows read is looked up here, in one table
 * (conditions.c), and read defensively: a field a report lacks shows as "-".
 * Fields other versions add (planned/achieved samples, per-experiment
 * "conditions") are read when present.
 */
#ifndef TLBSCOPE_REPORT_CONDITIONS_H
#define TLBSCOPE_REPORT_CONDITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/tool/model.h"
#include "reports/tool/table.h"

#define COND_VALUE_MAX 96

struct cond_row {
    const char *name;     /* "samples", "APIC mode", ... */
    char name_buf[64];    /* holds `name` for the per-experiment conditions */
    bool changes_numbers; /* a difference here changes the timings: warned */
    bool differs;         /* not the same in every report */
    char (*values)[COND_VALUE_MAX]; /* one per report; "-" when absent */
};

struct cond_table {
    struct cond_row *rows;
    size_t n;
};

/* The rows for `reports` (the first run of each side). False when out of memory. */
bool conditions_build(struct m_report *const *reports, size_t n, struct cond_table *out);
void conditions_free(struct cond_table *t);
/* A table: condition, one column per report, then "differs" ("yes", "yes: numbers"). */
struct table *conditions_table(const struct cond_table *t, struct m_report *const *reports,
                               size_t n);
/* One warning per difference that changes numbers, wrapped at `width`; how many. */
size_t conditions_warnings(const struct cond_table *t, struct m_report *const *reports, size_t n,
                           FILE *out, const char *prefix, const char *cont, size_t width);

#endif
