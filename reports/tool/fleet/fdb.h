/*
 * The fleet database behind `tlbscope-report import`, `atlas` and `query`:
 * one small interface over two engines, SQLite (a file: the embedded
 * default) and PostgreSQL (a "postgresql://" or "postgres://" connection
 * URI: a lab's shared database). Every statement is written once, in the SQL
 * both engines accept, with parameters $1, $2, ... passed as text (NULL for
 * SQL NULL): each engine converts them to the column's type, so the two
 * databases hold the same values and answer the same queries alike.
 */
#ifndef TLBSCOPE_FLEET_FDB_H
#define TLBSCOPE_FLEET_FDB_H

#include <stdbool.h>
#include <stddef.h>

struct fdb;

/* The engine-specific half (fdb_sqlite.c, fdb_pg.c). */
typedef int (*fdb_row_fn)(void *ctx, int ncols, const char *const *names,
                          const char *const *values);
struct fdb_ops {
    const char *kind; /* "sqlite", "postgresql" */
    /* 0 on success; otherwise the engine's message is in the handle (fdb_error) */
    int (*exec)(struct fdb *db, const char *sql, int nparams, const char *const *params);
    /* calls fn per row (values NULL for SQL NULL); fn returning non-zero stops the query */
    int (*query)(struct fdb *db, const char *sql, int nparams, const char *const *params,
                 fdb_row_fn fn, void *ctx);
    void (*close)(struct fdb *db);
    /* the most parameters one statement may carry (fdb_batch splits above it) */
    int max_params;
};

struct fdb {
    const struct fdb_ops *ops;
    void *conn;
    char error[512];
};

/* Opens (creating a SQLite file when absent); NULL with the reason in `err`. */
struct fdb *fdb_open(const char *target, char *err, size_t errcap);
bool fdb_is_postgresql_uri(const char *target);
void fdb_close(struct fdb *db);
const char *fdb_error(const struct fdb *db);
int fdb_exec(struct fdb *db, const char *sql, int nparams, const char *const *params);
int fdb_query(struct fdb *db, const char *sql, int nparams, const char *const *params,
              fdb_row_fn fn, void *ctx);

/* Engine constructors: NULL with the reason in `err`. */
struct fdb *fdb_sqlite_open(const char *path, char *err, size_t errcap);
struct fdb *fdb_pg_open(const char *uri, char *err, size_t errcap);

/*
 * Rows for one table, sent as multi-row INSERTs (one statement per few
 * thousand rows instead of one per row: a round trip per row made PostgreSQL
 * import ten times slower than SQLite). Cells are copied.
 */
struct fdb_batch {
    const char *table, *columns; /* "points", "run_key, exp_index, ..." */
    const char *conflict;        /* e.g. "ON CONFLICT (machine_id) DO NOTHING", or NULL */
    int ncols;
    char **cells;                /* nrows * ncols, NULL cells are SQL NULL */
    size_t nrows, cap;
    bool oom;
};
void fdb_batch_init(struct fdb_batch *b, const char *table, const char *columns, int ncols,
                    const char *conflict);
/* Appends one row of ncols cells. */
void fdb_batch_row(struct fdb_batch *b, const char *const *cells);
/* Sends every row and empties the batch; 0 on success. */
int fdb_batch_flush(struct fdb *db, struct fdb_batch *b);
void fdb_batch_free(struct fdb_batch *b);

#endif
