#include "reports/tool/model/point_index.h"

#include <stdlib.h>
#include <string.h>

/* One point while sorting: its values of the keys, and its place in the report. */
struct sort_row {
    const struct m_param *const *vals;
    size_t at;
};

static size_t sort_nkeys; /* qsort has no context argument in C11 */

static int cmp_vals(const struct m_param *const *a, const struct m_param *const *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        int c = model_param_cmp(a[i], b[i]);
        if (c)
            return c;
    }
    return 0;
}

static int cmp_rows(const void *a, const void *b)
{
    const struct sort_row *x = a, *y = b;
    int c = cmp_vals(x->vals, y->vals, sort_nkeys);
    return c ? c : x->at < y->at ? -1 : x->at > y->at; /* ties: report order */
}

bool point_index_build(const struct m_points *pts, const struct group_keys *keys,
                       struct point_index *out)
{
    size_t i, k, n = pts->count, nk = keys->n, nv = n * nk;
    const struct m_param **vals;
    struct sort_row *rows;
    memset(out, 0, sizeof(*out));
    out->keys = *keys;
    out->items = malloc((n ? n : 1) * sizeof(*out->items));
    out->vals = malloc((nv ? nv : 1) * sizeof(*out->vals));
    vals = malloc((nv ? nv : 1) * sizeof(*vals));
    rows = malloc((n ? n : 1) * sizeof(*rows));
    if (!out->items || !out->vals || !vals || !rows) {
        free(vals);
        free(rows);
        point_index_free(out);
        return false;
    }
    for (i = 0; i < n; i++) {
        for (k = 0; k < nk; k++)
            vals[i * nk + k] = model_param(&pts->items[i], keys->keys[k]);
        rows[i].vals = &vals[i * nk];
        rows[i].at = i;
    }
    sort_nkeys = nk;
    qsort(rows, n, sizeof(*rows), cmp_rows);
    for (i = 0; i < n; i++) {
        out->items[i] = &pts->items[rows[i].at];
        if (nk)
            memcpy(&out->vals[i * nk], rows[i].vals, nk * sizeof(*out->vals));
    }
    out->n = n;
    free(vals);
    free(rows);
    return true;
}

const struct m_point *point_index_find(const struct point_index *ix,
                                       const struct m_param *const *vals)
{
    size_t lo = 0, hi = ix->n, nk = ix->keys.n;
    while (lo < hi) { /* the lower bound: the first of equal points */
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_vals(&ix->vals[mid * nk], vals, nk) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ix->n && cmp_vals(&ix->vals[lo * nk], vals, nk) == 0 ? ix->items[lo] : NULL;
}

void point_index_free(struct point_index *ix)
{
    free(ix->items);
    free(ix->vals);
    memset(ix, 0, sizeof(*ix));
}
