/*
 * Grouping parameter points: which parameters an experiment's points vary,
 * the distinct combinations of their values (sorted), and the point for one
 * combination. The views use it to lay points out as rows, columns, chart
 * series and facets, driven by the experiment's axes.x and axes.series.
 */
#ifndef TLBSCOPE_REPORT_GROUP_H
#define TLBSCOPE_REPORT_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/model/model.h"

#define GROUP_MAX_KEYS 8

struct group_keys {
    const char *keys[GROUP_MAX_KEYS];
    size_t n;
};

/* Distinct value combinations of `keys`, sorted; value NULL = the point lacks the key. */
struct group_tuples {
    const struct m_param **vals; /* n * nkeys */
    size_t n, nkeys;
};

void group_keys_add(struct group_keys *k, const char *key);
/* The parameters of the points in `lists` (first seen first), except `skip_a` and `skip_b`. */
void group_other_keys(const struct m_points *const *lists, size_t nlists, const char *skip_a,
                      const char *skip_b, struct group_keys *out);
/* Facets first, then series, then x: the row order that reads well in tables. */
void group_row_keys(const struct m_points *const *lists, size_t nlists, const char *x_axis,
                    const char *series, struct group_keys *out);
/* The sorted distinct combinations over all `lists`. False when out of memory. */
bool group_tuples(const struct m_points *const *lists, size_t nlists, const struct group_keys *k,
                  struct group_tuples *out);
void group_tuples_free(struct group_tuples *t);
static inline const struct m_param *const *group_tuple(const struct group_tuples *t, size_t i)
{
    return &t->vals[i * t->nkeys];
}
/* Does `p` have exactly these values (NULL: lacks the key)? */
bool group_match(const struct m_point *p, const struct group_keys *k,
                 const struct m_param *const *vals);
/* The first point of `pts` that matches, or NULL. */
const struct m_point *group_find(const struct m_points *pts, const struct group_keys *k,
                                 const struct m_param *const *vals);
/* "pages=1 kind=local" for a tuple (keys with NULL values are left out). */
const char *group_tuple_text(const struct group_keys *k, const struct m_param *const *vals,
                             char *buf, size_t cap);

#endif
