/*
 * Rows gathered for a multi-row insert (struct fdb_batch, reports/tool/fleet/fdb.h): the
 * cells' text in one buffer, handed to the engine's insert (db->ops) every FDB_BATCH_ROWS
 * rows. The engines read the cells back with fdb_batch_cell(); opening a database
 * (fdb.c) picks the engine, so this file and the engines never call fdb.c.
 */
#include "reports/tool/fleet/fdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fdb_batch_init(struct fdb_batch *b, struct fdb *db, const char *table, const char *columns,
                    int ncols)
{
    memset(b, 0, sizeof(*b));
    b->db = db;
    b->table = table;
    b->columns = columns;
    b->ncols = ncols;
}

void fdb_batches_begin(struct fdb *db)
{
    db->batch_failed = false;
    db->batch_error[0] = '\0';
}

static void batch_failed(struct fdb *db, const char *why)
{
    if (!db->batch_failed)
        snprintf(db->batch_error, sizeof(db->batch_error), "%s", why);
    db->batch_failed = true;
}

/* Room for one more row of cells whose text is `need` bytes. */
static bool batch_room(struct fdb_batch *b, size_t need)
{
    if (b->nrows == b->rows_cap) {
        size_t cap = b->rows_cap ? b->rows_cap * 2 : 64;
        size_t *c = realloc(b->cell, cap * (size_t)b->ncols * sizeof(*c));
        if (!c)
            return false;
        b->cell = c;
        b->rows_cap = cap;
    }
    if (b->len + need > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        char *t;
        while (cap < b->len + need)
            cap *= 2;
        if (!(t = realloc(b->text, cap)))
            return false;
        b->text = t;
        b->cap = cap;
    }
    return true;
}

void fdb_batch_row(struct fdb_batch *b, const char *const *cells)
{
    size_t need = 0, *row;
    int i;
    if (b->db->batch_failed)
        return;
    for (i = 0; i < b->ncols; i++)
        need += cells[i] ? strlen(cells[i]) + 1 : 0;
    if (!batch_room(b, need)) {
        batch_failed(b->db, "out of memory");
        return;
    }
    row = b->cell + b->nrows * (size_t)b->ncols;
    for (i = 0; i < b->ncols; i++) {
        size_t n;
        if (!cells[i]) {
            row[i] = FDB_NULL_CELL;
            continue;
        }
        n = strlen(cells[i]) + 1;
        memcpy(b->text + b->len, cells[i], n);
        row[i] = b->len;
        b->len += n;
    }
    b->nrows++;
    if (b->nrows >= FDB_BATCH_ROWS)
        fdb_batch_flush(b);
}

const char *fdb_batch_cell(const struct fdb_batch *b, size_t row, int col)
{
    size_t off = b->cell[row * (size_t)b->ncols + (size_t)col];
    return off == FDB_NULL_CELL ? NULL : b->text + off;
}

int fdb_batch_flush(struct fdb_batch *b)
{
    struct fdb *db = b->db;
    if (!db->batch_failed && b->nrows) {
        db->error[0] = '\0';
        if (db->ops->insert(db, b))
            batch_failed(db, db->error);
    }
    b->nrows = 0;
    b->len = 0;
    if (!db->batch_failed)
        return 0;
    snprintf(db->error, sizeof(db->error), "%s", db->batch_error);
    return -1;
}

void fdb_batch_free(struct fdb_batch *b)
{
    if (b->engine)
        b->db->ops->insert_done(b->db, b);
    free(b->text);
    free(b->cell);
    b->text = NULL;
    b->cell = NULL;
    b->cap = b->len = b->nrows = b->rows_cap = 0;
}
