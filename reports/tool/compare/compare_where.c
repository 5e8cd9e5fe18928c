#include "reports/tool/compare/compare_where.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool compare_where_valid(const char *clause)
{
    const char *eq = strchr(clause, '=');
    return eq && eq != clause && eq[1];
}

/* The column of `key` among the keys (a section by class: "class" is column 0); -1: none. */
static int key_column(const struct cmp_section *s, const struct group_keys *keys, const char *key,
                      size_t keylen)
{
    size_t k;
    if (s->by_class && keys == &s->keys)
        return strlen("class") == keylen && strncmp(key, "class", keylen) == 0 ? 0 : -1;
    for (k = 0; k < keys->n; k++)
        if (strlen(keys->keys[k]) == keylen && strncmp(keys->keys[k], key, keylen) == 0)
            return (int)k;
    return -1;
}

bool compare_where_applies(const struct cmp_model *m, const struct cmp_section *s)
{
    size_t w;
    for (w = 0; w < m->opts.nwhere; w++) {
        const char *c = m->opts.where[w];
        if (key_column(s, &s->keys, c, (size_t)(strchr(c, '=') - c)) < 0)
            return false;
    }
    return true;
}

/* Does the value (or the class, for col -1 of a class row) read as the clause's? */
static bool value_is(const struct m_param *v, const char *want)
{
    char buf[64];
    return v && strcmp(model_param_text(v, buf, sizeof(buf)), want) == 0;
}

static bool row_matches(const struct cmp_model *m, const struct cmp_section *s,
                        const struct cmp_row *row)
{
    size_t w;
    for (w = 0; w < m->opts.nwhere; w++) {
        const char *c = m->opts.where[w], *want = strchr(c, '=') + 1;
        int col = key_column(s, &s->keys, c, (size_t)(want - 1 - c));
        if (col < 0 || (s->by_class ? strcmp(row->cls, want) != 0 : !value_is(row->vals[col], want)))
            return false;
    }
    return true;
}

static bool vrow_matches(const struct cmp_model *m, const struct cmp_section *s,
                         const struct cmp_value_row *row)
{
    size_t w;
    for (w = 0; w < m->opts.nwhere; w++) {
        const char *c = m->opts.where[w], *want = strchr(c, '=') + 1;
        int col = key_column(s, &s->vkeys, c, (size_t)(want - 1 - c));
        if (col < 0 || !value_is(row->vals[col], want))
            return false;
    }
    return true;
}

void compare_where_rows(const struct cmp_model *m, struct cmp_section *s)
{
    size_t j, kept = 0;
    for (j = 0; j < s->nrows; j++) {
        if (row_matches(m, s, &s->rows[j]))
            s->rows[kept++] = s->rows[j];
        else
            free(s->rows[j].cells);
    }
    s->nrows = kept;
    for (j = 0, kept = 0; j < s->nvrows; j++) {
        if (vrow_matches(m, s, &s->vrows[j]))
            s->vrows[kept++] = s->vrows[j];
        else
            free(s->vrows[j].v);
    }
    s->nvrows = kept;
}

bool compare_where_point(const struct cmp_model *m, const struct m_point *p)
{
    char key[64];
    size_t w, len;
    for (w = 0; w < m->opts.nwhere; w++) {
        const char *c = m->opts.where[w], *want = strchr(c, '=') + 1;
        len = (size_t)(want - 1 - c);
        snprintf(key, sizeof(key), "%.*s", (int)(len < sizeof(key) ? len : sizeof(key) - 1), c);
        if (!value_is(model_param(p, key), want))
            return false;
    }
    return true;
}
