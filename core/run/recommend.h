/*
 * What a run suggests for the kernel's tunables, each backed by the points
 * it came from: the `recommendations` section of the report
 * (reports/SCHEMA.md) and the "What this machine suggests" block of the
 * text summary. Pure: reads the run's records, writes nothing else;
 * host-tested (tests/host/test_crossover.c).
 *
 *   flush_ceiling   p* of flush_ceiling (full_cr3 as Linux does it) for the
 *                   working set nearest RECOMMEND_TYPICAL_WS, contiguous,
 *                   locally and for each shootdown's target count (its
 *                   work summed over CPUs: initiator and targets, flush
 *                   and refill), each with p*'s interval; the ceiling is
 *                   the smallest over the confident curves of the largest
 *                   count measured below p* (where INVLPG still won), and
 *                   where the grid measured nothing between that count and
 *                   p* a range up to p* - 1 (core/run/recommend_ceiling.c),
 *                   with the interval of the curve that sets it, against
 *                   Linux's 33; a curve with fewer than 3 page counts is
 *                   named not measured;
 *   invlpgb_vs_ipi  on the most CPUs, which page counts INVLPGB+TLBSYNC
 *                   (Linux's path: one whole-PCID INVLPGB above the
 *                   ceiling) beats the IPI shootdown at, which it loses
 *                   at, and where the two do not differ measurably; its
 *                   value the largest page count of the run of wins that
 *                   starts at the smallest win; and the smallest CPU
 *                   count from which it wins at one page, with that
 *                   count's interval (core/run/recommend_invlpgb.c);
 *   shootdown_order what the concurrent order saves at the most targets,
 *                   with its interval, "no difference" when the interval
 *                   contains zero, and per page count there, 1 page first
 *                   (the sum is mostly 512 pages' cost) (core/run/recommend_order.c);
 *   lazy_skip       what skipping k lazy CPUs saves, and their catch-up;
 *   pti_user_flush  immediate (INVPCID) vs deferred user-PCID flush per page.
 * Values are the report's medians, so anyone can recompute them from the
 * cited points. Intervals are 95% paired-bootstrap intervals from the
 * samples the experiments kept (core/run/bootstrap.h: the pairs are the
 * variants' samples of one iteration), and every entry's confidence
 * follows from its interval by the mapping written there. No evidence, a
 * failed verification or spread that hides the difference (confidence
 * low): "not enough evidence" and why. A virtualised, emulated or simulated run
 * labels every entry so: it does not describe hardware.
 */
#ifndef TLBSCOPE_CORE_RECOMMEND_H
#define TLBSCOPE_CORE_RECOMMEND_H

#include "core/run/crossover.h"
#include "core/run/run.h"

#define RECOMMEND_TYPICAL_WS 512 /* pages: 2 MiB, one page table's worth */
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

void recommend_compute(const struct run *r, struct recommendations *out);
/* True when an environment is not bare hardware. */
bool recommend_not_hardware(const char *environment);

#endif
