#include "reports/tool/fleet/fdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fdb_is_postgresql_uri(const char *target)
{
    return strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0;
}

struct fdb *fdb_open(const char *target, char *err, size_t errcap)
{
    if (!target || !*target) {
        snprintf(err, errcap, "no database given (--db FILE or --db postgresql://...)");
        return NULL;
    }
    return fdb_is_postgresql_uri(target) ? fdb_pg_open(target, err, errcap)
                                         : fdb_sqlite_open(target, err, errcap);
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
    return db->ops->query(db, sql, nparams, params, fn, ctx);
}

void fdb_batch_init(struct fdb_batch *b, const char *table, const char *columns, int ncols,
                    const char *conflict)
{
    memset(b, 0, sizeof(*b));
    b->table = table;
    b->columns = columns;
    b->ncols = ncols;
    b->conflict = conflict;
}

void fdb_batch_row(struct fdb_batch *b, const char *const *cells)
{
    int i;
    if (b->oom)
        return;
    if (b->nrows == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        char **c = realloc(b->cells, cap * (size_t)b->ncols * sizeof(*c));
        if (!c) {
            b->oom = true;
            return;
        }
        b->cells = c;
        b->cap = cap;
    }
    for (i = 0; i < b->ncols; i++) {
        char *copy = NULL;
        if (cells[i] && !(copy = strdup(cells[i])))
            b->oom = true;
        b->cells[b->nrows * (size_t)b->ncols + (size_t)i] = copy;
    }
    b->nrows++;
}

static void batch_clear(struct fdb_batch *b)
{
    size_t i;
    for (i = 0; i < b->nrows * (size_t)b->ncols; i++)
        free(b->cells[i]);
    b->nrows = 0;
}

/* One INSERT of rows [first, first + n). */
static int batch_send(struct fdb *db, struct fdb_batch *b, size_t first, size_t n)
{
    size_t cap = strlen(b->table) + strlen(b->columns) + 64 +
                 (b->conflict ? strlen(b->conflict) : 0) + n * (size_t)b->ncols * 9 + n * 4;
    char *sql = malloc(cap), *p;
    size_t r;
    int c, k = 0, rc;
    if (!sql) {
        snprintf(db->error, sizeof(db->error), "out of memory");
        return -1;
    }
    p = sql + sprintf(sql, "INSERT INTO %s (%s) VALUES ", b->table, b->columns);
    for (r = 0; r < n; r++) {
        *p++ = r ? ',' : ' ';
        *p++ = '(';
        for (c = 0; c < b->ncols; c++)
            p += sprintf(p, "%s$%d", c ? "," : "", ++k);
        *p++ = ')';
    }
    if (b->conflict)
        p += sprintf(p, " %s", b->conflict);
    *p = '\0';
    rc = fdb_exec(db, sql, k, (const char *const *)(b->cells + first * (size_t)b->ncols));
    free(sql);
    return rc;
}

int fdb_batch_flush(struct fdb *db, struct fdb_batch *b)
{
    size_t per = (size_t)(db->ops->max_params / b->ncols), done = 0;
    int rc = 0;
    if (b->oom) {
        snprintf(db->error, sizeof(db->error), "out of memory");
        batch_clear(b);
        b->oom = false;
        return -1;
    }
    while (done < b->nrows && rc == 0) {
        size_t n = b->nrows - done < per ? b->nrows - done : per;
        rc = batch_send(db, b, done, n);
        done += n;
    }
    batch_clear(b);
    return rc;
}

void fdb_batch_free(struct fdb_batch *b)
{
    batch_clear(b);
    free(b->cells);
    b->cells = NULL;
    b->cap = 0;
}
