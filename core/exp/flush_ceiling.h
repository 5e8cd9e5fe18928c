/*
 * flush_ceiling's state, shared by its measuring (core/exp/flush_ceiling.c)
 * and its planning (core/exp/flush_ceiling_plan.c: the pilot, which curves
 * and page counts a budget keeps, and what the share has left for after
 * the plan). The method is at the top of flush_ceiling.c.
 */
#ifndef TLBSCOPE_CORE_EXP_FLUSH_CEILING_H
#define TLBSCOPE_CORE_EXP_FLUSH_CEILING_H

#include "core/exp/common.h"
#include "core/run/bootstrap.h"
#include "core/run/crossover.h"
#include "core/run/plan.h"

#define FC_MAX_P 22       /* page counts of the default grid */
#define FC_MAX_REFINE 6   /* page counts a curve may add around its crossing */
#define FC_MAX_CURVE (FC_MAX_P + FC_MAX_REFINE)
#define FC_MAX_W 3
#define FC_MAX_KINDS 3
#define FC_MAX_SETS (FC_MAX_W + 1)
#define FC_MAX_ROWS (FC_MAX_KINDS * FC_MAX_SETS)
#define FC_NMODES 3
#define FC_MIN_WARMUP 2   /* the first iteration of a point meets cold caches and TLBs */

extern const uint32_t fc_pages_default[FC_MAX_P];
extern const char *const fc_mode_names[FC_NMODES]; /* invlpg, full_cr3, full_invpcid */
extern const char *const fc_form_names[2];         /* by enum ws_form */

/* Which curve a point is on: kind (targets, 0 local), working-set form, working set. */
struct fc_where {
    uint32_t k;
    enum ws_form form;
    uint32_t w;
};

/*
 * One row of the grid: a (kind, form, working set) and its curves, one per
 * full-flush mode against invlpg: on the metric the ceiling is chosen from
 * (`latency` locally, `work` for shootdowns) and, for shootdowns, on the
 * critical path.
 */
struct fc_row {
    struct fc_where at;
    struct curve_point work[FC_NMODES - 1][FC_MAX_CURVE];
    struct curve_point crit[FC_NMODES - 1][FC_MAX_CURVE];
    uint32_t n;           /* page counts measured */
    uint32_t added;       /* of them, beyond the plan (around the crossing) */
    uint64_t point_max;   /* ticks of its dearest point: what one more may cost */
    bool planned;         /* the plan keeps it */
    bool tried;           /* measuring it began */
};

struct fc_state {
    struct shootdown sd;
    struct target_set ts;
    uint32_t *order, norder;
    const uint32_t *pages;
    uint32_t npages;
    uint32_t anchor;       /* index of the configured ceiling (the largest count at or below) */
    uint32_t ws[FC_MAX_W], nws;
    struct fc_set {
        enum ws_form form;
        uint32_t w;
    } sets[FC_MAX_SETS]; /* every working set contiguous, then COLD_WS scattered and cold */
    uint32_t nsets;
    uint32_t kinds[FC_MAX_KINDS], nkinds; /* target counts; 0 = local */
    uint32_t nmodes;                      /* 2, or 3 with INVPCID */
    uint32_t samples, warmup;
    /* per mode, per sample: latency, slowest target's refill, the initiator's own refill,
     * work summed over CPUs, critical path on the initiator's clock */
    uint64_t *lat[FC_NMODES], *refill[FC_NMODES], *own[FC_NMODES], *work[FC_NMODES],
        *crit[FC_NMODES];
    uint32_t first[FC_NMODES];            /* iterations each mode ran first */
    struct boot_work boot;                /* p*'s interval (core/run/bootstrap.h) */
    const struct runner *r;               /* the order seed */
    struct fc_row *rows;                  /* nkinds x nsets, kind major */
    uint32_t nrows;
    uint8_t rank[FC_MAX_ROWS];            /* rows most important first (fc_rank_rows()) */
    uint32_t rows_core;
    struct plan plan;                     /* which rows and page counts run_budget_s leaves */
    struct plan_request q;                /* the plan's request, for what remains after it */
    uint64_t pilot_fewest, pilot_most, pilot_most_cold; /* ticks per iteration */
    uint32_t needs_budget_s;              /* run_budget_s that measures every curve; 0: no cut */
    uint32_t added;                       /* points measured beyond the plan */
};

/*
 * The rows' ranking (pure; tests/host/test_plan.c): the working set the
 * recommendation reads (typical_ws) contiguous, then scattered and cold,
 * then the others, locally before shootdowns, first; the curves of the
 * largest target kind (where there are two shootdown kinds) and those of
 * the smallest working set (64) last, the latter last of all. *core: how
 * many rows are ranked above those, which a plan keeps before it thins
 * any page count. Rows are kind major: row = kind index * nsets + set.
 */
uint32_t fc_rank_rows(const uint32_t *kinds, uint32_t nkinds, const struct fc_set *sets,
                      uint32_t nsets, uint32_t typical_ws, uint32_t smallest_ws, uint8_t *rank,
                      uint32_t *core);
/*
 * The page count to measure between lo and hi (measured counts around a
 * crossing, lo < hi): the default grid's count nearest their geometric
 * middle, else that middle; 0 when nothing lies between them or they are
 * within a quarter of each other (the grid is fine there).
 */
uint32_t fc_refine_between(uint32_t lo, uint32_t hi);

/* flush_ceiling_plan.c: the pilot and the plan; false when nothing should be measured. */
bool fc_plan(struct runner *r, struct experiment_record *rec, struct fc_state *st);
/* What the share has left after the planned points: around crossings, then curves the plan
 * left out (measured through fc_measure). */
void fc_after_plan(struct runner *r, struct experiment_record *rec, struct fc_state *st);

/* flush_ceiling_measure.c: one point of a row at p pages; false when it was lost. */
bool fc_measure(struct runner *r, struct experiment_record *rec, struct fc_state *st,
                struct fc_row *row, uint32_t p, bool added);
/* flush_ceiling_summary.c: the row's summaries, one per full-flush mode. */
void fc_add_summary(struct fc_state *st, struct experiment_record *rec, struct fc_row *row);
/* flush_ceiling_measure.c: one point of the planning pilot: iterations at p pages on the
 * row's curve. */
bool fc_pilot_body(struct runner *r, struct fc_state *st, uint32_t p, const struct fc_where *at);

#endif
