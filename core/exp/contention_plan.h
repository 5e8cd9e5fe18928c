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
 * Each of m initiators takes ceil(S / m) of the point's S samples, at least
 * 2: a point costs about the same number of shootdowns whatever m is (with
 * all initiators sending to every CPU, the work of a point would otherwise
 * grow as m x N).
 */
uint32_t contention_per_initiator(uint32_t samples, uint32_t m);
/*
 * Shootdowns a point of m initiators runs in its rounds, warm-up included:
 * the time box's unit of cost (each goes to every other CPU in "all" mode;
 * fewer in groups, so this is an upper bound there).
 */
uint64_t contention_point_shootdowns(uint32_t samples, uint32_t warmup, uint32_t m);

/*
 * Time box (planned runs: every profile, not with run_budget_s=0): the work
 * of a point's rounds grows with m (m x N interrupts at least, since each
 * initiator runs 2 rounds or more), so under an emulator the points with
 * many initiators on a big machine can take minutes, while on hardware they
 * take a fraction of a second. Each column (mode, method, pages) gets an
 * equal part of what is left of the experiment's share; m is measured in
 * ascending order, and a point whose cost, estimated from the point before
 * it (its rounds scaled by their shootdowns, its steady windows as they
 * were) would overrun the column's part is not measured, nor any larger m:
 * the note says where each column stopped.
 */
struct contention_box {
    uint64_t share, start; /* ticks; share 0: no time box */
    uint32_t columns_left;
};
/*
 * At `now`, whether the next point (`shots` shootdowns) of the column begun
 * at `column_start` fits, from the last point's ticks (`last_ticks`, of them
 * `last_steady` in its steady windows) for `last_shots`. The caller measures
 * a column's first m whatever this says.
 */
bool contention_box_allows(const struct contention_box *b, uint64_t now, uint64_t column_start,
                           uint64_t last_ticks, uint64_t last_steady, uint64_t last_shots,
                           uint64_t shots);

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
