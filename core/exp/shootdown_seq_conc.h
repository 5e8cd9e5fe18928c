/*
 * What shootdown_seq_conc (core/exp/shootdown_seq_conc.c) shares with the
 * measuring of one point (core/exp/shootdown_seq_conc_point.c): its state,
 * a point's job and variants, and the point's functions.
 */
#ifndef TLBSCOPE_CORE_EXP_SHOOTDOWN_SEQ_CONC_H
#define TLBSCOPE_CORE_EXP_SHOOTDOWN_SEQ_CONC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/exp/common.h"
#include "core/exp/shootdown_breakdown.h"
#include "core/machine/placement.h"
#include "core/run/runner_plan.h"

#define MAX_PAGE_COUNTS 12
#define PLACE_COUNTS 4     /* target counts per placement */
#define SC_NEAREST UINT32_MAX /* the grid's targets: nearest first */

#define MAX_PLACED (PLACE_COUNT * PLACE_COUNTS + MAX_TARGET_COUNTS)
#define MAX_TARGET_COUNTS 16
#define MAX_COLUMNS (MAX_PAGE_COUNTS * EXP_MAX_FULL_FLUSHES)
/* the variants of one (k, p): both orders, with each full-flush method above the ceiling */
#define SC_MAX_VARIANTS (2 * EXP_MAX_FULL_FLUSHES)

struct sc_state {
    struct shootdown sd;
    struct target_set ts;
    uint32_t *order;
    uint32_t norder;
    uint32_t counts[MAX_TARGET_COUNTS], ncounts;
    uint32_t pages[MAX_PAGE_COUNTS], npages;
    /* (pages, flush method) per point: each count above the ceiling once per full-flush method */
    uint32_t col_pages[MAX_COLUMNS], col_flush[MAX_COLUMNS], ncols;
    /* per page count: its first column, and its columns (flush methods): what the plan thins */
    uint32_t page_col[MAX_PAGE_COUNTS];
    uint8_t page_variants[MAX_PAGE_COUNTS];
    uint32_t ceiling_page; /* index of the configured ceiling's page count (the last at or below) */
    const char *flushes[EXP_MAX_FULL_FLUSHES];
    uint64_t *lat[SC_MAX_VARIANTS], *handler[SC_MAX_VARIANTS], *base;
    struct breakdown parts[SC_MAX_VARIANTS]; /* where each sample's time goes */
    uint32_t first[SC_MAX_VARIANTS]; /* iterations (of the samples) each variant ran first */
    uint32_t nbase;
    const struct runner *r; /* the order seed (exp_variant_order()) */
    struct plan plan; /* which points run_budget_s leaves (every one without planning) */
    /* the placement points: (placement, target count), and their samples */
    uint32_t placed[MAX_PLACED], placed_k[MAX_PLACED], nplaced;
    bool placed_cluster[MAX_PLACED]; /* x2APIC cluster-mode IPIs (nearest first) */
    uint32_t placed_samples, placed_warmup;
};

struct sc_variant {
    uint8_t conc;  /* 0: sequential, 1: concurrent */
    uint8_t flush; /* the full-flush method (index into sc_state.flushes) above the ceiling */
};

struct point_job {
    struct sc_state *st;
    uint32_t pages, samples, warmup, nbase;
    volatile uint64_t progress;
    uint64_t salt; /* the point, for its variant order */
    uint32_t nvariants;
    struct sc_variant variant[SC_MAX_VARIANTS];
};

int64_t sc_ratio_milli(uint64_t num, uint64_t den);
void sc_add_point(struct experiment_record *rec, struct sc_state *st, uint32_t init, uint32_t v,
                  const char *mode, uint32_t placement, uint32_t k, uint32_t p,
                  const char *flush, uint32_t samples, uint32_t nbase, uint32_t paired_run,
                  struct stats *lat_out);
bool sc_point(struct runner *r, struct experiment_record *rec, struct sc_state *st,
              uint32_t placement, uint32_t k, struct point_job *job,
              uint64_t *setup_ticks, uint64_t *run_ticks);

#endif
