/*
 * Paired bootstrap intervals for what a run compares (issue 20).
 *
 * Samples of two variants taken in the same iteration are a pair (the
 * experiments interleave their variants, core/exp/common.h, and keep the
 * samples of the points a comparison rests on, core/run/record.h). A replicate
 * resamples the iterations with replacement, the same iterations on both
 * sides, and recomputes the medians of each side: what the pairing shares
 * (drift over the run, a cache both variants found warm) stays paired, so
 * it does not widen the interval, and a difference that every pair shows
 * is not drowned by spread that both sides have.
 *
 * A question is a list of columns (a page count, a CPU count: one pair of
 * sample lists each, resampled independently) and a statistic of their
 * medians: a sum of differences, a crossover. Its interval is the 2.5th to
 * 97.5th percentile of BOOT_REPLICATES replicates (a 95% percentile
 * interval); the estimate is the statistic of the full samples, so it is
 * the number the report's medians give. The generator is seeded from the
 * run's order seed (method.order_seed) and a stream per question: a report
 * is reproducible from its seed.
 *
 * What a difference's interval says, and the confidence it maps to (the
 * recommendations, core/run/recommend.h):
 *   the interval excludes zero, and the bound nearest zero is at least half
 *   the estimate: a difference, confidence high;
 *   it excludes zero otherwise: a difference, medium;
 *   it contains zero: no difference. Medium when the whole interval lies
 *   within the caller's equivalence margin (the two are the same to within
 *   it), else low: too noisy to say anything.
 * A crossover over measured counts (p*, a CPU count) from the measured
 * counts its interval spans, "none" (no crossing in a replicate) counting
 * as one more past the largest: one, high; two or three, medium; more, low.
 *
 * No allocation inside: the caller hands in a struct boot_work (the
 * experiments size it before their measurement window). Integer only.
 */
#ifndef TLBSCOPE_CORE_BOOTSTRAP_H
#define TLBSCOPE_CORE_BOOTSTRAP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/crossover.h"

#define BOOT_REPLICATES 1000
#define BOOT_LEVEL_PERCENT 95
#define BOOT_MAX_COLUMNS 64
/* a statistic's value for "none" (no crossing, no CPU count): above every measured one */
#define BOOT_NONE INT64_MAX

/* One column: a[i] and b[i] were measured in the same iteration. */
struct paired {
    const uint64_t *a, *b;
    uint32_t n;
};

/* Workspace: replicate values and one column's resample. */
struct boot_work {
    int64_t *reps;      /* BOOT_REPLICATES */
    uint64_t *a, *b;    /* cap each */
    uint32_t cap;
};
bool boot_work_init(struct boot_work *w, uint32_t max_samples);
void boot_work_release(struct boot_work *w);

/* Nearest-rank median (core/lib/stats.h) by selection, in O(n); reorders v. */
uint64_t median_select(uint64_t *v, uint32_t n);

/* A statistic of the columns' medians (med_a[c], med_b[c] for c < n). */
typedef int64_t (*boot_stat_fn)(const void *ctx, const uint64_t *med_a, const uint64_t *med_b,
                                uint32_t n);

struct boot_result {
    bool valid;         /* false: a column without samples, or no workspace */
    int64_t estimate;   /* the statistic of the full samples */
    int64_t low, high;  /* the 95% percentile interval; BOOT_NONE where it is none */
    uint32_t replicates;
    uint32_t pairs;     /* the fewest pairs of a column */
};

/*
 * The interval of stat over ncols columns (at most BOOT_MAX_COLUMNS, each
 * at most w->cap pairs). `stream` tells the questions of one run apart.
 */
bool boot_columns(struct boot_work *w, const struct paired *cols, uint32_t ncols,
                  boot_stat_fn stat, const void *ctx, uint64_t seed, uint64_t stream,
                  struct boot_result *out);

/* Difference statistics, for boot_columns (ctx unused) */
/* sum over columns of median(b) - median(a): what b costs more (ticks) */
int64_t boot_stat_sum_diff(const void *ctx, const uint64_t *med_a, const uint64_t *med_b,
                           uint32_t n);
/* (sum median(a) - sum median(b)) / sum median(a), in 1/1000 percent: what b saves */
int64_t boot_stat_saving_millipct(const void *ctx, const uint64_t *med_a, const uint64_t *med_b,
                                  uint32_t n);

/*
 * A crossing over ascending counts (ctx: the int64_t counts of the columns):
 * the smallest count from which b's median stays below a's at every larger
 * count; BOOT_NONE when b is not below a at the largest. flush_ceiling's p*
 * (a INVLPG, b the full flush) and the CPU count from which INVLPGB wins
 * (a the IPIs, b INVLPGB).
 */
int64_t boot_stat_crossing(const void *ctx, const uint64_t *med_a, const uint64_t *med_b,
                           uint32_t n);

/*
 * A point's own interval (issue 31): the 95% percentile interval of the
 * median of one list of samples (a metric's p50), from BOOT_REPLICATES
 * resamples of the list alone, with the same ranks as above. `sorted` is
 * ascending; reps has room for BOOT_REPLICATES values. The generator is
 * seeded with `seed` (the run's method.order_seed) and, as its stream, the
 * samples themselves (boot_samples_stream()): the interval is a function of
 * the seed and the samples, so anyone holding both (keep_samples=on) gets
 * it again (reports/SCHEMA.md, "p50_ci95"). False, and nothing set, below
 * BOOT_MEDIAN_MIN_N samples: no two of fewer than 6 samples enclose the
 * median with 95% confidence (the smallest and the largest of n miss it
 * with chance 2 / 2^n, 6.25% at n = 5, 3.1% at n = 6), so a bootstrap
 * interval of so few would claim a confidence they cannot give.
 */
#define BOOT_MEDIAN_MIN_N 6
bool boot_median(int64_t *reps, const uint64_t *sorted, uint32_t n, uint64_t seed,
                 uint64_t *low, uint64_t *high);
/*
 * The run's order seed (method.order_seed) from `entropy`, the clock at start (or the
 * model's seed): one splitmix64 step, which spreads its bits, cut to 32 bits so that
 * order_seed= can give it back.
 */
uint32_t boot_seed_from(uint64_t entropy);
/* A sample list's stream: FNV-1a (64 bits) over its values' bytes, ascending, little-endian. */
uint64_t boot_samples_stream(const uint64_t *sorted, uint32_t n);

/* A difference's interval: no difference when it contains zero. */
bool boot_no_difference(const struct boot_result *r);
/* The confidence of a difference (the mapping above); equivalence: the margin, >= 0. */
enum confidence boot_difference_confidence(const struct boot_result *r, int64_t equivalence);
/* The confidence of a crossover over measured counts grid[0..n) (ascending). */
enum confidence boot_grid_confidence(const struct boot_result *r, const int64_t *grid, uint32_t n);

#endif
