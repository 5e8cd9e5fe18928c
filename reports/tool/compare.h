/*
 * `compare`: reports side by side, per experiment and parameter point, with
 * p50 and p99 of the primary metric (latency) for each report and the ratio
 * of each p50 to the first report's.
 *
 * Points are aligned by their parameter values; a point that only some
 * reports have gets a row all the same, with "-" for the others, so a
 * difference in shape (2 CPUs vs 4) is visible, never silently dropped.
 * ipi_roundtrip is compared by topology class (its summary points, or the
 * median over pairs where a report has no summary).
 *
 * Timings from a hypervisor, from emulated instructions or from tlbscope-sim's
 * model are marked in every cell they fill, so they are never read as
 * hardware numbers. Simulated reports are compared only with each other: the
 * commands refuse a mix (compare_mixes_simulated), the model does not.
 */
#ifndef TLBSCOPE_REPORT_COMPARE_H
#define TLBSCOPE_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/group.h"
#include "reports/tool/model.h"
#include "reports/tool/table.h"

#define COMPARE_MAX_REPORTS 26 /* labelled A..Z */

struct cmp_cell {
    bool present;
    double p50, p99; /* in the model's unit (ns or ticks) */
    bool virtualised, emulated, simulated;
};

struct cmp_row {
    const struct m_param *const *vals; /* one per section key (NULL: absent); NULL for class rows */
    const char *cls;                   /* topology class, for ipi_roundtrip */
    struct cmp_cell *cells;            /* one per report */
};

/* A derived number from the summary points (conc_over_seq_p50, stale_fraction, ...). */
struct cmp_value_row {
    const struct m_param *const *vals; /* one per section vkeys */
    const char *key;                   /* the value's name */
    double *v;                         /* one per report, NaN where absent */
};

struct cmp_section {
    const char *id, *title;
    bool by_class;
    struct group_keys keys;      /* the parameter columns */
    struct group_tuples tuples;  /* owns the rows' vals */
    const struct m_experiment **exp; /* per report; NULL where the report lacks it */
    struct cmp_row *rows;
    size_t nrows;
    struct group_keys vkeys;     /* parameters of the summary points with values */
    struct group_tuples vtuples;
    struct cmp_value_row *vrows;
    size_t nvrows;
};

struct cmp_model {
    struct m_report *const *reports;
    size_t nreports;
    bool in_ns;  /* every report knows its TSC frequency */
    bool mixed;  /* hardware reports together with virtualised, emulated or simulated ones */
    /*
     * Which reports come from one machine: machine[i] is 1, 2, ... in order of
     * first appearance, the same for reports whose identifying fields hold the
     * same values or the same redaction tokens (m_report.machine_key), 0 when
     * a report records none. The values themselves are never printed.
     */
    int *machine;
    bool machine_repeats; /* some machine has two reports or more */
    struct cmp_section *sections;
    size_t nsections;
};

/* Reports must outlive the model. False when out of memory (the model is then empty). */
bool compare_build(struct m_report *const *reports, size_t n, struct cmp_model *out);
void compare_free(struct cmp_model *m);
/* "M1" for the report's machine, "-" when it records no identifier. */
const char *compare_machine_label(const struct cmp_model *m, size_t report, char *buf, size_t cap);
/*
 * "A, C" for the group of reports of `report`'s machine, when it has two or
 * more and `report` is its first; else "" (one line per machine that repeats).
 */
const char *compare_same_machine(const struct cmp_model *m, size_t report, char *buf, size_t cap);

/* Ratio of a cell's p50 to the first report's, NaN when either is absent. */
double compare_ratio(const struct cmp_row *row, size_t report);
/* "virtualised", "emulated", "simulated", joined by '+' when several, or "". */
const char *compare_flags(const struct cmp_cell *c);
/* A report that is neither virtualised, emulated nor simulated. */
bool compare_is_hardware(const struct m_report *r);
/*
 * Simulated reports together with non-simulated ones. The model's timings
 * are not any machine's, so no ratio between the two means anything: the
 * commands refuse such a set instead of flagging it.
 */
bool compare_mixes_simulated(struct m_report *const *reports, size_t n);

void compare_print(const struct cmp_model *m, FILE *out, enum table_format fmt);
/* One section as a table: parameter columns, then per report p50, p99 and the ratio to A. */
struct table *compare_section_table(const struct cmp_model *m, const struct cmp_section *s);
/* Its summary values as a table (NULL when it has none): parameters, value name, per report. */
struct table *compare_values_table(const struct cmp_model *m, const struct cmp_section *s);

#endif
