/*
 * The schedule of shootdown_contention, kept apart from the measurement so
 * that host tests check it exactly: which numbers of concurrent initiators
 * run, how the CPUs are split between them, which test pages each owns, and
 * how the rate is computed.
 */
#ifndef TLBSCOPE_CORE_EXP_CONTENTION_PLAN_H
#define TLBSCOPE_CORE_EXP_CONTENTION_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#define CONTENTION_MAX_M 24 /* values of m: 1, 2, 4 ... 2^22 and the last; enough for any machine */

/*
 * The values of m for `ncpus` usable CPUs: 1, 2, 4, ... up to the largest
 * allowed, always ending with it. Each to all others: up to every CPU.
 * Disjoint groups: up to ncpus / 2 (every group keeps at least one target).
 * Both: at most `page_limit` initiators (each owns its own pages of the test
 * region). Returns how many; 0 when not even m = 1 fits.
 */
uint32_t contention_m_series(uint32_t ncpus, bool groups, uint32_t page_limit, uint32_t *out,
                             uint32_t cap);

/*
 * Splits `n` CPUs (in topology order from the BSP) into `m` contiguous
 * groups whose sizes differ by at most one, larger ones first: group g is
 * positions [start[g], start[g + 1]); start has m + 1 entries. The first CPU
 * of each group is its initiator, so the BSP always initiates (group 0) and
 * the initiators are spread over the machine as evenly as the order allows.
 */
void contention_partition(uint32_t n, uint32_t m, uint32_t *start);

/* Initiator number k (0-based) owns test pages [k * pages, (k + 1) * pages). */
static inline uint32_t contention_first_page(uint32_t k, uint32_t pages) { return k * pages; }

/* Shootdowns per second, times 1000, for `count` shootdowns in `ticks` at `hz`; 0 if no time. */
int64_t contention_rate_milli(uint64_t count, uint64_t ticks, uint64_t hz);
/* Milliseconds, times 1000, of `ticks` at `hz`; 0 if no rate. */
int64_t contention_ms_milli(uint64_t ticks, uint64_t hz);

/*
 * The steady state (issue 32): each steady point runs CONTENTION_WINDOWS
 * windows back to back, for a spread (the median is the point's rate). A
 * window is CONTENTION_WINDOW_MS (100 ms: will-it-scale's counts are per
 * second, and a short window holds a few hundred shootdowns at most), or
 * `configured_ms` (contention_window_ms) when given; under a plan
 * (`share_ms`, the experiment's share, nonzero) shorter only where a
 * quarter of the share over the `npoints` steady points cannot hold the
 * windows at that length, never below CONTENTION_WINDOW_MIN_MS.
 */
#define CONTENTION_WINDOWS 3
#define CONTENTION_WINDOW_MS 100u
#define CONTENTION_WINDOW_MIN_MS 10u
uint32_t contention_window_ms(uint32_t configured_ms, uint64_t share_ms, uint32_t npoints);
/* The median of n rates (sorts them in place); 0 when n is 0. */
int64_t contention_median(int64_t *v, uint32_t n);

#endif
