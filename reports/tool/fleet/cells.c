#include "reports/tool/fleet/cells.h"

#include <math.h>
#include <stdio.h>

void cells_reset(struct cells *c)
{
    c->n = 0;
}

void cells_text(struct cells *c, const char *s)
{
    if (c->n < CELLS_MAX)
        c->v[c->n++] = s;
}

size_t cells_int_text(long long v, char out[24])
{
    char rev[24];
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    size_t n = 0, k = 0;
    do
        rev[n++] = (char)('0' + u % 10);
    while ((u /= 10));
    if (v < 0)
        out[k++] = '-';
    while (n)
        out[k++] = rev[--n];
    return k;
}

void cells_int(struct cells *c, long long x)
{
    if (c->n >= CELLS_MAX)
        return;
    c->buf[c->n][cells_int_text(x, c->buf[c->n])] = '\0';
    c->v[c->n] = c->buf[c->n];
    c->n++;
}

void cells_num(struct cells *c, double x)
{
    if (c->n >= CELLS_MAX)
        return;
    if (!isfinite(x)) {
        c->v[c->n++] = NULL;
        return;
    }
    if (x == floor(x) && fabs(x) < 9e15) {
        cells_int(c, (long long)x);
        return;
    }
    snprintf(c->buf[c->n], sizeof(c->buf[0]), "%.17g", x);
    c->v[c->n] = c->buf[c->n];
    c->n++;
}

void cells_opt_int(struct cells *c, long long x)
{
    if (x < 0)
        cells_text(c, NULL);
    else
        cells_int(c, x);
}

void cells_bool(struct cells *c, bool b)
{
    cells_int(c, b ? 1 : 0);
}
