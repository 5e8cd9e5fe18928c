/*
 * Order statistics over TSC tick samples.
 *
 * Percentiles use the nearest-rank definition: p-th percentile = the sample
 * at 1-based rank ceil(p * n / 100) of the sorted set. It always returns a
 * value that was actually measured, which matters when n is small and when
 * reports from different machines are compared.
 *
 * Which percentiles a sample count supports (issue 20): with nearest rank,
 * the p-th percentile of n samples is the maximum whenever
 * ceil(p n / 100) = n, i.e. for n < 100 / (100 - p): p99 of fewer than 100
 * samples, p90 of fewer than 10, is simply the largest sample. Such a
 * number says nothing a reader would cite as a tail, so the report writes
 * p90 only from STATS_P90_MIN_N samples and p99 only from STATS_P99_MIN_N
 * (reports/SCHEMA.md), and every view says so where it leaves one out.
 * struct stats still holds all of them: code that compares tails inside
 * the tool asks stats_has_p90()/stats_has_p99() first.
 */
#ifndef TLBSCOPE_CORE_STATS_H
#define TLBSCOPE_CORE_STATS_H

#include <stdbool.h>
#include <stdint.h>

struct stats {
    uint64_t n;
    uint64_t min, p50, p90, p99, max;
    uint64_t mean;
    /*
     * Filled by the run's stats hook (below) where one is set, else false and
     * NULL: the 95% interval of p50 (issue 31), and the samples in the order
     * they were given (keep_samples=on; storage the hook owns, for the report).
     */
    bool has_p50_ci;
    uint64_t p50_low, p50_high;
    const uint64_t *samples;
};

#define STATS_P90_MIN_N 10
#define STATS_P99_MIN_N 100
static inline bool stats_has_p90(uint64_t n) { return n >= STATS_P90_MIN_N; }
static inline bool stats_has_p99(uint64_t n) { return n >= STATS_P99_MIN_N; }

/* A sample buffer, allocated before a measurement window (no allocation inside it). */
struct sample_set {
    uint64_t *values;
    uint32_t count;
    uint32_t capacity;
};

bool samples_init(struct sample_set *s, uint32_t capacity);
void samples_release(struct sample_set *s);
static inline void samples_reset(struct sample_set *s) { s->count = 0; }
/* Drops the sample when full; the caller sized the buffer from the profile. */
static inline void samples_add(struct sample_set *s, uint64_t v)
{
    if (s->count < s->capacity)
        s->values[s->count++] = v;
}

/* Sorts `values` in place (heapsort: bounded stack, fine on a small AP stack). */
void sort_u64(uint64_t *values, uint32_t n);
/* Nearest-rank percentile of an already sorted array; per_mille in 1..1000. */
uint64_t percentile_sorted(const uint64_t *sorted, uint32_t n, uint32_t per_mille);
/* Sorts the set and fills `out`; n == 0 yields all zeros. */
void stats_compute(struct sample_set *s, struct stats *out);
void stats_from_array(uint64_t *values, uint32_t n, struct stats *out);

/*
 * What a run adds to every statistic it computes (issue 31): each metric of
 * a report carries the 95% interval of its p50, from its own samples, and
 * with keep_samples=on the samples themselves. stats_from_array() is where
 * every experiment hands over a metric's samples whole, so the run layer
 * (core/run/record_samples.c) hooks in here, rather than at each of the
 * experiments' call sites: `keep` sees the samples before the sort (it may
 * return where it copied them, or NULL), `interval` the sorted ones. Set
 * around one experiment, on the BSP, which alone records points; NULL: none.
 */
struct stats_hook {
    const uint64_t *(*keep)(void *ctx, const uint64_t *values, uint32_t n);
    bool (*interval)(void *ctx, const uint64_t *sorted, uint32_t n, uint64_t *low,
                     uint64_t *high);
    void *ctx;
};
void stats_set_hook(const struct stats_hook *hook);

#endif
