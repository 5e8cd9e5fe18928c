/*
 * What shootdown_contention (core/exp/shootdown_contention.c) shares with
 * running one phase of a point (core/exp/shootdown_contention_phase.c): its
 * state, a phase's job and an initiator's share, and the phase's functions.
 */
#ifndef TLBSCOPE_CORE_EXP_SHOOTDOWN_CONTENTION_H
#define TLBSCOPE_CORE_EXP_SHOOTDOWN_CONTENTION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/exp/common.h"
#include "core/machine/placement.h"
#include "core/machine/shootdown_multi.h"

#define CT_MIN_SAMPLES 10u
#define CT_NEAREST UINT32_MAX       /* the grid: every usable CPU, nearest first */
#define CT_PLACED_MS 3u             /* a placement column's m: 1, 2 and its every CPU */

enum ct_mode { CT_ALL = 0, CT_GROUPS };
enum ct_method { CT_IPI = 0, CT_INVLPGB };

struct ct_state;

enum ct_phase { CT_ROUNDS = 0, CT_STEADY };

/* One phase of a point: what every initiator needs. Allocated aligned (its barrier's lines). */
struct ct_job {
    struct mi_point pt;
    struct ct_state *st;
    enum ct_phase phase;
    uint32_t pages, rounds, warmup, ninit;
    uint64_t window_ticks;      /* the steady window */
    volatile uint32_t stop;     /* steady: the BSP closes the window */
    volatile uint32_t all_done;
    volatile uint64_t done;
    struct spin_arg linger;     /* finished initiators keep taking IPIs until all_done */
} __attribute__((aligned(CACHE_LINE)));

/* One initiator's share of a point (its own line: written by it only). */
struct ct_arg {
    struct ct_job *job;
    struct mi_part part;
    uint32_t k;                 /* initiator number: its pages and its sample slice */
    uint32_t *targets;
    volatile uint64_t steady;   /* its shootdowns in the steady loop (release; the BSP reads) */
    volatile uint64_t remap;    /* its ticks remapping in the loop (released before `steady`) */
} __attribute__((aligned(CACHE_LINE)));

struct ct_state {
    struct shootdown sd;
    struct shootdown_multi mi;
    struct target_set ts;     /* the CPUs that only take IPIs */
    struct ct_job *job;
    uint32_t *order, norder;  /* BSP first, then topology order (or the placement's CPUs) */
    uint32_t placement;       /* CT_NEAREST: the grid's; else core/machine/placement.h */
    uint32_t usable_seen;     /* usable CPUs when the order was made */
    bool placements;          /* the BSP's CPUs fall in 2 classes or more: placement columns */
    uint32_t *start;          /* partition, m + 1 entries */
    uint32_t *inits;
    struct ct_arg *args;      /* by initiator number */
    uint32_t *targets;        /* ncpus lists of up to ncpus targets */
    uint64_t *lat;            /* ninit x samples */
    uint32_t samples, warmup;
    bool invlpgb, invlpgb_emulated;
    uint32_t max_chunk;       /* INVLPGB pages per instruction */
    uint32_t page_counts[2], npages;
    uint64_t window_ticks;    /* the steady window, set once before the first point */
    /* the BSP's results of the running point */
    uint64_t round_ticks;     /* its recorded rounds, opening to closing barrier */
    uint64_t steady_ticks, steady_count; /* the last window's */
    int64_t steady_no_remap;  /* the last window's rate without the remaps (x 1000) */
};

/* One phase of a point (the timed rounds or the steady window) on every initiator. */
bool ct_run_point(struct runner *r, struct ct_state *st, struct ct_job *job, enum ct_phase ph);

#endif
