/*
 * Where two cost curves cross: the page count p* from which a full flush
 * (curve b) is cheaper than p single-page invalidations (curve a), and how
 * sure the measurement is of it. Pure: host-tested on synthetic curves
 * (tests/host/test_crossover.c), used by flush_ceiling for its summary and
 * by core/run/recommend.c for the flush_ceiling recommendation.
 *
 * p* is the smallest measured p such that b's median is below a's at p and
 * at every larger measured p ("from which the full flush is cheaper"); an
 * earlier crossing that the curves undo makes the data non-monotonic. The
 * noise band is the run of measured p around the crossing (p* and the count
 * before it) where the two curves' p25-p75 intervals overlap: a description
 * of the spread, not a test.
 *
 * The interval of p* (issue 20): the two points of a page count were
 * measured in the same iterations (their kept samples are pairs), so a
 * paired bootstrap (core/run/bootstrap.h) resamples the iterations of every
 * page count and finds p* again in each replicate; the 2.5th to 97.5th
 * percentile of those is p*'s 95% interval, a replicate without a
 * crossing counting as "none", past the largest count.
 *
 * Confidence: none with fewer than 3 page counts, or without the samples
 * (no interval); low when the data cross more than once; otherwise from
 * the interval's relative width (issue 32), the grid's coarseness
 * included: the crossing lies after the count measured before the
 * interval's low end and at or before its high end, and that range's high
 * end over its low end is at most 1.5 (high), at most 2 (medium), or more
 * (low). So [28, 36] on flush_ceiling's grid (25 to 36: 1.44) is high,
 * [128, 384] (97 to 384: 3.96) low, and p* = 33 on a grid of 1, 33 and
 * 512 (2 to 33) low; an interval open above the largest count is low,
 * "none" at both ends (the full flush never cheaper) high. Counting the
 * measured counts inside the interval instead (boot_grid_confidence())
 * punished the dense grid around 33 and rewarded a coarse one.
 */
#ifndef TLBSCOPE_CORE_CROSSOVER_H
#define TLBSCOPE_CORE_CROSSOVER_H

#include <stdbool.h>
#include <stdint.h>

enum confidence { CONF_NONE = 0, CONF_LOW, CONF_MEDIUM, CONF_HIGH };

struct curve_point {
    uint32_t p;
    uint64_t a25, a50, a75; /* p INVLPGs (then the working set) */
    uint64_t b25, b50, b75; /* one full flush (then the working set) */
    uint32_t a_index, b_index; /* where the two points are in the report (evidence) */
    /* the two points' kept samples, one pair per iteration (core/run/record.h); NULL: none */
    const uint64_t *a_kept, *b_kept;
    uint32_t nkept;
};

struct crossover {
    uint32_t npoints;
    bool found;
    uint32_t p_star;     /* when found */
    uint32_t p_before;   /* the largest measured p below p_star (0: none) */
    bool overlap;        /* the p25-p75 intervals overlap at p_star or p_before */
    uint32_t band_low, band_high; /* p range of the overlap around the crossing (0, 0: none) */
    bool monotonic;      /* the cheaper curve changes at most once, from a to b */
    bool has_interval;   /* the paired bootstrap ran (every point kept its samples) */
    int64_t p_low, p_high; /* p*'s 95% interval, measured counts; BOOT_NONE: no crossing */
    uint32_t pairs;      /* the fewest iterations of a page count it rests on */
    enum confidence conf;
    const char *why;     /* one line: what the confidence rests on */
};

struct boot_work;
/*
 * Sorts pts by p (in place) and fills *out. w: the bootstrap's workspace
 * (NULL: no interval); seed and stream: its generator (core/run/bootstrap.h;
 * crossover_stream() names a curve of flush_ceiling).
 */
void crossover_find(struct curve_point *pts, uint32_t n, struct boot_work *w, uint64_t seed,
                    uint64_t stream, struct crossover *out);
/*
 * The bootstrap stream of flush_ceiling's curve (targets, working set, its
 * form: 0 contiguous, 1 scattered_cold; full mode 1 or 2).
 */
static inline uint64_t crossover_stream(uint32_t targets, uint32_t working_set, uint32_t form,
                                        uint32_t full)
{
    return (uint64_t)targets << 40 | (uint64_t)form << 36 | (uint64_t)working_set << 8 | full;
}
const char *confidence_name(enum confidence c); /* "none", "low", "medium", "high" */

#define CROSSOVER_HIGH_RATIO_MILLI 1500
#define CROSSOVER_MEDIUM_RATIO_MILLI 2000
/*
 * The confidence of a p* interval [low, high] (measured counts; BOOT_NONE:
 * no crossing) over the sorted curve pts: the relative width above.
 */
enum confidence crossover_width_confidence(const struct curve_point *pts, uint32_t n, int64_t low,
                                           int64_t high);

#endif
