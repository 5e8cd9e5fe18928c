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

#include "reports/tool/model/model.h"
#include "reports/tool/views/table.h"

/* a value whole: the longest a report holds (a PCID reason, a CPU brand) is about 220 */
#define COND_VALUE_MAX 512

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
/* One warning per difference that changes numbers and every report records, wrapped at
 * `width`; how many. */
size_t conditions_warnings(const struct cond_table *t, struct m_report *const *reports, size_t n,
                           FILE *out, const char *prefix, const char *cont, size_t width);

/*
 * The text view in `width` columns: the conditions that are the same in
 * every report on one wrapped line, then those that differ as a table with
 * cells clipped to fit, or one line each when the reports are too many.
 */
void conditions_print_fit(const struct cond_table *c, struct m_report *const *reports, size_t n,
                          FILE *out, size_t width);
/* The same differences one line each, "samples: A 1000, B 100" (html's list); how many. */
size_t conditions_difference_lines(const struct cond_table *c, struct m_report *const *reports,
                                   size_t n, FILE *out);
/* Every report records the row's field (no "-"): only then is a difference a real one. */
bool conditions_row_everywhere(const struct cond_row *row, size_t n);
/* "not recorded by every report ...: a, b" into buf; how many rows it names (0: none). */
size_t conditions_unrecorded_line(const struct cond_table *c, size_t n, char *buf, size_t cap);

#endif
