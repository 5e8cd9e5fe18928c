#include "reports/tool/fleet/fdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fdb_is_postgresql_uri(const char *target)
{
    return strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0;
}

struct fdb *fdb_open(const char *target, enum fdb_mode mode, char *err, size_t errcap)
{
    if (!target || !*target) {
        snprintf(err, errcap, "no database given (--db FILE or --db postgresql://...)");
        return NULL;
    }
    return fdb_is_postgresql_uri(target) ? fdb_pg_open(target, mode, err, errcap)
                                         : fdb_sqlite_open(target, mode, err, errcap);
}

void fdb_close(struct fdb *db)
{
    if (db)
        db->ops->close(db);
}

const char *fdb_error(const struct fdb *db)
{
    return db->error;
}

int fdb_exec(struct fdb *db, const char *sql, int nparams, const char *const *params)
{
    db->error[0] = '\0';
    return db->ops->exec(db, sql, nparams, params);
}

int fdb_query(struct fdb *db, const char *sql, int nparams, const char *const *params,
              fdb_row_fn fn, void *ctx)
{
    db->error[0] = '\0';
    db->cols_cut = false;
    return db->ops->query(db, sql, nparams, params, fn, ctx);
}

void fdb_large_writes(struct fdb *db, bool large)
{
    if (db->ops->large_writes)
        db->ops->large_writes(db, large);
}

bool fdb_value_is_number(const struct fdb *db, int col)
{
    return col >= 0 && col < FDB_MAX_COLS && db->numeric[col];
}

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
