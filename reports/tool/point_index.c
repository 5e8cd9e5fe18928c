#include "reports/tool/point_index.h"

#include <stdlib.h>
#include <string.h>

static const struct group_keys *sort_keys; /* qsort has no context argument in C11 */

static int cmp_point_vals(const struct m_point *p, const struct group_keys *k,
                          const struct m_param *const *vals)
{
    size_t i;
    for (i = 0; i < k->n; i++) {
        int c = model_param_cmp(model_param(p, k->keys[i]), vals[i]);
        if (c)
            return c;
    }
    return 0;
}

static int cmp_points(const void *a, const void *b)
{
    const struct m_point *x = *(const struct m_point *const *)a;
    const struct m_point *y = *(const struct m_point *const *)b;
    size_t i;
    for (i = 0; i < sort_keys->n; i++) {
        int c = model_param_cmp(model_param(x, sort_keys->keys[i]),
                                model_param(y, sort_keys->keys[i]));
        if (c)
            return c;
    }
    return x < y ? -1 : x > y; /* the points lie in one array: report order */
}

bool point_index_build(const struct m_points *pts, const struct group_keys *keys,
                       struct point_index *out)
{
    size_t i;
    memset(out, 0, sizeof(*out));
    out->keys = *keys;
    out->items = malloc((pts->count ? pts->count : 1) * sizeof(*out->items));
    if (!out->items)
        return false;
    for (i = 0; i < pts->count; i++)
        out->items[i] = &pts->items[i];
    out->n = pts->count;
    sort_keys = &out->keys;
    qsort(out->items, out->n, sizeof(*out->items), cmp_points);
    return true;
}

const struct m_point *point_index_find(const struct point_index *ix,
                                       const struct m_param *const *vals)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) { /* the lower bound: the first of equal points */
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_point_vals(ix->items[mid], &ix->keys, vals) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ix->n && cmp_point_vals(ix->items[lo], &ix->keys, vals) == 0 ? ix->items[lo]
                                                                             : NULL;
}

void point_index_free(struct point_index *ix)
{
    free(ix->items);
    memset(ix, 0, sizeof(*ix));
}
