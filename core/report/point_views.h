/*
 * The views of an experiment's points that do not depend on the
 * architecture, given the rate of the counter its ticks were taken with:
 * the time cells, the generic one-line-per-point table and the IPI round
 * trip matrix. The x86 summary (report_views.c) and the aarch64 one
 * (report_text_arm64.c) print them alike. Only core/lib and core/run's
 * records here, so both builds compile it.
 */
#ifndef TLBSCOPE_CORE_POINT_VIEWS_H
#define TLBSCOPE_CORE_POINT_VIEWS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/lib/strbuf.h"
#include "core/run/record.h"

/* " 12.3 us": `ticks` (one of st's statistics) at hz, 9 wide; "-" without statistics. */
void view_cell_time(struct strbuf *sb, const struct stats *st, uint64_t ticks, uint64_t hz);
/* st's p99, or "n<100" where nearest rank would give the maximum (core/lib/stats.h). */
void view_cell_p99(struct strbuf *sb, const struct stats *st, uint64_t hz);

/* A parameter condition: string value when str is set, else number. */
struct view_cond {
    const char *key;
    const char *str;
    int64_t num;
};
/* The first point of l whose parameters meet all n conditions, or NULL. */
const struct result_point *view_find(const struct point_list *l, const struct view_cond *c,
                                     unsigned n);
#define VIEW_FIND(list, ...)                                                                       \
    view_find((list), (const struct view_cond[]){ __VA_ARGS__ },                                   \
              sizeof((const struct view_cond[]){ __VA_ARGS__ }) / sizeof(struct view_cond))
/* p's metric `name`, or NULL (p may be NULL). */
const struct stats *view_metric(const struct result_point *p, const char *name);

/*
 * One line per point (at most max_lines, then how many more the JSON has):
 * its parameters, the first metric's p50 and p99, its values; with
 * every_metric each further metric's as well. Lines stay within 80 columns.
 */
void view_points(struct strbuf *sb, const struct point_list *l, uint64_t hz, uint32_t max_lines,
                 bool every_metric);
/*
 * ipi_roundtrip's p50 round trip, initiator (rows) x target (columns) of
 * ncpus, then a line per topology class of the summary. False, writing
 * nothing, above 16 CPUs or without points: the caller shows the points.
 */
bool view_ipi_matrix(struct strbuf *sb, const struct experiment_record *e, uint32_t ncpus,
                     uint64_t hz);

#endif
