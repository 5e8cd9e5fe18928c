/*
 * What the invlpgb experiment (core/exp/invlpgb.c) shares with its sampling
 * (core/exp/invlpgb_sample.c): its state, the forms and paths of a range,
 * and the sampling functions.
 */
#ifndef TLBSCOPE_CORE_EXP_INVLPGB_SAMPLE_H
#define TLBSCOPE_CORE_EXP_INVLPGB_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/exp/common.h"
#include "core/exp/invlpgb_busy.h"
#include "core/machine/emulate.h"
#include "core/machine/placement.h"
#include "core/run/runner_plan.h"

#define MAX_SWEEP_CPUS 31 /* 2 .. 2^31: more than any machine this runs on */
#define PLACE_SWEEP 4     /* CPU counts per placement */
#define MAX_PLACED (PLACE_COUNT * PLACE_SWEEP)
#define IB_NEAREST UINT32_MAX

/* The methods of a range: both on Linux's path, and INVLPGB's range in chunks above the ceiling. */
enum method { METHOD_INVLPGB = 0, METHOD_IPI, METHOD_CHUNKED, NMETHODS };

struct ib_state {
    struct shootdown sd;
    struct target_set ts;
    uint32_t max_pages;
    uint64_t *lat[NMETHODS], *base; /* per method (enum method) */
    uint32_t *order;  /* other CPUs, nearest first (the sweep's targets) */
    uint32_t norder;
    uint32_t sweep_cpus[MAX_SWEEP_CPUS]; /* 2, 4, 8, ... below every CPU */
    uint32_t nsweep;
    /* the placement sweep (one page): placement and CPU count c of each point */
    uint32_t placed[MAX_PLACED], placed_cpus[MAX_PLACED], nplaced;
    struct plan plan; /* the samples run_budget_s leaves */
    struct ib_busy busy; /* the busy_ws rows (core/exp/invlpgb_busy.h) */
    bool pcid_on, busy_rows;
};

enum form { FORM_PAGES = 0, FORM_STRIDE_2M, FORM_PCID };
/* linux: what Linux issues (one whole-PCID INVLPGB above the ceiling); chunked: the range */
enum path { PATH_LINUX = 0, PATH_CHUNKED };

/* What one method of a range measured. */
struct ib_method {
    struct stats lat, base;
    uint32_t first;                  /* iterations it ran first */
    uint64_t emulated_invlpgb, emulated_tlbsync; /* handled by the emulator for it */
};

void ib_flush(struct ib_state *st, enum form form, uint32_t count, bool pcid_on,
              enum path path);
uint64_t ib_sample_one(struct ib_state *st, enum form form, uint32_t count, enum method m,
                       bool pcid_on);
void ib_count_emulated(struct ib_method *m, const struct emulation_counts *before);
bool ib_sample_point(struct runner *r, struct ib_state *st, enum form form, uint32_t count,
                     uint32_t mask, uint64_t salt, struct ib_method out[NMETHODS]);
bool ib_has_chunked(const struct ib_state *st, enum form form, uint32_t count, uint32_t ncpus);

#endif
