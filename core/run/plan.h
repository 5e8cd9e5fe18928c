/*
 * Planning an experiment from its measured cost, so that a run finishes on
 * any machine and at any CPU count (issue 10, "Scale").
 *
 * A run has a budget for measuring (run_budget_s). Each experiment gets a
 * share of what is left of it (plan_share(): by weight, and what an earlier
 * experiment did not spend goes to the later ones). The experiment times a
 * few warm-up iterations of its points (its pilot), turns them into a cost
 * per iteration for every point of its grid, and plan_make() chooses what
 * fits in the share, in this order:
 *   1. every point at the configured samples (no reduction);
 *   2. fewer samples, the same for every point, down to the floor;
 *   3. at the floor, the optional variants of a point (iter_ticks_lean:
 *      shootdown_seq_vs_conc's INVPCID single-context beside Linux's CR3
 *      write) go first;
 *   4. then fewer rows (target counts): every 2nd, 4th, ... row, always
 *      the first and the last, so the curve keeps its ends and its log
 *      spacing; or, where the experiment ranks its rows (row_order:
 *      flush_ceiling's curves), the least important rows down to its core
 *      (rows_core); samples then go back up as far as the share allows;
 *   5. then fewer columns (page counts) the same way, except the columns
 *      of a dense range the experiment names (flush_ceiling: the page
 *      counts around the configured ceiling, where the answer lies;
 *      shootdown_seq_vs_conc: the ceiling), which every stride keeps; then
 *      that range narrows toward its anchor (the ceiling), a column from
 *      each side at a time, down to the anchor alone: the first, the
 *      ceiling and the last count, the fewest a crossover can be found on
 *      ("1, ceiling, max");
 *   6. then the last row alone (the most targets: where a shootdown costs
 *      most and the orders differ most), or the ranked rows down to the
 *      most important one; then, only without a dense range, the first
 *      column alone (one page);
 *   7. else nothing fits the share: PLAN_NO_FIT. The runner then measures
 *      that smallest plan all the same when it fits the experiment's hard
 *      stop (budget_s), and makes the experiment ERROR, measuring nothing,
 *      only when even that does not (core/run/runner_plan.c).
 * The warm-up shrinks with the samples (same ratio), never below
 * PLAN_MIN_WARMUP. A share of 0 means no planning: everything as configured.
 *
 * Pure arithmetic: tests/host/test_plan.c.
 */
#ifndef TLBSCOPE_CORE_PLAN_H
#define TLBSCOPE_CORE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLAN_FLOOR 50        /* fewest samples per point a reduced plan keeps */
#define PLAN_MIN_WARMUP 10   /* fewest warm-up iterations a reduced plan keeps */
/*
 * A pilot point runs PLAN_PILOT_SHORT iterations twice (the first run,
 * cold, is dropped), then at least
 * PLAN_PILOT_ITERS, four times more until the long run lasts long enough to
 * average over what a short burst misses (a host that preempts an emulated
 * CPU now and then: core/run/runner_plan.c), at most PLAN_PILOT_MAX; then the
 * long run once more, and the faster of the two counts. The
 * difference is the cost of the extra iterations, free of what every point
 * pays once (waking the targets, priming the TLBs, posting to the
 * initiator): plan_pilot_fit().
 */
#define PLAN_PILOT_SHORT 1
#define PLAN_PILOT_ITERS 4 /* 287-target shootdowns under an emulator: 0.1 s each */
#define PLAN_PILOT_MAX 2560

/* Why a plan is smaller than the configured grid (bits). */
#define PLAN_FEWER_SAMPLES (1u << 0)
#define PLAN_FEWER_ROWS (1u << 1)
#define PLAN_FEWER_COLS (1u << 2)
#define PLAN_NO_FIT (1u << 3)
#define PLAN_FEWER_VARIANTS (1u << 4)

/* Most rows a request may rank (row_order): the plan keeps them as a bit mask. */
#define PLAN_MAX_RANKED_ROWS 64

struct plan_request {
    uint64_t share_ticks;  /* this experiment's share of the run budget; 0: no planning */
    uint32_t samples;      /* configured samples per point */
    uint32_t warmup;       /* configured warm-up iterations per point */
    uint32_t floor;        /* samples never go below min(floor, samples) */
    uint32_t baseline_div; /* a point also runs samples / baseline_div baseline iterations */
    uint32_t nrows, ncols; /* the grid: rows (e.g. target counts) x columns (page counts) */
    bool thin_rows, thin_cols; /* whether rows / columns may be left out */
    uint32_t dense_lo, dense_hi; /* columns [dense_lo, dense_hi) no stride leaves out
                                  * (only the last resort, the first column alone, does,
                                  * and only without a dense range); equal: none */
    uint32_t anchor;       /* the column inside the dense range it narrows to (the ceiling);
                            * outside it: the range's middle */
    /* rows most important first (NULL: thinned by stride): the last go first, down to
     * rows_core before any column goes, down to the first after the columns' last step */
    const uint8_t *row_order;
    uint32_t rows_core;
    /* result columns each column stands for (shootdown_seq_vs_conc: a page count above the
     * ceiling once per full-flush method), the lean plan counting 1; NULL: 1 each */
    const uint8_t *col_variants;
    uint64_t point_ticks;  /* fixed cost of one point (start the targets, prime the TLBs) */
    /* ticks of one iteration (warm-up, sample or baseline) of point (row, col) */
    uint64_t (*iter_ticks)(const void *ctx, uint32_t row, uint32_t col);
    /* the same without the point's optional variants (NULL: it has none) */
    uint64_t (*iter_ticks_lean)(const void *ctx, uint32_t row, uint32_t col);
    const void *ctx;
};

struct plan {
    uint32_t samples, warmup;      /* per point */
    uint32_t row_stride, col_stride; /* which are kept (plan_kept, plan_col_kept) */
    uint32_t dense_lo, dense_hi;   /* the request's dense columns, as narrowed */
    uint64_t row_mask;             /* ranked rows (row_order): bit r set when row r is kept;
                                    * 0: rows by row_stride */
    bool lean;                     /* the optional variants left out (iter_ticks_lean) */
    uint32_t rows, cols;           /* how many are kept */
    uint32_t reasons;              /* PLAN_* bits; 0: as configured */
    uint64_t estimate_ticks;       /* of this plan */
    uint64_t full_ticks;           /* of the configured grid at the configured samples */
};

/* Strides that keep one index only (step 5). */
#define PLAN_LAST_ONLY UINT32_MAX
#define PLAN_FIRST_ONLY (UINT32_MAX - 1)

/*
 * True when index i of n survives a stride: every stride-th from 0, and the
 * last; PLAN_LAST_ONLY / PLAN_FIRST_ONLY keep the last / the first alone.
 */
bool plan_kept(uint32_t n, uint32_t stride, uint32_t i);
uint32_t plan_kept_count(uint32_t n, uint32_t stride);
/*
 * The same for columns, which may have a dense range: index i of n
 * survives the column stride, or lies in [dense_lo, dense_hi) and the
 * stride is not PLAN_FIRST_ONLY.
 */
bool plan_kept_dense(uint32_t n, uint32_t stride, uint32_t dense_lo, uint32_t dense_hi,
                     uint32_t i);
uint32_t plan_kept_dense_count(uint32_t n, uint32_t stride, uint32_t dense_lo, uint32_t dense_hi);
/* Whether column i of n survives plan p (its stride and its dense range). */
bool plan_col_kept(const struct plan *p, uint32_t n, uint32_t i);
/* Whether row i of n survives plan p (its ranked rows, else its stride). */
bool plan_row_kept(const struct plan *p, uint32_t n, uint32_t i);
/*
 * The dense range of ascending `values` (n of them): the indexes [*lo, *hi)
 * of the values in [from, to]; *lo == *hi when none is.
 */
void plan_dense_range(const uint32_t *values, uint32_t n, uint32_t from, uint32_t to,
                      uint32_t *lo, uint32_t *hi);
/* The warm-up that goes with `samples` when `configured` samples had `warmup`. */
uint32_t plan_warmup(uint32_t warmup, uint32_t configured, uint32_t samples);
/* Estimated ticks of the grid at these samples and strides (every row, all variants). */
uint64_t plan_estimate(const struct plan_request *q, uint32_t samples, uint32_t row_stride,
                       uint32_t col_stride);
void plan_make(const struct plan_request *q, struct plan *p);
/* Estimated ticks of plan p's points at its samples (what plan_make() put in estimate_ticks). */
uint64_t plan_estimate_plan(const struct plan_request *q, const struct plan *p);
/*
 * Estimated ticks of the least that keeps every row: at the floor, the
 * first, the anchor and the last column (with a dense range; else the two
 * ends), without the optional variants. What a budget must allow so that
 * no row is left out (flush_ceiling's needs_run_budget_s).
 */
uint64_t plan_estimate_least(const struct plan_request *q);
/*
 * Ticks per iteration and per point from the two runs of a pilot point,
 * never less than half the long run's mean per iteration. A long run no
 * slower than the short one (noise) gives its mean and no fixed part.
 */
void plan_pilot_fit(uint64_t t_short, uint64_t t_long, uint32_t n_long, uint64_t *per_iter,
                    uint64_t *fixed);

/*
 * Following a plan while it runs. A pilot can be wrong (an emulator whose
 * host preempts it now and then, a machine that slows down): before each
 * point the time spent so far is compared with the estimate of the points
 * done, and when the rest, at that pace, would overrun the share, the
 * samples of the remaining points go down (never below the floor); when it
 * would leave a quarter or more of the share unused, they go back up
 * (never above the configured count). Points are counted in the order
 * measured: rows outer, columns inner, kept only.
 */
#define PLAN_TRACK 512 /* points followed; a bigger grid is not re-planned */
struct plan_track {
    uint32_t npoints;          /* 0: not followed */
    uint64_t est[PLAN_TRACK];  /* each point's estimate at the planned samples */
    uint32_t samples, warmup;  /* in force now */
    uint32_t configured, configured_warmup, floor;
    uint32_t done_base;        /* points done when the pace was last set */
    uint64_t t_base, deadline; /* then, and the end of the share */
    uint32_t scale_milli;      /* samples now / samples planned, x1000 */
    uint32_t replans;
};
void plan_track_init(struct plan_track *t, const struct plan_request *q, const struct plan *p,
                     uint64_t now, uint64_t deadline);
/* Before point `done` (0-based) at `now`: true when the samples changed (t->samples). */
bool plan_track_adapt(struct plan_track *t, uint32_t done, uint64_t now);

/*
 * An experiment's share of the run budget: what is `left` of it in
 * proportion to its weight among the weights still to run (its own
 * included), but never less than half its weight's part of the whole
 * `budget`: an earlier experiment that overran its estimate must not starve
 * the later ones into ERROR (the run then overruns by at most half).
 */
uint64_t plan_share(uint64_t budget, uint64_t left, uint32_t weight, uint32_t weights_left,
                    uint32_t weights_total);

/*
 * The share an experiment plans for: `share` (plan_share()), but never more
 * than PLAN_HARD_STOP_PERMILLE of its hard stop (budget_s, in ticks): a
 * budget_s set below the share must not abort what the plan promised, and
 * what the pilot mispredicts has room before the stop.
 */
#define PLAN_HARD_STOP_PERMILLE 750
uint64_t plan_share_within(uint64_t share, uint64_t hard_stop);

/*
 * Point-by-point pacing (the aarch64 experiments, core/exp/arm64/a64_pace.h): each point
 * gets an equal part of what is left of the share, and takes samples until that time is
 * spent, at least `floor` (the intervals stay drawable) and at most `configured`. Cheap
 * points so get their configured samples and costly ones fewer, with no model of the cost.
 */
/* The ticks the next of `points_left` points may take once `spent` of `share` are gone. */
uint64_t plan_pace_allowance(uint64_t share, uint64_t spent, uint32_t points_left);
/* Whether a paced point that took `taken` samples takes another at `now`. */
bool plan_pace_more(uint32_t taken, uint32_t floor, uint32_t configured, uint64_t now,
                    uint64_t point_end);

/* 1, 2, 4, ... up to max, always ending with max itself: about log2(max) + 2 values. */
uint32_t plan_power_series(uint32_t max, uint32_t *out, uint32_t cap);

/*
 * What the report says about a plan (reports/SCHEMA.md, experiment.plan).
 * rows_name / cols_name name the axes that can be thinned ("target counts").
 */
struct plan_summary {
    bool applied;               /* the experiment was planned */
    bool measured;              /* false: even the floor did not fit budget_s (ERROR) */
    uint32_t reasons;
    uint64_t share_ms, estimate_ms, full_estimate_ms;
    uint64_t pilot_ms;          /* spent timing the pilot, out of the share */
    uint32_t samples_configured, samples, warmup;
    uint32_t rows_configured, rows, cols_configured, cols;
    const char *rows_name, *cols_name;
    const char *variants_name;  /* what PLAN_FEWER_VARIANTS left out ("invpcid_single_context") */
    uint32_t points_planned;    /* result points the plan measures */
    uint64_t samples_planned;   /* points_planned x samples */
    uint64_t samples_achieved;  /* samples in the result points actually measured */
    uint32_t samples_min, samples_max; /* the fewest / most a point got (plan_track) */
    uint32_t replans;           /* how often the samples were cut while running */
    uint32_t points_added;      /* result points measured beyond the plan with what the share
                                 * had left (flush_ceiling: around crossings, curves left out) */
};
void plan_summarize(const struct plan_request *q, const struct plan *p, uint64_t ticks_per_ms,
                    uint32_t results_per_point, struct plan_summary *s);
/* One line: "samples 1000 -> 120; target counts 10 -> 6 (share 9.6 s, ...)". */
void plan_describe(const struct plan_summary *s, char *buf, size_t cap);
/*
 * What the status of a measured experiment whose grid was cut says beside
 * SUCCESS (reports/SCHEMA.md, experiments[].status_detail): "reduced: 5 of
 * 22 page counts, 6 of 12 curves", and "; 12 points added" when the share
 * had room for points beyond the plan; false (buf empty) when the plan kept
 * every row, column and variant (fewer samples alone are no cut grid).
 */
bool plan_status_detail(const struct plan_summary *s, char *buf, size_t cap);

#endif
