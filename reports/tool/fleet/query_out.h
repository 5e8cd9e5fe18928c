/*
 * `query`'s output: the rows of one statement as tab-separated text (the
 * default, for scripts), an aligned table, CSV (RFC 4180) or JSON (an array
 * of objects, one per row). Numbers are printed alike for both engines (an
 * integer exactly, any other value with at most 10 significant digits:
 * SQLite prints 30602.0 where PostgreSQL prints 30602); NULL is an empty
 * field, or null in JSON. Which values are numbers is the engine's type, not
 * a guess from the text. Strings reach a terminal escaped (no control
 * character drives it), CSV quoted, JSON escaped.
 */
#ifndef TLBSCOPE_FLEET_QUERY_OUT_H
#define TLBSCOPE_FLEET_QUERY_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/fleet/fdb.h"

enum query_format { QUERY_TSV, QUERY_ALIGNED, QUERY_CSV, QUERY_JSON };

/* "tsv", "aligned", "csv", "json": false for anything else. */
bool query_format_parse(const char *word, enum query_format *out);

struct query_out;
/* NULL when out of memory. */
struct query_out *query_out_new(enum query_format format, const struct fdb *db, FILE *out);
/* An fdb_row_fn: ctx is the query_out. */
int query_out_row(void *ctx, int ncols, const char *const *names, const char *const *values);
/* Prints what the format keeps until the end (the aligned table, JSON's closing bracket) and
 * frees; 0, or -1 when out of memory on the way. */
int query_out_finish(struct query_out *q);

#endif
