/*
 * One row's cells as the text fdb passes to either engine. Numbers are
 * written so that both engines store the same value: integers without a
 * decimal point (PostgreSQL refuses "3.0" for a BIGINT), others with 17
 * significant digits (every double reads back exactly); NaN is SQL NULL.
 */
#ifndef TLBSCOPE_FLEET_CELLS_H
#define TLBSCOPE_FLEET_CELLS_H

#include <stdbool.h>
#include <stddef.h>

#define CELLS_MAX 40

struct cells {
    const char *v[CELLS_MAX];
    char buf[CELLS_MAX][32];
    int n;
};

void cells_reset(struct cells *c);
void cells_text(struct cells *c, const char *s);  /* NULL: SQL NULL */
void cells_num(struct cells *c, double x);        /* NaN: SQL NULL */
void cells_int(struct cells *c, long long x);
void cells_opt_int(struct cells *c, long long x); /* negative: SQL NULL (unknown) */
void cells_bool(struct cells *c, bool b);
/* "%lld" without printf's machinery (a large report has millions of numbers): its length,
 * no NUL written. */
size_t cells_int_text(long long v, char out[24]);

#endif
