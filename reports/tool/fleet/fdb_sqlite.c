/* The SQLite engine of the fleet database (fdb.h): a file, created by import when absent. */
#include "reports/tool/fleet/fdb.h"

#include "core/mutant.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Another importer holding the file's lock: wait this long, then fail with SQLite's message. */
#define SQLITE_BUSY_MS 30000
/*
 * Import's page cache: the indexes of a large report's million rows are
 * updated in place, and a cache that holds their upper levels keeps that
 * from rereading them. Negative: KiB (16 MiB, a third of the 50 MB report
 * import must fit in three times its size).
 */
#define SQLITE_IMPORT_CACHE "-16384"

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

static void set_error(struct fdb *db)
{
    snprintf(db->error, sizeof(db->error), "%s", sqlite3_errmsg(db->conn));
}

/* One statement: a second one after it is refused, not silently dropped. */
static int prepare(struct fdb *db, const char *sql, int nparams, const char *const *params,
                   sqlite3_stmt **st)
{
    char *text = to_sqlite_params(sql);
    const char *tail = NULL;
    sqlite3_stmt *next = NULL;
    int i, rc;
    if (!text) {
        snprintf(db->error, sizeof(db->error), "out of memory");
        return -1;
    }
    rc = sqlite3_prepare_v2(db->conn, text, -1, st, &tail);
    if (rc == SQLITE_OK && tail && *tail) {
        /* only whitespace and comments may follow: they prepare to no statement */
        if (sqlite3_prepare_v2(db->conn, tail, -1, &next, NULL) == SQLITE_OK && next) {
            sqlite3_finalize(next);
            sqlite3_finalize(*st);
            snprintf(db->error, sizeof(db->error), "more than one statement");
            free(text);
            return -1;
        }
    }
    free(text);
    if (rc != SQLITE_OK || !*st) {
        if (rc == SQLITE_OK)
            snprintf(db->error, sizeof(db->error), "no statement (only comments or spaces)");
        else
            set_error(db);
        return -1;
    }
    for (i = 0; i < nparams; i++) {
        rc = params[i] ? sqlite3_bind_text(*st, i + 1, params[i], -1, SQLITE_STATIC)
                       : sqlite3_bind_null(*st, i + 1);
        if (rc != SQLITE_OK) {
            set_error(db);
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
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = sqlite3_column_count(st), i;
        const char *names[FDB_MAX_COLS], *values[FDB_MAX_COLS];
        if (!fn)
            continue;
        if (n > FDB_MAX_COLS) {
            db->cols_cut = true;
            n = FDB_MAX_COLS;
        }
        for (i = 0; i < n; i++) {
            int type = sqlite3_column_type(st, i);
            names[i] = sqlite3_column_name(st, i);
            values[i] = (const char *)sqlite3_column_text(st, i);
            db->numeric[i] = type == SQLITE_INTEGER || type == SQLITE_FLOAT;
        }
        stop = fn(ctx, n, names, values);
    }
    if (!stop && rc != SQLITE_DONE) {
        set_error(db);
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

/* One INSERT with a ?N per column, prepared once per batch and stepped per row. */
static int sq_insert(struct fdb *db, struct fdb_batch *b)
{
    sqlite3_stmt *st = b->engine;
    size_t r;
    int c;
    if (!st) {
        size_t cap = strlen(b->table) + strlen(b->columns) + 32 + (size_t)b->ncols * 8;
        char *sql = malloc(cap), *p;
        if (!sql) {
            snprintf(db->error, sizeof(db->error), "out of memory");
            return -1;
        }
        p = sql + sprintf(sql, "INSERT INTO %s (%s) VALUES (", b->table, b->columns);
        for (c = 0; c < b->ncols; c++)
            p += sprintf(p, "%s?%d", c ? "," : "", c + 1);
        strcpy(p, ")");
        c = sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL);
        free(sql);
        if (c != SQLITE_OK) {
            set_error(db);
            return -1;
        }
        b->engine = st;
    }
    for (r = 0; r < b->nrows; r++) {
        for (c = 0; c < b->ncols; c++) {
            const char *v = fdb_batch_cell(b, r, c);
            if ((v ? sqlite3_bind_text(st, c + 1, v, -1, SQLITE_STATIC)
                   : sqlite3_bind_null(st, c + 1)) != SQLITE_OK) {
                set_error(db);
                sqlite3_reset(st);
                return -1;
            }
        }
        if (sqlite3_step(st) != SQLITE_DONE) {
            set_error(db);
            sqlite3_reset(st);
            return -1;
        }
        sqlite3_reset(st);
    }
    sqlite3_clear_bindings(st);
    return 0;
}

static void sq_insert_done(struct fdb *db, struct fdb_batch *b)
{
    (void)db;
    sqlite3_finalize(b->engine);
    b->engine = NULL;
}

/* Best effort, never waiting: another connection to the file keeps the mode as it is. */
static void journal_mode(struct fdb *db, const char *mode)
{
    char sql[48];
    snprintf(sql, sizeof(sql), "PRAGMA journal_mode = %s", mode);
    sqlite3_busy_timeout(db->conn, 0);
    sqlite3_exec(db->conn, sql, NULL, NULL, NULL);
    sqlite3_busy_timeout(db->conn, SQLITE_BUSY_MS);
}

static void sq_large_writes(struct fdb *db, bool large)
{
    journal_mode(db, large ? "DELETE" : "WAL");
}

static void sq_close(struct fdb *db)
{
    /*
     * At rest the file is in rollback-journal mode again: a reader (query, atlas) opens it
     * read-only, and in WAL mode that needs a -shm file it would create beside it, or fail
     * on a read-only directory.
     */
    if (db->mode == FDB_CREATE)
        journal_mode(db, "DELETE");
    sqlite3_close(db->conn);
    free(db);
}

static const struct fdb_ops sqlite_ops = {
    "sqlite", sq_exec, sq_query, sq_insert, sq_insert_done, sq_close, sq_large_writes,
    " WITHOUT ROWID",
};

struct fdb *fdb_sqlite_open(const char *path, enum fdb_mode mode, char *err, size_t errcap)
{
    struct fdb *db;
    sqlite3 *conn = NULL;
    struct stat st;
    int flags = mode == FDB_CREATE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                : MUTANT(fleet_query_writes) ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
    if (MUTANT(fleet_query_creates) && mode == FDB_READ) {
        FILE *f = fopen(path, "a");
        if (f)
            fclose(f);
    }
    if (mode == FDB_READ && stat(path, &st) != 0) {
        if (errno == ENOENT)
            snprintf(err, errcap, "%s: no such database\n"
                     "  (tlbscope-report import --db FILE REPORTS... creates one)", path);
        else
            snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (mode == FDB_READ && S_ISDIR(st.st_mode)) {
        snprintf(err, errcap, "%s: is a directory, not a database", path);
        return NULL;
    }
    if (!(db = calloc(1, sizeof(*db)))) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    if (sqlite3_open_v2(path, &conn, flags, NULL) != SQLITE_OK) {
        snprintf(err, errcap, "%s: cannot open as SQLite: %s", path,
                 conn ? sqlite3_errmsg(conn) : "out of memory");
        sqlite3_close(conn);
        free(db);
        return NULL;
    }
    sqlite3_busy_timeout(conn, SQLITE_BUSY_MS);
    db->ops = &sqlite_ops;
    db->conn = conn;
    db->mode = mode;
    /*
     * A file that is not a database fails here, with SQLite's "file is not a database".
     * import: WAL with synchronous=NORMAL: a commit per report no longer waits for the disk
     * (an fsync per report made 1,000 reports take a minute, 90% of it waiting); a crash can
     * lose the last reports' transactions, never consistency, and importing again restores
     * them. A new file gets 16 KiB pages (a large report's rows go in a few percent faster
     * than with 4 KiB; an existing file keeps its own). atlas, query: one read transaction,
     * so every query sees the same snapshot.
     */
    if (sq_exec(db, mode == FDB_CREATE
                        ? "PRAGMA page_size = 16384; PRAGMA foreign_keys = ON; "
                          "SELECT count(*) FROM sqlite_master; "
                          "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
                          "PRAGMA cache_size = " SQLITE_IMPORT_CACHE ";"
                        : "SELECT count(*) FROM sqlite_master; BEGIN;",
                0, NULL)) {
        snprintf(err, errcap, "%s: %s", path, db->error);
        db->mode = FDB_READ; /* nothing to put back */
        sq_close(db);
        return NULL;
    }
    return db;
}
