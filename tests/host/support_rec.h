/*
 * Records for the recommendation tests (core/run/recommend*.c): points with
 * per-iteration samples around a median, as the experiments keep them, and
 * recommend_compute() over one record (tests/host/test_crossover.c,
 * test_ceiling.c).
 */
#ifndef TLBSCOPE_TESTS_SUPPORT_REC_H
#define TLBSCOPE_TESTS_SUPPORT_REC_H

#include <stdint.h>

#include "core/run/recommend.h"

#define NS 21 /* samples per point: offsets -10 .. 10 of the spread's tenth, so medians are exact */

/*
 * NS samples around `median`, spread +-spread, in an order set by `perm`
 * (co-prime with NS): two lists of different perm are unrelated pairs.
 */
void spread_samples(uint64_t *out, uint64_t median, uint64_t spread, uint32_t perm);
/* the point's samples: NS around p50, +-spread, in order `perm`, of paired run `run` */
void keep(struct experiment_record *rec, struct result_point *pt, uint64_t p50, uint64_t spread,
          uint32_t perm, uint32_t run);
/*
 * A flush_ceiling point (working set 512) of paired run `run`. Locally
 * `p50` is the latency; on a shootdown (targets > 0) it is the work summed
 * over CPUs, the curve the crossover is on and the samples the point keeps,
 * and the initiator's latency alone is a fixed 100 (it would cross nowhere).
 */
void add_at(struct experiment_record *rec, uint32_t targets, const char *form, const char *mode,
            uint32_t p, uint64_t p50, uint64_t spread, uint32_t run);
void new_record(struct experiment_record *rec, const char *id, uint32_t points);
void release_record(struct experiment_record *rec);
/* recommend_compute() over rec alone (order seed 2026); entry `which`, its evidence checked */
const struct recommendation *compute(struct experiment_record *rec, struct recommendations *recs,
                                     uint32_t which);

#endif
