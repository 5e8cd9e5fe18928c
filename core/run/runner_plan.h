/*
 * The runner's side of planning (core/run/plan.h): shares of run_budget_s, the
 * plan in force, and the record's `plan`. See core/run/runner_plan.c.
 */
#ifndef TLBSCOPE_CORE_RUNNER_PLAN_H
#define TLBSCOPE_CORE_RUNNER_PLAN_H

#include "core/run/plan.h"
#include "core/run/runner.h"

/* An experiment's weight in the shares; 0: it does not plan (fixed work). */
uint32_t runner_plan_weight(const char *id);
/* Before the first experiment: the budget, and the weights of the experiments that will run. */
void runner_plan_start_run(struct runner *r, uint32_t weights_to_run);
/* Before / after one experiment: its share, then what it spent and achieved. */
void runner_plan_start(struct runner *r, const char *id);
void runner_plan_end(struct runner *r, const char *id, uint64_t spent_ticks,
                     struct experiment_record *rec);

/*
 * For experiments, once their pilot has filled q's grid and costs: plans
 * within the share (samples and warm-up from the configuration unless q
 * sets them; the floor PLAN_FLOOR, or the samples when fewer),
 * makes runner_samples()/runner_warmup() return the plan's values, records
 * the plan (and a note when reduced). False when even the floor does not
 * fit: the record is ERROR with the reason, and nothing should be measured.
 * Without a share (run_budget_s=0) the plan is the configured grid.
 */
bool runner_plan(struct runner *r, struct experiment_record *rec, struct plan_request *q,
                 const char *rows_name, const char *cols_name, uint32_t results_per_point,
                 struct plan *p);
/*
 * Whether q's grid would fit the share at the floor (what runner_plan()
 * would plan, without recording anything): experiments drop optional
 * points (issue 21's placements) rather than fail the plan for them.
 * True without a share.
 */
bool runner_plan_fits(struct runner *r, const struct plan_request *q);
/*
 * A pilot point, run short then long (core/run/plan.h, plan_pilot_fit()):
 * `run` measures one point of `iterations` iterations into *ticks, false
 * when a CPU failed. Gives ticks per iteration and per point; false when a
 * run failed.
 */
typedef bool (*pilot_run)(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks);
bool runner_pilot(struct runner *r, pilot_run run, void *ctx, uint64_t *per_iter,
                  uint64_t *per_point);
/*
 * For a pilot through an experiment's own point code: until
 * runner_pilot_end(), runner_samples() is 1 and runner_warmup() the rest
 * of `iterations` (the pilot's single sample is never recorded as a point).
 */
void runner_pilot_begin(struct runner *r, uint32_t iterations);
void runner_pilot_end(struct runner *r);

/*
 * The end of the share the plan is measured in (on this CPU's clock), once
 * runner_plan() planned; 0 when not planned (run_budget_s=0). What is left
 * before it when the plan's points are done may go to points the plan did
 * not name (flush_ceiling's refinement around its crossings).
 */
uint64_t runner_plan_deadline(const struct runner *r);
/*
 * The run_budget_s under which experiment `id` would get a share of
 * `ticks` (its weight's part, the others spending theirs), in whole tens
 * of seconds, and above the budget of this run.
 */
uint32_t runner_plan_budget_for(const struct runner *r, const char *id, uint64_t ticks);

/* Before point `done` (runner_progress()): re-plans the samples when off the plan's pace. */
void runner_plan_follow(struct runner *r, uint64_t done);

#endif
