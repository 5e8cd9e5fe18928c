#include "reports/tool/model/group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void group_keys_add(struct group_keys *k, const char *key)
{
    size_t i;
    if (!key)
        return;
    for (i = 0; i < k->n; i++)
        if (strcmp(k->keys[i], key) == 0)
            return;
    if (k->n < GROUP_MAX_KEYS)
        k->keys[k->n++] = key;
}

static bool same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

void group_other_keys(const struct m_points *const *lists, size_t nlists, const char *skip_a,
                      const char *skip_b, struct group_keys *out)
{
    size_t l, i, j;
    memset(out, 0, sizeof(*out));
    for (l = 0; l < nlists; l++) {
        if (!lists[l])
            continue;
        for (i = 0; i < lists[l]->count; i++) {
            const struct m_point *p = &lists[l]->items[i];
            for (j = 0; j < p->nparams; j++)
                if (!same(p->params[j].key, skip_a) && !same(p->params[j].key, skip_b))
                    group_keys_add(out, p->params[j].key);
        }
    }
}

static bool any_has(const struct m_points *const *lists, size_t nlists, const char *key)
{
    size_t l, i;
    for (l = 0; key && l < nlists; l++)
        for (i = 0; lists[l] && i < lists[l]->count; i++)
            if (model_param(&lists[l]->items[i], key))
                return true;
    return false;
}

void group_row_keys(const struct m_points *const *lists, size_t nlists, const char *x_axis,
                    const char *series, struct group_keys *out)
{
    group_other_keys(lists, nlists, x_axis, series, out);
    if (any_has(lists, nlists, series))
        group_keys_add(out, series);
    if (any_has(lists, nlists, x_axis))
        group_keys_add(out, x_axis);
}

static size_t sort_nkeys; /* qsort has no context argument in C11 */

static int cmp_tuple(const void *a, const void *b)
{
    const struct m_param *const *x = a, *const *y = b;
    size_t i;
    for (i = 0; i < sort_nkeys; i++) {
        int c = model_param_cmp(x[i], y[i]);
        if (c)
            return c;
    }
    return 0;
}

bool group_tuples(const struct m_points *const *lists, size_t nlists, const struct group_keys *k,
                  struct group_tuples *out)
{
    size_t total = 0, l, i, j, n = 0, kept = 0, nk = k->n ? k->n : 1;
    const struct m_param **v;
    memset(out, 0, sizeof(*out));
    out->nkeys = nk;
    for (l = 0; l < nlists; l++)
        total += lists[l] ? lists[l]->count : 0;
    if (!total)
        return true;
    v = calloc(total * nk, sizeof(*v));
    if (!v)
        return false;
    for (l = 0; l < nlists; l++) {
        for (i = 0; lists[l] && i < lists[l]->count; i++, n++)
            for (j = 0; j < k->n; j++)
                v[n * nk + j] = model_param(&lists[l]->items[i], k->keys[j]);
    }
    sort_nkeys = nk;
    qsort(v, n, nk * sizeof(*v), cmp_tuple);
    for (i = 0; i < n; i++) {
        if (kept && cmp_tuple(&v[i * nk], &v[(kept - 1) * nk]) == 0)
            continue;
        if (kept != i)
            memcpy(&v[kept * nk], &v[i * nk], nk * sizeof(*v));
        kept++;
    }
    out->vals = v;
    out->n = kept;
    return true;
}

void group_tuples_free(struct group_tuples *t)
{
    free(t->vals);
    memset(t, 0, sizeof(*t));
}

bool group_match(const struct m_point *p, const struct group_keys *k,
                 const struct m_param *const *vals)
{
    size_t j;
    for (j = 0; j < k->n; j++)
        if (model_param_cmp(model_param(p, k->keys[j]), vals[j]) != 0)
            return false;
    return true;
}

const struct m_point *group_find(const struct m_points *pts, const struct group_keys *k,
                                 const struct m_param *const *vals)
{
    size_t i;
    for (i = 0; pts && i < pts->count; i++)
        if (group_match(&pts->items[i], k, vals))
            return &pts->items[i];
    return NULL;
}

const char *group_tuple_text(const struct group_keys *k, const struct m_param *const *vals,
                             char *buf, size_t cap)
{
    size_t j, len = 0;
    char v[64];
    if (!cap)
        return "";
    buf[0] = '\0';
    for (j = 0; j < k->n && len < cap; j++) {
        if (!vals[j])
            continue;
        snprintf(buf + len, cap - len, "%s%s=%s", len ? " " : "", k->keys[j],
                 model_param_text(vals[j], v, sizeof(v)));
        len = strlen(buf);
    }
    return buf;
}
