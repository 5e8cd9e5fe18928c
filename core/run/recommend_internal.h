/*
 * What the recommendation builders share (core/run/recommend.c,
 * recommend_ceiling.c, recommend_invlpgb.c, recommend_order.c): finding an experiment's points,
 * citing them, "not enough evidence", and the paired bootstrap's
 * workspace and seed. Not for use outside them.
 */
#ifndef TLBSCOPE_CORE_RECOMMEND_INTERNAL_H
#define TLBSCOPE_CORE_RECOMMEND_INTERNAL_H

#include "core/run/bootstrap.h"
#include "core/run/recommend.h"

struct rec_ctx {
    const struct run *r;
    struct boot_work boot; /* sized for RECORD_KEEP_MAX pairs (valid == reps != NULL) */
    uint64_t seed;         /* method.order_seed */
};

/* bootstrap streams, one per question (core/run/bootstrap.h) */
#define REC_STREAM_ORDER 0x6f72646572ull
#define REC_STREAM_ORDER_ONE 0x6f7264657231ull
#define REC_STREAM_IB_PAIR 0x69627061ull    /* + the pair's index */
#define REC_STREAM_IB_CPUS 0x69626370ull
#define REC_STREAM_LAZY 0x6c617a79ull
#define REC_STREAM_PTI 0x707469ull
#define REC_STREAM_ORDER_PART 0x6f72647000ull /* + the (pages, flush) pair's index */

const struct experiment_record *rec_find(const struct run *r, const char *id);
bool rec_param_is(const struct result_point *p, const char *key, const char *str, int64_t num);
int64_t rec_param_num(const struct result_point *p, const char *key);
/* True when a and b have the same parameters but `except` (which both have). */
bool rec_same_params_except(const struct result_point *a, const struct result_point *b,
                            const char *except);
/* A point's value (x 1000) by key; dflt when it has none. */
int64_t rec_value(const struct result_point *p, const char *key, int64_t dflt);
void rec_cite(struct recommendation *e, uint32_t index);
void rec_no_evidence(struct recommendation *e, const char *fmt, const char *arg);
/* The record the entry needs, measured and verified; NULL (and why) otherwise. */
const struct experiment_record *rec_usable(const struct run *r, struct recommendation *e,
                                           const char *id);
enum confidence rec_min_conf(enum confidence a, enum confidence b);
/* Appends printf text to a NUL-terminated buffer of `cap` bytes. */
void rec_append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The paired-bootstrap interval of b's median minus a's, in ticks; false without pairs. */
bool rec_pair_difference(struct rec_ctx *c, const struct result_point *a,
                         const struct result_point *b, uint64_t stream, struct boot_result *br);
/* " (95% interval A to B UNIT)" for the entry's interval; "" without one. `above`: the largest
 * count measured, for a bound that is none. */
void rec_interval_text(const struct rec_interval *iv, int64_t above, char *buf, size_t cap);

void rec_flush_ceiling(struct rec_ctx *c, struct recommendation *e);
void rec_invlpgb(struct rec_ctx *c, struct recommendation *e);
void rec_order(struct rec_ctx *c, struct recommendation *e);

#endif
