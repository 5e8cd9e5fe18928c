/*
 * ipi_roundtrip views: the initiator x target matrix ordered by topology
 * (package, core, thread) and the per-class summary (SMT sibling, same
 * package, cross package), shared by show, compare and html.
 */
#ifndef TLBSCOPE_REPORT_IPI_H
#define TLBSCOPE_REPORT_IPI_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/model/model.h"

#define IPI_EXPERIMENT "ipi_roundtrip"
#define IPI_MAX_CLASSES 8

struct ipi_matrix {
    size_t participants; /* CPUs seen as initiator or target */
    size_t n;            /* == participants, or 0 when over the caller's limit */
    long long *cpu; /* CPU index at each position, in topology order */
    double *p50;    /* n * n ticks, [initiator * n + target]; NaN where not measured */
    double lo, hi;  /* range of the measured cells (NaN when none) */
};

/*
 * From the results with numeric initiator and target. Leaves n == 0 when more
 * than `max_cpus` CPUs take part (a 768-CPU matrix is no view). False when out
 * of memory.
 */
bool ipi_matrix_build(const struct m_report *r, const struct m_experiment *e, size_t max_cpus,
                      struct ipi_matrix *out);
void ipi_matrix_free(struct ipi_matrix *m);
/* "3" or "3 (0/1/0)" with package/core/thread when the topology knows it. */
const char *ipi_cpu_label(const struct m_report *r, long long cpu, bool topo, char *buf,
                          size_t cap);

struct ipi_class_row {
    const char *cls;
    size_t pairs;      /* result points of this class */
    double p50, p99;   /* ticks */
    bool from_summary; /* else the median over the pairs' p50 and p99 */
};

/*
 * Rows nearest class first; from the summary points, or aggregated from the results.
 * Results without a class (aarch64 records none: contract A of issue 27) make one
 * IPI_ALL_PAIRS row.
 */
size_t ipi_class_rows(const struct m_experiment *e, struct ipi_class_row rows[IPI_MAX_CLASSES]);
/*
 * The row "all_pairs": every pair's p50 and p99, their medians. What compares across
 * architectures, whose topology classes mean different things (issue 27).
 */
#define IPI_ALL_PAIRS "all_pairs"
size_t ipi_all_pairs_row(const struct m_experiment *e, struct ipi_class_row *row);

#endif
