/*
 * Back-to-back repetitions for operations shorter than the counter resolves. On real Arm
 * servers CNTFRQ_EL0 is 25 to 100 MHz, one tick 10 to 40 ns, and a one-page broadcast
 * TLBI with its DSB may take a handful of ticks: one sample of it would be mostly the
 * counter's rounding. Such a sample times R operations back to back instead, R the
 * smallest power of two whose trial total spans A64_REPS_MIN_TICKS (at most A64_REPS_MAX),
 * and its latency is the total over R. The point records R (`reps_per_sample`) and the mean
 * per operation to a thousandth of a tick (`mean_per_op`), which the rounded samples lose.
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_A64_REPS_H
#define TLBSCOPE_CORE_EXP_ARM64_A64_REPS_H

#include <stdint.h>

#include "core/run/record.h"

/* a sample shorter than this is quantisation more than measurement (one tick of rounding is
 * then 5% or more of it) */
#define A64_REPS_MIN_TICKS 20
/* enough for an operation of a twentieth of a tick; the repetitions run inside the timed window */
#define A64_REPS_MAX 64

/* R for an operation that timed(ctx, r) runs r times back to back, returning the ticks they
 * took: doubled from 1 while a trial spans fewer than A64_REPS_MIN_TICKS */
unsigned a64_reps_choose(uint64_t (*timed)(void *ctx, unsigned reps), void *ctx);

/*
 * One operation a sample may repeat (a flush sequence, nothing else: no remap, no refill, no
 * verification between the repetitions), and how many times a sample runs it. An experiment's
 * timed window and a64_reps_choose's trial both go through a64_reps_time, so the loop that
 * repeats is this one.
 */
struct a64_reps_op {
    void (*run)(void *ctx); /* the operation once */
    void *ctx;
    unsigned reps;          /* per sample: a64_reps_choose's R, or 1 */
};
/* the ticks `reps` runs of op's operation take back to back (the counter read before and after) */
uint64_t a64_reps_time(const struct a64_reps_op *op, unsigned reps);
/* a64_reps_choose's trial for an a64_reps_op (ctx the op) */
uint64_t a64_reps_trial(void *op, unsigned reps);
/* region_remap's flush (a64_exp.h) for an a64_reps_op: its op->reps runs, their ticks, at least 1 */
uint64_t a64_reps_window(void *op);

/* The samples of one point of R operations each: their totals summed for mean_per_op */
struct a64_reps {
    unsigned reps;
    uint64_t total_ticks, samples;
};
/* a sample of `total` ticks for r operations: the latency of one, to the nearest tick,
 * at least 1; the total is counted in *acc */
uint64_t a64_reps_sample(struct a64_reps *acc, uint64_t total);
/* values reps_per_sample and mean_per_op (ticks, 3 decimals) of the point */
void a64_reps_record(struct result_point *p, const struct a64_reps *acc);

#endif
