/* The PostgreSQL engine of the fleet database (fdb.h), through libpq. */
#include "reports/tool/fleet/fdb.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The protocol carries a 16-bit parameter count. */
#define PG_PARAMS_PER_STATEMENT 60000
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

static int pg_query(struct fdb *db, const char *sql, int nparams, const char *const *params,
                    fdb_row_fn fn, void *ctx)
{
    PGresult *res = nparams ? PQexecParams(db->conn, sql, nparams, NULL, params, NULL, NULL, 0)
                            : PQexec(db->conn, sql);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    int rows, cols, r, c;
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        set_error(db, res);
        PQclear(res);
        return -1;
    }
    rows = PQntuples(res);
    cols = PQnfields(res) > 64 ? 64 : PQnfields(res);
    for (r = 0; r < rows && fn; r++) {
        const char *names[64], *values[64];
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

static int pg_exec(struct fdb *db, const char *sql, int nparams, const char *const *params)
{
    return pg_query(db, sql, nparams, params, NULL, NULL);
}

static void pg_close(struct fdb *db)
{
    PQfinish(db->conn);
    free(db);
}

static const struct fdb_ops pg_ops = {
    "postgresql", pg_exec, pg_query, pg_close, PG_PARAMS_PER_STATEMENT,
};

/* libpq prints NOTICEs ("relation exists, skipping") to stderr by default: keep them quiet. */
static void quiet_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

struct fdb *fdb_pg_open(const char *uri, char *err, size_t errcap)
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
    if (pg_exec(db, "SET client_min_messages = warning", 0, NULL)) {
        snprintf(err, errcap, "PostgreSQL: %s", db->error);
        pg_close(db);
        return NULL;
    }
    return db;
}
