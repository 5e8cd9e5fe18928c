/* The SQLite engine of the fleet database (fdb.h): a file, created when absent. */
#include "reports/tool/fleet/fdb.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SQLite 3.32+ takes up to 32766 parameters per statement (SQLITE_MAX_VARIABLE_NUMBER). */
#define SQLITE_PARAMS_PER_STATEMENT 30000
/* Another importer holding the file's lock: wait this long, then fail with SQLite's message. */
#define SQLITE_BUSY_MS 30000

/*
 * The statements use PostgreSQL's $N; SQLite reads "$1" as a *named*
 * parameter numbered by first appearance, which goes wrong as soon as a
 * statement uses $2 before $1 or one twice. "?N" is SQLite's explicit number:
 * rewrite $N to ?N outside quoted literals.
 */
static char *to_sqlite_params(const char *sql)
{
    char *out = strdup(sql), *p;
    bool quoted = false;
    if (!out)
        return NULL;
    for (p = out; *p; p++) {
        if (*p == '\'')
            quoted = !quoted;
        else if (!quoted && *p == '$' && p[1] >= '0' && p[1] <= '9')
            *p = '?';
    }
    return out;
}

static int prepare(struct fdb *db, const char *sql, int nparams, const char *const *params,
                   sqlite3_stmt **st)
{
    char *text = to_sqlite_params(sql);
    int i, rc;
    if (!text) {
        snprintf(db->error, sizeof(db->error), "out of memory");
        return -1;
    }
    rc = sqlite3_prepare_v2(db->conn, text, -1, st, NULL);
    free(text);
    if (rc != SQLITE_OK) {
        snprintf(db->error, sizeof(db->error), "%s", sqlite3_errmsg(db->conn));
        return -1;
    }
    for (i = 0; i < nparams; i++) {
        rc = params[i] ? sqlite3_bind_text(*st, i + 1, params[i], -1, SQLITE_STATIC)
                       : sqlite3_bind_null(*st, i + 1);
        if (rc != SQLITE_OK) {
            snprintf(db->error, sizeof(db->error), "%s", sqlite3_errmsg(db->conn));
            sqlite3_finalize(*st);
            return -1;
        }
    }
    return 0;
}

static int sq_query(struct fdb *db, const char *sql, int nparams, const char *const *params,
                    fdb_row_fn fn, void *ctx)
{
    sqlite3_stmt *st;
    int rc, stop = 0;
    if (prepare(db, sql, nparams, params, &st))
        return -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && !stop) {
        int n = sqlite3_column_count(st), i;
        const char *names[64], *values[64];
        if (!fn)
            continue;
        n = n > 64 ? 64 : n;
        for (i = 0; i < n; i++) {
            names[i] = sqlite3_column_name(st, i);
            values[i] = (const char *)sqlite3_column_text(st, i);
        }
        stop = fn(ctx, n, names, values);
    }
    if (!stop && rc != SQLITE_DONE) {
        snprintf(db->error, sizeof(db->error), "%s", sqlite3_errmsg(db->conn));
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

static int sq_exec(struct fdb *db, const char *sql, int nparams, const char *const *params)
{
    /* several statements without parameters (the schema): sqlite3_exec runs them all */
    if (nparams == 0) {
        char *msg = NULL;
        if (sqlite3_exec(db->conn, sql, NULL, NULL, &msg) != SQLITE_OK) {
            snprintf(db->error, sizeof(db->error), "%s", msg ? msg : sqlite3_errmsg(db->conn));
            sqlite3_free(msg);
            return -1;
        }
        return 0;
    }
    return sq_query(db, sql, nparams, params, NULL, NULL);
}

static void sq_close(struct fdb *db)
{
    sqlite3_close(db->conn);
    free(db);
}

static const struct fdb_ops sqlite_ops = {
    "sqlite", sq_exec, sq_query, sq_close, SQLITE_PARAMS_PER_STATEMENT,
};

struct fdb *fdb_sqlite_open(const char *path, char *err, size_t errcap)
{
    struct fdb *db = calloc(1, sizeof(*db));
    sqlite3 *conn = NULL;
    if (!db) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    if (sqlite3_open_v2(path, &conn, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        snprintf(err, errcap, "%s: cannot open as SQLite: %s", path,
                 conn ? sqlite3_errmsg(conn) : "out of memory");
        sqlite3_close(conn);
        free(db);
        return NULL;
    }
    sqlite3_busy_timeout(conn, SQLITE_BUSY_MS);
    db->ops = &sqlite_ops;
    db->conn = conn;
    /*
     * A file that is not a database fails here, with SQLite's "file is not a database".
     * WAL with synchronous=NORMAL: a commit per report no longer waits for the disk (an fsync
     * per report made 1,000 reports take a minute, 90% of it waiting); a crash can lose the
     * last reports' transactions, never consistency, and importing again restores them.
     */
    if (sq_exec(db, "PRAGMA foreign_keys = ON; SELECT count(*) FROM sqlite_master; "
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;", 0, NULL)) {
        snprintf(err, errcap, "%s: %s", path, db->error);
        sq_close(db);
        return NULL;
    }
    return db;
}
