/* Repetitions per sample for operations shorter than the counter resolves: see a64_reps.h. */
#include "core/exp/arm64/a64_reps.h"

#include "asm/timer.h"
#include "core/mutant.h"

unsigned a64_reps_choose(uint64_t (*timed)(void *ctx, unsigned reps), void *ctx)
{
    unsigned r = 1;
    while (r < A64_REPS_MAX && timed(ctx, r) < A64_REPS_MIN_TICKS)
        r *= 2;
    return r;
}

uint64_t a64_reps_time(const struct a64_reps_op *op, unsigned reps)
{
    uint64_t t0 = ticks();
    unsigned r;
    for (r = 0; r < reps; r++)
        op->run(op->ctx);
    return ticks() - t0;
}

uint64_t a64_reps_trial(void *op, unsigned reps)
{
    return a64_reps_time(op, reps);
}

uint64_t a64_reps_window(void *ctx)
{
    const struct a64_reps_op *op = ctx;
    uint64_t t = a64_reps_time(op, op->reps ? op->reps : 1);
    return t ? t : 1;
}

uint64_t a64_reps_sample(struct a64_reps *acc, uint64_t total)
{
    uint64_t r = acc->reps ? acc->reps : 1, one;
    acc->total_ticks += total;
    acc->samples++;
    /* the mutant keeps the total: R operations reported as the latency of one */
    one = MUTANT(a64_reps_not_divided) ? total : (total + r / 2) / r;
    return one ? one : 1;
}

void a64_reps_record(struct result_point *p, const struct a64_reps *acc)
{
    uint64_t r = acc->reps ? acc->reps : 1;
    point_value(p, "reps_per_sample", (int64_t)(r * 1000));
    if (acc->samples)
        point_value(p, "mean_per_op", (int64_t)(acc->total_ticks * 1000 / (r * acc->samples)));
}
