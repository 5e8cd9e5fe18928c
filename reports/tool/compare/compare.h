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

#include "reports/tool/model/group.h"
#include "reports/tool/model/model.h"
#include "reports/tool/views/table.h"

#define COMPARE_MAX_REPORTS 26 /* labelled A..Z */

struct cmp_cell {
    bool present;
    double p50, p99; /* in the model's unit (ns or ticks); the median over the side's runs */
    bool virtualised, emulated, simulated;
    size_t runs;         /* runs of the side that have the point */
    double p50_lo, p50_hi; /* lowest and highest p50 over those runs */
    double role_of; /* role rows: what the role stood for in this side (targets, CPUs); NaN */
    double ci_lo, ci_hi;   /* one run: its p50_ci95 (95% interval of the p50); NaN else */
};

/* What a non-baseline cell says against the baseline (compare_verdict). */
enum cmp_verdict { CMP_NO_RATIO, CMP_SPREAD_UNKNOWN, CMP_FASTER, CMP_SLOWER, CMP_NO_DIFFERENCE };

/*
 * Where the interval of a ratio comes from (compare_ratio_interval): both
 * sides pooled (the p50s' range over the runs), both one run (each p50's 95%
 * interval from its own samples, p50_ci95), or one of each.
 */
enum cmp_interval { CMP_IV_NONE, CMP_IV_RUNS, CMP_IV_CI95, CMP_IV_MIXED };

/* The dead band: a ratio within this fraction of 1 is no difference (--threshold, 3%). */
#define CMP_DEFAULT_THRESHOLD 0.03

/* Options that choose and order what compare shows (compare_opts). */
struct cmp_options {
    const char *const *experiments; /* only these experiment ids (nexperiments 0: all) */
    size_t nexperiments;
    bool sort_ratio;        /* rows by their largest ratio to the baseline, largest first */
    bool only_differences;  /* rows with a verdict other than "within noise" */
    double fail_if_slower;  /* percent; NaN: off */
    double threshold;       /* the dead band, a fraction (CMP_DEFAULT_THRESHOLD) */
    const char *const *where; /* KEY=VALUE clauses (compare_where.h); nwhere 0: every row */
    size_t nwhere;
    bool wide;              /* text: sides side by side even past 80 columns (--wide) */
    /* give older reports' points the parameters later ones added (param_defaults.h), so
     * that they align; the reports' points change (compare does it, html does not) */
    bool align_defaults;
    /* the side the ratios divide by (--baseline: the columns keep the operands' order) */
    size_t baseline;
};

struct cmp_row {
    const struct m_param *const *vals; /* one per section key (NULL: absent); NULL for class rows */
    const char *cls;                   /* topology class, for ipi_roundtrip */
    struct cmp_cell *cells;            /* one per side */
    bool by_role;   /* matched by role ("all other CPUs"), not by value: vals hold role params */
    bool unmatched; /* fewer than two sides have the point: listed, not shown as a row */
    bool role_covered; /* unmatched by value, but compared in a role row */
    size_t base;       /* the side its ratios divide by: its section's base */
    double band;       /* the dead band (cmp_options.threshold) its verdicts use */
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
    const struct m_param **role_vals; /* the role rows' vals (nrole_rows * keys.n), owned */
    /*
     * The side the section's ratios divide by: the baseline (opts.baseline) when it
     * measured the experiment, else the first side that did (a 1-CPU report
     * first would leave every multi-CPU ratio "-"). The views say so.
     */
    size_t base;
};

struct cmp_model {
    /*
     * One column per side: reports[i] is side i's first run, and labels it.
     * A side pools runs of one machine and configuration (all[r] with
     * side_of[r] == i); without pooling every side is one report.
     */
    struct m_report *const *reports;
    size_t nreports;
    struct m_report *const *all;
    size_t nall;
    size_t *side_of;          /* owned; nall entries */
    struct m_report **owned;  /* the reports array when the model made it */
    bool pooled;              /* some side has two runs or more */
    struct cmp_options opts;
    bool in_ns;  /* every report knows its TSC frequency */
    bool mixed;  /* hardware reports together with virtualised, emulated or simulated ones */
    bool cross_arch; /* the reports name two architectures: compare_arch.h */
    bool intervals;  /* some ratio has an interval: the tables show it and a verdict */
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
/*
 * Pooled: `all` are nall reports, side_of[r] the side (0 .. nsides-1, every
 * side non-empty) of report r; opts->baseline (0 without opts) is the
 * baseline. `opts` may be NULL.
 */
bool compare_build_pooled(struct m_report *const *all, const size_t *side_of, size_t nall,
                          size_t nsides, const struct cmp_options *opts, struct cmp_model *out);
/* Runs of side `i`: the side's reports, in input order. */
size_t compare_side_runs(const struct cmp_model *m, size_t side);
/*
 * The interval of the p50 ratio: [side's low / base's high, side's high /
 * base's low], each side's interval being the range of its p50 over its runs
 * (two runs or more) or, with one run, its p50_ci95. Dividing the ends keeps
 * it wide: it holds the ratio whenever both p50s are in their intervals.
 * CMP_IV_NONE (lo = hi = NaN) when a side has neither: the spread is unknown.
 */
enum cmp_interval compare_ratio_interval(const struct cmp_row *row, size_t side, double *lo,
                                         double *hi);
/* compare_ratio_interval is not CMP_IV_NONE. */
bool compare_ratio_range(const struct cmp_row *row, size_t side, double *lo, double *hi);
/* "range over the runs", "from the 95% intervals of the p50s", ...: what an interval is. */
const char *compare_interval_text(enum cmp_interval k);
/*
 * Slower or faster when the interval lies on one side of 1 and the ratio is
 * beyond the dead band (row->band); else no difference; spread unknown
 * without an interval.
 */
enum cmp_verdict compare_verdict(const struct cmp_row *row, size_t side);
const char *compare_verdict_text(enum cmp_verdict v);
/* Is the row a difference worth showing under --only-differences? */
bool compare_row_differs(const struct cmp_model *m, const struct cmp_row *row);
/* The largest finite ratio of the row (NaN when none), for --sort ratio. */
double compare_row_max_ratio(const struct cmp_model *m, const struct cmp_row *row);
/*
 * Points slower than the baseline by more than `pct` percent beyond noise
 * (the low end of the range when known, else the ratio); each one is
 * written to `err` when not NULL. Returns how many.
 */
size_t compare_slower_points(const struct cmp_model *m, double pct, FILE *err);
void compare_free(struct cmp_model *m);
/* "M1" for the report's machine, "-" when it records no identifier. */
const char *compare_machine_label(const struct cmp_model *m, size_t report, char *buf, size_t cap);
/*
 * "A, C" for the group of reports of `report`'s machine, when it has two or
 * more and `report` is its first; else "" (one line per machine that repeats).
 */
const char *compare_same_machine(const struct cmp_model *m, size_t report, char *buf, size_t cap);

/*
 * Pairs that share an experiment and no point: for each section, each side
 * that measured it and has no ratio to the section's base, written to `err`
 * (when not NULL) with the parameter whose values the two never share
 * ("target 1 vs 2"), as an error when `fatal` (--strict or a gate: exit 4),
 * else as a warning. Returns how many.
 */
size_t compare_disjoint_pairs(const struct cmp_model *m, FILE *err, bool fatal);
/* Ratios the comparison has (rows x sides): 0 when nothing was compared, which no gate passes. */
size_t compare_points_compared(const struct cmp_model *m);
/* Parameters a report lacked and compare gave their default (param_defaults.h), as notes. */
void compare_defaulted_lines(const struct cmp_model *m, const struct cmp_section *s, FILE *out,
                             const char *prefix, int width);

/* Ratio of a cell's p50 to its section base's, NaN when either is absent. */
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
/* The rows to show, in order, into idx (s->nrows entries): unmatched ones left out, --only-differences and --sort ratio applied. */
size_t compare_row_order(const struct cmp_model *m, const struct cmp_section *s, size_t *idx);

struct cmp_summary {
    size_t n;                      /* rows with a ratio */
    double geomean, lo, hi;        /* lo/hi: NaN unless every row has an interval */
    bool all_ranged;
    enum cmp_interval kind;        /* of the rows' intervals (MIXED when they differ) */
    size_t faster, slower, noise;  /* verdicts (noise: no difference) */
};
/* The geometric mean of side's p50 ratios over the section's compared rows. False when none. */
bool compare_summary(const struct cmp_model *m, const struct cmp_section *s, size_t side,
                     struct cmp_summary *out);
/*
 * A derived value as one format per kind, so a column reads evenly: ratios
 * and fractions with three decimals ("1.000", "0.997"), counts as integers.
 */
const char *compare_derived_text(const char *key, double v, char *buf, size_t cap);
/* One section as a table: parameter columns, then per report p50, p99 and the ratio to A. */
struct table *compare_section_table(const struct cmp_model *m, const struct cmp_section *s);
/*
 * The same, or narrower when it is wider than `width` and --wide was not
 * given: without p99, else the long layout (one row per point and side, its
 * ratio to the base).
 */
/* LONG_CONSTANT: the long layout, p50 only, without the parameters every row shares;
 * BY_POINT: the rest of the parameters on a line above each point's rows (no value is cut) */
enum cmp_layout { CMP_LAYOUT_WIDE, CMP_LAYOUT_P50, CMP_LAYOUT_LONG, CMP_LAYOUT_LONG_P50,
                  CMP_LAYOUT_LONG_CONSTANT, CMP_LAYOUT_BY_POINT };
struct table *compare_section_table_fit(const struct cmp_model *m, const struct cmp_section *s,
                                        size_t width, enum cmp_layout *layout);
/* "cpus=4, placement=linux": the parameters every row of the section shares; their count. */
size_t compare_constant_params(const struct cmp_section *s, char *buf, size_t cap);
/* Does the row's ratio for `side` count in the summary (a role row repeating a value row does not)? */
bool compare_row_counts(const struct cmp_row *row, size_t side);
/* Does side i have a measured cell in some row of the section? */
bool compare_side_measured(const struct cmp_section *s, size_t i);
/* "+12%" or "-8%" for a ratio (its distance from 1); "" when not finite. */
const char *compare_percent_text(double ratio, char *buf, size_t cap);
/* "B is 1.31x slower than A over 42 points, [1.22, 1.40]": false when no row has a ratio. */
bool compare_headline(const struct cmp_model *m, const struct cmp_section *s, size_t side,
                      char *buf, size_t cap);
/* Its summary values as a table (NULL when it has none): parameters, value name, per report. */
struct table *compare_values_table(const struct cmp_model *m, const struct cmp_section *s);

#endif
