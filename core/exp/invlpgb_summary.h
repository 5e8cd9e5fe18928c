/*
 * invlpgb_range's crossover summary (core/exp/invlpgb.c, method): per
 * placement at one page, the smallest CPU count from which INVLPGB's p50
 * beats the IPIs' at every larger count measured of that placement.
 */
#ifndef TLBSCOPE_CORE_EXP_INVLPGB_SUMMARY_H
#define TLBSCOPE_CORE_EXP_INVLPGB_SUMMARY_H

#include "core/run/record.h"

/*
 * One summary row named `name` (params placement, pages 1; values cpus_from
 * where INVLPGB wins from some count, cpus_max) from the one-page Linux-path
 * points of placement `pl` (NULL: those that name none, the nearest-first
 * sweep's; busy_ws rows never) at `counts` CPUs, ascending.
 */
void ib_crossover_row(struct experiment_record *rec, const char *pl, const char *name,
                      const uint32_t *counts, uint32_t n);

#endif
