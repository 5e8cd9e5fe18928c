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
