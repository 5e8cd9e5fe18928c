/*
 * How many samples each point of an aarch64 experiment takes: the x86
 * profiles' samples (samples=, else quick 100, default 1000, full 10000),
 * cut to what fits the experiment's share of run_budget_s, as x86's planner
 * does (core/run/plan.h), and recorded the same way (the record's `plan`).
 *
 * x86 plans its grids from a pilot before it measures (core/run/runner_plan.c);
 * these grids are small (a few dozen points at most) and their points differ
 * in cost mostly by page count, so each point is paced instead
 * (core/run/plan.h plan_pace_more): it gets an equal part of what is left of
 * the share and takes samples until that part is spent, at least the floor
 * (PLAN_FLOOR, or the configured samples when fewer: the intervals stay
 * drawable, and an overrun shows in the plan), at most the configured ones.
 * run_budget_s=0: every point takes the configured samples (no plan).
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_A64_PACE_H
#define TLBSCOPE_CORE_EXP_ARM64_A64_PACE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/run_arm64.h"

struct a64_pace {
    bool planned;
    uint32_t configured, floor;
    uint32_t points, done, complete; /* points declared, measured, measured in full */
    uint64_t start, share_ticks;
    uint64_t point_start, point_end;  /* the current point's part of the share */
    uint64_t samples_done, sample_ticks; /* the points so far: their samples and their time */
    uint64_t complete_samples;           /* the samples of the points measured in full */
    uint32_t min, max;
    /* room for one point's samples: configured x slots (allocated before any window) */
    uint64_t *buf;
    /* a point runs with the firmware's interrupts masked (run->irq_mask: TPL_HIGH_LEVEL), so
     * no firmware callback runs inside a window or on the tool's tables between its samples */
    const struct arm64_run *run;
    uint64_t irq_token;
    bool masked;
};

/*
 * Before the experiment measures: its share, the samples configured, and room for `points`
 * points of up to configured x `slots` samples each (tlbi_concurrent: one per initiator).
 * False: no memory for the samples (the record is ERROR).
 */
bool a64_pace_begin(struct arm64_run *run, struct experiment_record *e, struct a64_pace *p,
                    uint32_t points, uint32_t slots);
/* Before a point: its part of the share starts now, the firmware's interrupts masked until
 * a64_pace_point_done (nothing between may call the firmware: allocate before). */
void a64_pace_point(struct a64_pace *p);
/*
 * For a point that must know its count before it starts (ipi_roundtrip tells its target
 * how many pings to take): what its part of the share buys at the cost per sample so far,
 * within the floor and the configured samples; the floor for the first point (the pilot).
 */
uint32_t a64_pace_count(const struct a64_pace *p);
/* Whether the point, `taken` samples in, takes another (checked before each sample). */
bool a64_pace_more(const struct a64_pace *p, uint32_t taken);
/* After the point: the samples it took; complete false when a lost CPU cut it short (its
 * count then says nothing of the pace: left out of the plan's fewest and most). */
void a64_pace_point_done(struct a64_pace *p, uint32_t taken, bool complete);
/* After the experiment: its plan summary (e->plan) and a note, the room freed. */
void a64_pace_end(struct arm64_run *run, struct experiment_record *e, struct a64_pace *p);

#endif
