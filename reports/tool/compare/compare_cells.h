/* One side's runs of a point collected into a cell (reports/tool/compare/compare_cells.c). */
#ifndef TLBSCOPE_REPORT_COMPARE_CELLS_H
#define TLBSCOPE_REPORT_COMPARE_CELLS_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/compare/compare.h"

/*
 * Collects one side's runs of a point (p50/p99 in ticks, per run) into a
 * cell: the medians over the runs and the range of the p50s.
 */
struct cell_acc {
    double *p50, *p99; /* nall each */
    size_t n;
    bool emulated;
    double ci_lo, ci_hi; /* the first run's p50_ci95 (a cell of one run shows it) */
};

void cell_acc_add(const struct cmp_model *m, struct cell_acc *a, size_t run,
                  const struct m_experiment *e, double p50, double p99);
void cell_acc_add_metric(const struct cmp_model *m, struct cell_acc *a, size_t run,
                         const struct m_experiment *e, const struct m_stats *st);
void cell_acc_finish(const struct cmp_model *m, size_t side, struct cell_acc *a,
                     struct cmp_cell *c);
bool cell_acc_init(const struct cmp_model *m, struct cell_acc *a);
void cell_acc_free(struct cell_acc *a);

#endif
