/*
 * Where two cost curves cross: the page count p* from which a full flush
 * (curve b) is cheaper than p single-page invalidations (curve a), and how
 * sure the measurement is of it. Pure: host-tested on synthetic curves
 * (tests/host/test_crossover.c), used by flush_ceiling for its summary and
 * by core/recommend.c for the flush_ceiling recommendation.
 *
 * p* is the smallest measured p such that b's median is below a's at p and
 * at every larger measured p ("from which the full flush is cheaper"); an
 * earlier crossing that the curves undo makes the data non-monotonic. The
 * noise band is the run of measured p around the crossing (p* and the count
 * before it) where the two curves' p25-p75 intervals overlap.
 *
 * Confidence: none with fewer than 3 page counts; low when the data cross
 * more than once, or when the band spans more than 4 counts; medium when
 * the intervals overlap next to the crossing; high otherwise.
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
};

struct crossover {
    uint32_t npoints;
    bool found;
    uint32_t p_star;     /* when found */
    uint32_t p_before;   /* the largest measured p below p_star (0: none) */
    bool overlap;        /* the p25-p75 intervals overlap at p_star or p_before */
    uint32_t band_low, band_high; /* p range of the overlap around the crossing (0, 0: none) */
    bool monotonic;      /* the cheaper curve changes at most once, from a to b */
    enum confidence conf;
    const char *why;     /* one line: what the confidence rests on */
};

/* Sorts pts by p (in place) and fills *out. */
void crossover_find(struct curve_point *pts, uint32_t n, struct crossover *out);
const char *confidence_name(enum confidence c); /* "none", "low", "medium", "high" */

#endif
