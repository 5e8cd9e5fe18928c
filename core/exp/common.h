/* Pieces the shootdown experiments share: target sets, sample buffers, status. */
#ifndef TLBSCOPE_CORE_EXP_COMMON_H
#define TLBSCOPE_CORE_EXP_COMMON_H

#include "core/machine/ipi.h"
#include "core/run/runner.h"
#include "core/machine/shootdown.h"

/* The page counts of the issue: 1 .. 32, the ceiling, above it, and a whole page table. */
uint32_t exp_page_counts(uint32_t ceiling, uint32_t *out, uint32_t cap);

/*
 * CPUs spinning (or halting under a hypervisor) as IPI targets during a
 * point; spin.mode may make them run a busy loop instead (SPIN_BUSY_WS,
 * spin.ws set by the caller). The last `nlazy` of them idle in the idle
 * loop instead (lazy_spin, SPIN_IDLE: shootdown_lazy's lazy CPUs).
 */
struct target_set {
    uint32_t *cpus;
    uint32_t n, nlazy;
    volatile uint32_t stop;
    struct spin_arg spin, lazy_spin;
};
bool target_set_init(struct target_set *t, uint32_t capacity);
void target_set_release(struct target_set *t);
void target_set_start(struct runner *r, struct target_set *t);
void target_set_stop(struct runner *r, struct target_set *t);
/* Fills the set with every usable CPU but the BSP (the initiator); returns how many. */
uint32_t target_set_all_others(struct runner *r, struct target_set *t);

/*
 * The dry-run baseline of a shootdown point: the same protocol to the same
 * CPUs (same lazy flags and flags) with nothing to invalidate, i.e. the
 * request, IPI and acknowledgement floor. `buf` holds `count` samples.
 * False when a CPU stopped answering.
 */
bool exp_baseline(struct shootdown *sd, const uint32_t *cpus, uint32_t n, uint32_t flags,
                  uint64_t *buf, uint32_t count, struct stats *out);
/* How many baseline samples a point takes: a quarter of the samples, at least 1. */
uint32_t exp_baseline_count(const struct runner *r);

/*
 * The full-flush methods measured above the ceiling: "cr3_reload" (Linux),
 * then "invpcid_single_context" where the CPU has INVPCID (or it is
 * emulated). `out` holds 2. Set one with sd->full_uses_invpcid = index == 1.
 */
#define EXP_MAX_FULL_FLUSHES 2
uint32_t exp_full_flushes(const struct runner *r, const char **out);

/*
 * The order of k variants in iteration `iteration` of a point (issue 20):
 * out[j] is the variant to run j-th. A permutation drawn from the run's
 * order seed (method.order_seed), `salt` (what tells the point apart: its
 * page count, target count...) and the iteration, so that no variant always
 * runs first (drift over the run and a cache the first one warms would
 * otherwise favour one side) and order_seed=S measures in the same order
 * again. k <= EXP_MAX_VARIANTS. Each iteration's first variant is counted
 * in the points as `ran_first` (exp_count_first()).
 */
#define EXP_MAX_VARIANTS 8
void exp_variant_order(const struct runner *r, uint64_t salt, uint32_t iteration, uint32_t k,
                       uint32_t *out);
/* The value `ran_first` of a point: iterations (of its samples) in which its variant ran first. */
void exp_value_ran_first(struct result_point *p, uint32_t iterations);

/* Releases what exp_shootdown_setup() and target_set_init() took. */
void exp_teardown(struct shootdown *sd, struct target_set *ts);

/* Sets up the shared protocol for an experiment (ceiling, full-flush method, PCIDs). */
bool exp_shootdown_setup(struct runner *r, struct shootdown *sd);
/*
 * Flush IPIs the way Linux would send them on this machine (issue 32):
 * x2APIC cluster mode where method_linux_cluster_ipis() says Linux picks it
 * (sd->cluster_ipis; a note says so, and the points carry ipi_mode
 * x2apic_cluster), else one physical ICR write per target. Returns the mode.
 */
bool exp_linux_ipis(struct runner *r, struct experiment_record *rec, struct shootdown *sd);
/* After the last point: verification counts into the record, FAILURE on stale reads. */
void exp_finish_verification(struct runner *r, struct shootdown *sd, struct experiment_record *rec);
/* Makes the record ERROR/partial when CPUs were lost along the way. */
void exp_note_lost(struct experiment_record *rec, uint32_t planned, const char *what);

/*
 * A pilot point to every other CPU (core/run/runner_plan.h): sync, start the
 * targets, load `pages` into their TLBs, run `body` (an experiment's own
 * point code, its samples and warm-up `iterations` in all), stop. *ticks:
 * all of it. False when a CPU failed.
 */
bool exp_pilot_all_others(struct runner *r, struct shootdown *sd, struct target_set *ts,
                          uint32_t pages, uint32_t iterations,
                          bool (*body)(struct runner *r, void *ctx), void *ctx, uint64_t *ticks);

#endif
