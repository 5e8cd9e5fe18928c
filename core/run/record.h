/*
 * What an experiment leaves behind: parameter points with statistics, a
 * verification count, and a status with its reason. Written into the report
 * by core/report/report.c and read back by the host tool (reports/SCHEMA.md).
 *
 * Points are reserved before a measurement window opens: UEFI forbids pool
 * allocation at TPL_HIGH_LEVEL, where the measurements run.
 */
#ifndef TLBSCOPE_CORE_RECORD_H
#define TLBSCOPE_CORE_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/plan.h"
#include "core/run/conditions.h"
#include "core/run/result.h"
#include "core/lib/stats.h"
#include "core/machine/cpu_table.h"

#define POINT_MAX_PARAMS 8 /* shootdown_contention has 6, and issue 21 adds placement */
#define POINT_MAX_METRICS 5
#define POINT_MAX_VALUES 10
#define RECORD_MAX_STALE 8
#define RECORD_MAX_NOTES 12
#define RECORD_NOTE_LEN 480 /* the longest: ipi_target_state's C-state table, 130 + 16 a hint */
#define RECORD_REASON_LEN 320

struct point_param {
    const char *key;
    const char *str; /* string value when non-NULL, else num */
    int64_t num;
};

struct point_metric {
    const char *name;
    struct stats st;
};

struct point_value {
    const char *key;
    int64_t milli; /* value * 1000 (ratios) */
};

struct result_point {
    uint8_t nparams, nmetrics, nvalues;
    struct point_param params[POINT_MAX_PARAMS];
    struct point_metric metrics[POINT_MAX_METRICS];
    struct point_value values[POINT_MAX_VALUES];
    /*
     * Where this point's targets sat, seen from its initiator: how many
     * of each topology class (enum topo_class; the report's `class_mix`,
     * written when has_class_mix). Issue 32: a placement's name alone
     * does not say what spread or a nearest-first count held.
     */
    bool has_class_mix;
    uint16_t class_mix[TOPO_CLASS_COUNT];
    /*
     * The samples of the metric the comparisons on this point rest on
     * (core/run/bootstrap.h), in iteration order, or NULL: the primary
     * metric's, but flush_ceiling's shootdown points keep `with_refill`'s,
     * the curve their crossover is found on. Points with the same nonzero
     * paired_run were measured in the same iterations, one sample each:
     * kept[i] of one and of the other are a pair. Only in memory: the
     * report does not hold them.
     */
    const uint64_t *kept;
    uint32_t nkept;
    uint32_t paired_run;
};

/*
 * Room for the kept samples of a record, reserved before its measurement
 * window like the points. At most RECORD_KEEP_MAX samples a point: a point
 * of more keeps evenly spaced iterations (still pairs, the same ones on
 * each side).
 */
#define RECORD_KEEP_MAX 4096
struct sample_pool {
    uint64_t *values;
    uint64_t used, capacity;
    uint32_t runs; /* paired runs handed out */
};

struct stale_read {
    uint32_t cpu;
    uint64_t va;
    uint64_t expected, seen;
};

struct verification {
    bool applicable; /* false: the experiment does not remap pages */
    uint64_t checks;
    uint64_t pilot_checks; /* of `checks`, those a planning pilot made (core/run/runner_plan.c) */
    uint64_t stale_reads;
    uint32_t recorded;
    struct stale_read first[RECORD_MAX_STALE];
};

struct point_list {
    struct result_point *items;
    uint32_t count, capacity;
};

struct experiment_record {
    const char *id;
    const char *title;
    const char *x_axis;  /* param that charts put on the x axis */
    const char *series;  /* param that separates chart series (may be NULL) */
    enum result status;
    char reason[RECORD_REASON_LEN];
    bool emulated;
    bool ran;
    bool partial; /* some points are missing (a CPU dropped out, budget ran out) */
    uint64_t duration_ms;
    struct verification verification;
    struct point_list results;
    struct point_list summary;
    struct sample_pool kept;  /* the points' kept samples (struct result_point) */
    /* keep_samples=on: every metric's samples (core/run/record_samples.h), and how many
     * metrics' did not fit */
    struct sample_pool metric_samples;
    uint32_t samples_not_kept;
    struct plan_summary plan; /* what run_budget_s let it measure (core/run/plan.h) */
    uint32_t nnotes;
    char notes[RECORD_MAX_NOTES][RECORD_NOTE_LEN];
    uint32_t strings_cut; /* notes and reasons longer than their room: cut (a bug; run.warnings) */
    struct exp_conditions conditions;      /* core/run/conditions.h */
    struct cond_cpu_sample *cond_samples;  /* per-CPU readings before, then after */
};

bool point_list_reserve(struct point_list *l, uint32_t capacity);
void point_list_release(struct point_list *l);
/* Returns a zeroed point, or NULL when the reservation is exhausted. */
struct result_point *point_list_add(struct point_list *l);

void point_param_num(struct result_point *p, const char *key, int64_t v);
void point_param_str(struct result_point *p, const char *key, const char *v);
void point_metric(struct result_point *p, const char *name, const struct stats *st);
void point_value(struct result_point *p, const char *key, int64_t milli);
const struct point_param *point_find_param(const struct result_point *p, const char *key);
/* The point's metric `name`, or NULL. */
const struct stats *point_find_metric(const struct result_point *p, const char *name);
/* The point's value `key` (x 1000) into *milli; false when it has none. */
bool point_find_value(const struct result_point *p, const char *key, int64_t *milli);
/* The class mix of the point's targets `cpus` (n of them) seen from `initiator` (placement_count). */
void point_class_mix(struct result_point *p, const struct cpu_table *t, uint32_t initiator,
                     const uint32_t *cpus, uint32_t n);

/* Reserves room for `points` points of at most `samples` kept samples each; false: no memory
 * (the points then keep nothing, and the comparisons on them say so). */
bool record_reserve_kept(struct experiment_record *r, uint32_t points, uint32_t samples);
/* A new paired-run id: the points measured in one interleaved loop share it. */
uint32_t record_paired_run(struct experiment_record *r);
/* Copies `values` (iteration order, before any sort) into the pool for point p. */
void point_keep_samples(struct experiment_record *r, struct result_point *p, const uint64_t *values,
                        uint32_t n, uint32_t paired_run);
/* True when a and b hold kept samples of one paired run (same count). */
bool points_paired(const struct result_point *a, const struct result_point *b);

void record_set_status(struct experiment_record *r, enum result status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Raises the status to at least `status`; the reason of the most severe one stays. */
void record_escalate(struct experiment_record *r, enum result status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void record_note(struct experiment_record *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void record_stale(struct experiment_record *r, uint32_t cpu, uint64_t va, uint64_t expected,
                  uint64_t seen);

#endif
