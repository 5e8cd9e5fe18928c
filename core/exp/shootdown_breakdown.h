/*
 * Where a shootdown point's time goes (issue 32, item 9): each sample's parts
 * (core/machine/shootdown.h, struct shootdown_parts) kept per sample, and
 * the point's means of them, which add up to the mean latency (the p50s of
 * parts do not add up to the p50 of their sum: 40.3 us of parts against a
 * 58.2 us latency in one report).
 *
 * The parts of a sample partition its latency exactly:
 *   seq   latency = local_flush + send + handler + delivery_ack
 *   conc  latency = send + handler + delivery_ack (the local flush runs
 *         inside the wait, beside delivery, handler and acknowledgement)
 * where handler is the handler of the target that acknowledged last (the one
 * whose ack ends the wait; shootdown_last_acker()), at most the wait
 * (shootdown_handler_in_wait()), and delivery_ack the rest of the wait.
 * Pure but for the point it fills: host-tested (tests/host/test_breakdown.c).
 */
#ifndef TLBSCOPE_CORE_EXP_SHOOTDOWN_BREAKDOWN_H
#define TLBSCOPE_CORE_EXP_SHOOTDOWN_BREAKDOWN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/machine/shootdown.h"
#include "core/run/record.h"

struct breakdown {
    uint64_t *send, *local, *handler, *dack; /* per sample, ticks */
    uint32_t *last_cpu;                      /* per sample: the target that acked last */
};

/* Means in ticks x 1000 (point values' unit), rounded to the nearest. */
struct breakdown_means {
    int64_t send, local_flush, handler, delivery_ack;
};

bool breakdown_alloc(struct breakdown *b, uint32_t samples);
void breakdown_free(struct breakdown *b);
/* Sample k's parts, from the round shootdown_flush() just ran. */
void breakdown_take(struct breakdown *b, uint32_t k, const struct shootdown_parts *p);
void breakdown_means(const struct breakdown *b, uint32_t samples, struct breakdown_means *m);
/*
 * Of the k targets, the one that acknowledged last in most samples (the first
 * of equals), and in *times in how many; UINT32_MAX when no sample had one.
 */
uint32_t breakdown_last_acker(const struct breakdown *b, uint32_t samples,
                              const uint32_t *targets, uint32_t k, uint32_t *times);
/*
 * The point's values: send_mean, local_flush_mean, last_handler_mean,
 * delivery_ack_mean (ticks x 1000), last_ack_cpu and last_ack_share (its
 * share of the samples, 0..1).
 */
void breakdown_add_values(struct result_point *pt, const struct breakdown *b, uint32_t samples,
                          const uint32_t *targets, uint32_t k);

#endif
