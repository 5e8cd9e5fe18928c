/* The PostgreSQL engine of the fleet database (fdb.h), through libpq. */
#include "reports/tool/fleet/fdb.h"

#include "core/mutant.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* COPY's data goes to the server in pieces of about this many bytes. */
#define PG_COPY_CHUNK 65536
/* PostgreSQL's type OIDs of the numbers (catalog/pg_type.dat): int8, int2, int4, oid, float4,
 * float8, numeric */
static const unsigned pg_number_types[] = { 20, 21, 23, 26, 700, 701, 1700 };
/* A server that does not answer: fail after this long rather than hang. */
#define PG_CONNECT_TIMEOUT_S "10"

static void set_error(struct fdb *db, const PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(db->conn);
    size_t n;
    snprintf(db->error, sizeof(db->error), "%s", msg && *msg ? msg : PQerrorMessage(db->conn));
    n = strlen(db->error);
    while (n && (db->error[n - 1] == '\n' || db->error[n - 1] == ' '))
        db->error[--n] = '\0';
}

static bool is_number_type(Oid type)
{
    size_t i;
    for (i = 0; i < sizeof(pg_number_types) / sizeof(pg_number_types[0]); i++)
        if (type == pg_number_types[i])
            return true;
    return false;
}

/* One statement: the extended protocol (PQexecParams) refuses a second one. */
static int pg_query(struct fdb *db, const char *sql, int nparams, const char *const *params,
                    fdb_row_fn fn, void *ctx)
{
    PGresult *res = PQexecParams(db->conn, sql, nparams, NULL, params, NULL, NULL, 0);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    int rows, cols, r, c;
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        set_error(db, res);
        PQclear(res);
        return -1;
    }
    rows = PQntuples(res);
    cols = PQnfields(res);
    if (cols > FDB_MAX_COLS) {
        db->cols_cut = true;
        cols = FDB_MAX_COLS;
    }
    for (c = 0; c < cols; c++)
        db->numeric[c] = is_number_type(PQftype(res, c));
    for (r = 0; r < rows && fn; r++) {
        const char *names[FDB_MAX_COLS], *values[FDB_MAX_COLS];
        for (c = 0; c < cols; c++) {
            names[c] = PQfname(res, c);
            values[c] = PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c);
        }
        if (fn(ctx, cols, names, values))
            break;
    }
    PQclear(res);
    return 0;
}

/* Without parameters, several statements (the schema) in one PQexec. */
static int pg_exec(struct fdb *db, const char *sql, int nparams, const char *const *params)
{
    PGresult *res;
    ExecStatusType st;
    if (nparams)
        return pg_query(db, sql, nparams, params, NULL, NULL);
    res = PQexec(db->conn, sql);
    st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        set_error(db, res);
        PQclear(res);
        return -1;
    }
    PQclear(res);
    return 0;
}

/* COPY's text format: \N is NULL; backslash, tab, newline and carriage return escaped. */
static size_t copy_cell(char *out, const char *v)
{
    size_t n = 0;
    if (!v) {
        memcpy(out, "\\N", 2);
        return 2;
    }
    for (; *v; v++) {
        char e = *v == '\\' ? '\\' : *v == '\t' ? 't' : *v == '\n' ? 'n' : *v == '\r' ? 'r' : 0;
        if (e) {
            out[n++] = '\\';
            out[n++] = e;
        } else {
            out[n++] = *v;
        }
    }
    return n;
}

static int copy_send(struct fdb *db, const char *buf, size_t n)
{
    if (n && PQputCopyData(db->conn, buf, (int)n) != 1) {
        set_error(db, NULL);
        return -1;
    }
    return 0;
}

/*
 * The batch's rows through COPY ... FROM STDIN: the server parses a stream
 * of lines instead of a statement per row or a statement with thousands of
 * parameters (what made a 185,000-point report take minutes).
 */
static int pg_insert(struct fdb *db, struct fdb_batch *b)
{
    size_t cap = strlen(b->table) + strlen(b->columns) + 48, r, used = 0;
    char *sql = malloc(cap), *buf = malloc(PG_COPY_CHUNK);
    PGresult *res;
    int c, rc = 0;
    if (!sql || !buf) {
        free(sql);
        free(buf);
        snprintf(db->error, sizeof(db->error), "out of memory");
        return -1;
    }
    snprintf(sql, cap, "COPY %s (%s) FROM STDIN", b->table, b->columns);
    res = PQexec(db->conn, sql);
    free(sql);
    if (!res || PQresultStatus(res) != PGRES_COPY_IN) {
        set_error(db, res);
        PQclear(res);
        free(buf);
        return -1;
    }
    PQclear(res);
    for (r = 0; r < b->nrows && rc == 0; r++) {
        for (c = 0; c < b->ncols && rc == 0; c++) {
            const char *v = fdb_batch_cell(b, r, c);
            size_t worst = v ? 2 * strlen(v) + 1 : 3;
            if (used + worst > PG_COPY_CHUNK) {
                rc = copy_send(db, buf, used);
                used = 0;
                if (rc)
                    break;
            }
            if (worst > PG_COPY_CHUNK) { /* a cell larger than the buffer: on its own */
                char *big = malloc(worst);
                size_t n;
                if (!big) {
                    snprintf(db->error, sizeof(db->error), "out of memory");
                    rc = -1;
                    break;
                }
                n = copy_cell(big, v);
                big[n++] = c + 1 < b->ncols ? '\t' : '\n';
                rc = copy_send(db, big, n);
                free(big);
                continue;
            }
            used += copy_cell(buf + used, v);
            buf[used++] = c + 1 < b->ncols ? '\t' : '\n';
        }
    }
    if (rc == 0)
        rc = copy_send(db, buf, used);
    free(buf);
    if (PQputCopyEnd(db->conn, rc ? "tlbscope-report: import failed" : NULL) != 1) {
        set_error(db, NULL);
        rc = -1;
    }
    while ((res = PQgetResult(db->conn))) {
        if (PQresultStatus(res) != PGRES_COMMAND_OK && rc == 0) {
            set_error(db, res);
            rc = -1;
        }
        PQclear(res);
    }
    return rc;
}

static void pg_insert_done(struct fdb *db, struct fdb_batch *b)
{
    (void)db;
    b->engine = NULL;
}

static void pg_close(struct fdb *db)
{
    PQfinish(db->conn);
    free(db);
}

static const struct fdb_ops pg_ops = {
    "postgresql", pg_exec, pg_query, pg_insert, pg_insert_done, pg_close, NULL, "",
};

/* libpq prints NOTICEs ("relation exists, skipping") to stderr by default: keep them quiet. */
static void quiet_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

struct fdb *fdb_pg_open(const char *uri, enum fdb_mode mode, char *err, size_t errcap)
{
    const char *keys[] = { "dbname", "connect_timeout", "application_name", NULL };
    const char *vals[] = { uri, PG_CONNECT_TIMEOUT_S, "tlbscope-report", NULL };
    struct fdb *db = calloc(1, sizeof(*db));
    PGconn *conn;
    if (!db) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    /* expand_dbname: the URI is parsed into its parameters; connect_timeout, listed after it,
     * bounds the wait whatever the URI says (every wait has a deadline) */
    conn = PQconnectdbParams(keys, vals, 1);
    if (!conn || PQstatus(conn) != CONNECTION_OK) {
        char msg[400];
        size_t n;
        snprintf(msg, sizeof(msg), "%s", conn ? PQerrorMessage(conn) : "out of memory");
        n = strlen(msg);
        while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
            msg[--n] = '\0';
        /* the URI may hold a password: name the database by what libpq says, not the URI */
        snprintf(err, errcap, "cannot connect to PostgreSQL: %s", msg);
        PQfinish(conn);
        free(db);
        return NULL;
    }
    PQsetNoticeProcessor(conn, quiet_notice, NULL);
    db->ops = &pg_ops;
    db->conn = conn;
    db->mode = mode;
    /* atlas, query: every statement in one read-only transaction, on one snapshot; a
     * statement that writes fails ("cannot execute ... in a read-only transaction") */
    if (pg_exec(db, "SET client_min_messages = warning", 0, NULL) ||
        (mode == FDB_READ && !MUTANT(fleet_query_writes) &&
         pg_exec(db, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL))) {
        snprintf(err, errcap, "PostgreSQL: %s", db->error);
        pg_close(db);
        return NULL;
    }
    return db;
}
