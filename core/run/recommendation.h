/*
 * One recommendation of the report's `recommendations` section and the list of
 * them (reports/SCHEMA.md), on every architecture: x86's are computed by
 * core/run/recommend.c, aarch64's by core/run/recommend_arm64.c, and
 * core/report/recommend_json.c writes either.
 */
#ifndef TLBSCOPE_CORE_RECOMMENDATION_H
#define TLBSCOPE_CORE_RECOMMENDATION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/crossover.h"
#include "core/run/record.h"

#define RECOMMEND_MAX 5
#define RECOMMEND_MAX_POINTS 192 /* flush_ceiling: 22 page counts x 2 modes x 4 curves */

/*
 * A 95% paired-bootstrap interval of what an entry's verdict rests on.
 * Bounds in the unit times 1000; a bound that is "none" (no crossing, no
 * CPU count from which INVLPGB wins) has its *_none set: past the largest
 * count measured.
 */
struct rec_interval {
    bool valid;
    const char *of;      /* "p_star", "cpus_from", "saving" */
    const char *unit;    /* "pages", "cpus", "percent" */
    unsigned decimals;   /* written with this many (0 for counts) */
    int64_t low, high;   /* x 1000 */
    bool low_none, high_none;
    uint32_t pairs;      /* the fewest paired iterations of a column */
};

/* shootdown_order, per page count at the most targets (1 page first): what conc saves there */
#define RECOMMEND_MAX_PARTS 16
struct rec_part {
    int64_t pages;
    const char *flush;          /* invlpg, or the full flush above the ceiling */
    int64_t saving_millipct;    /* (seq - conc) / seq of the medians, 1/1000 percent */
    bool has_interval;
    int64_t low, high;          /* its 95% paired-bootstrap interval, 1/1000 percent */
};

struct recommendation {
    const char *id;
    bool enough;               /* false: "not enough evidence" */
    bool has_value;
    bool has_cpus_from;        /* the entry has a `cpus_from` (invlpgb_vs_ipi) */
    int64_t cpus_from;         /* the smallest CPU count that wins; 0: none known */
    const char *cpus_from_placement; /* the placement cpus_from is read from ("nearest_first") */
    int64_t value;             /* the recommended number (pages, CPUs, percent) */
    bool has_value_high;       /* flush_ceiling: the grid leaves the value a range */
    int64_t value_high;        /* its top: value where the grid is fine around it */
    const char *unit;
    char verdict[480];         /* one sentence */
    const char *linux_default; /* NULL where Linux has none */
    const char *experiment;    /* the evidence */
    uint32_t points[RECOMMEND_MAX_POINTS]; /* indexes into that experiment's results */
    uint32_t npoints;
    enum confidence conf;
    struct rec_interval interval;
    char why[RECORD_REASON_LEN + 64 + 480]; /* what the confidence rests on, or why no
                                             * evidence (a verdict too noisy to stand included) */
    struct rec_part parts[RECOMMEND_MAX_PARTS]; /* shootdown_order's per page count */
    uint32_t nparts;
    const char *environment;   /* "hardware", "virtualised", "emulated", "simulated" */
};

struct recommendations {
    const char *environment;   /* of the run */
    uint32_t count;
    struct recommendation items[RECOMMEND_MAX];
};

/* True when an environment is not bare hardware. */
bool recommend_not_hardware(const char *environment);

#endif
