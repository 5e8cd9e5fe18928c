/*
 * Finding a point by its parameter values in O(log n): the points sorted by
 * a list of keys, then searched. `show` lays out tables of 100 K points;
 * a linear search per cell made that quadratic (minutes).
 */
#ifndef TLBSCOPE_REPORT_POINT_INDEX_H
#define TLBSCOPE_REPORT_POINT_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/model/group.h"
#include "reports/tool/model/model.h"

struct point_index {
    const struct m_point **items; /* sorted by keys, ties in report order */
    /*
     * vals[i * keys.n + k]: items[i]'s parameter keys.keys[k] (NULL: lacks it),
     * looked up once: by name in every comparison, the sort of 100 K points
     * spent most of its time in strcmp.
     */
    const struct m_param **vals;
    size_t n;
    struct group_keys keys;
};

/* False when out of memory. */
bool point_index_build(const struct m_points *pts, const struct group_keys *keys,
                       struct point_index *out);
/* The first point (in report order) whose value of each key is vals[k] (NULL: lacks it). */
const struct m_point *point_index_find(const struct point_index *ix,
                                       const struct m_param *const *vals);
void point_index_free(struct point_index *ix);

#endif
