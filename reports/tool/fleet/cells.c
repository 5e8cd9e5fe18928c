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

void cells_num(struct cells *c, double x)
{
    if (c->n >= CELLS_MAX)
        return;
    if (!isfinite(x)) {
        c->v[c->n++] = NULL;
        return;
    }
    if (x == floor(x) && fabs(x) < 9e15)
        snprintf(c->buf[c->n], sizeof(c->buf[0]), "%lld", (long long)x);
    else
        snprintf(c->buf[c->n], sizeof(c->buf[0]), "%.17g", x);
    c->v[c->n] = c->buf[c->n];
    c->n++;
}

void cells_int(struct cells *c, long long x)
{
    if (c->n >= CELLS_MAX)
        return;
    snprintf(c->buf[c->n], sizeof(c->buf[0]), "%lld", x);
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
