/*
 * The fleet database behind `tlbscope-report import`, `atlas` and `query`:
 * one small interface over two engines, SQLite (a file: the embedded
 * default) and PostgreSQL (a "postgresql://" or "postgres://" connection
 * URI: a lab's shared database). Every statement is written once, in the SQL
 * both engines accept, with parameters $1, $2, ... passed as text (NULL for
 * SQL NULL): each engine converts them to the column's type, so the two
 * databases hold the same values and answer the same queries alike.
 *
 * Only import writes: atlas and query open the database for reading (a
 * read-only SQLite connection; a READ ONLY transaction on PostgreSQL), so a
 * statement given to query cannot change it, and a path that does not exist
 * is refused rather than created empty.
 */
#ifndef TLBSCOPE_FLEET_FDB_H
#define TLBSCOPE_FLEET_FDB_H

#include <stdbool.h>
#include <stddef.h>

struct fdb;
struct fdb_batch;

enum fdb_mode {
    FDB_READ,   /* atlas, query: an existing database, read-only, one snapshot */
    FDB_CREATE, /* import: created when absent (SQLite), written */
};

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
    /* sends a batch's rows (fdb_batch_flush); 0 on success */
    int (*insert)(struct fdb *db, struct fdb_batch *b);
    /* drops what insert kept for the batch (a prepared statement) */
    void (*insert_done)(struct fdb *db, struct fdb_batch *b);
    void (*close)(struct fdb *db);
    /* the next transactions are large (true) or small (false): fdb_large_writes */
    void (*large_writes)(struct fdb *db, bool large);
    /* ends CREATE TABLE of the tables keyed by a report's points (schema.c) */
    const char *keyed_table_suffix;
};

/* Most columns a query's row may have (more are cut off, and said so). */
#define FDB_MAX_COLS 64

struct fdb {
    const struct fdb_ops *ops;
    void *conn;
    enum fdb_mode mode;
    /* during a row callback: which of the row's values the engine holds as numbers */
    bool numeric[FDB_MAX_COLS];
    /* the query's columns were more than FDB_MAX_COLS */
    bool cols_cut;
    char error[512];
    /* a batch failed since fdb_batches_begin: every batch stops, and flushes return this */
    bool batch_failed;
    char batch_error[512];
};

/* Opens (FDB_CREATE: creating a SQLite file when absent); NULL with the reason in `err`. */
struct fdb *fdb_open(const char *target, enum fdb_mode mode, char *err, size_t errcap);
bool fdb_is_postgresql_uri(const char *target);
void fdb_close(struct fdb *db);
const char *fdb_error(const struct fdb *db);
int fdb_exec(struct fdb *db, const char *sql, int nparams, const char *const *params);
int fdb_query(struct fdb *db, const char *sql, int nparams, const char *const *params,
              fdb_row_fn fn, void *ctx);
/*
 * Whether the transactions that follow write a large report (tens of MB) or small ones.
 * SQLite: small ones go through its write-ahead log (a commit per report does not wait for
 * the disk); a large one is written straight into the file, not once into the log and again
 * into the file (a fifth of a 60 MB report's import). Best effort: another connection to the
 * file keeps the log. PostgreSQL: nothing to do.
 */
void fdb_large_writes(struct fdb *db, bool large);
/* During a row callback: the engine holds column `col` of this row as a number. */
bool fdb_value_is_number(const struct fdb *db, int col);

/* Engine constructors: NULL with the reason in `err`. fdb_nopg.c stands in for fdb_pg.c in a
 * build without libpq (the release's static binary): it names what to do instead. */
struct fdb *fdb_sqlite_open(const char *path, enum fdb_mode mode, char *err, size_t errcap);
struct fdb *fdb_pg_open(const char *uri, enum fdb_mode mode, char *err, size_t errcap);

/*
 * Rows for one table. Each engine's bulk path sends them: SQLite steps one
 * prepared INSERT, kept for the batch's life, per row; PostgreSQL streams
 * them with COPY. Rows are sent every FDB_BATCH_ROWS rows as they come, so a
 * report of any size holds only that many at a time; cells are copied into
 * one text buffer.
 */
#define FDB_BATCH_ROWS 4096
/* Before the batches of one transaction: the first failure of any of them stops them all. */
void fdb_batches_begin(struct fdb *db);
struct fdb_batch {
    struct fdb *db;
    const char *table, *columns; /* "points", "run_key, exp_index, ..." */
    int ncols;
    char *text;     /* every cell's text, NUL-terminated, one after the other */
    size_t len, cap;
    size_t *cell;   /* nrows * ncols offsets into text; FDB_NULL_CELL for SQL NULL */
    size_t nrows, rows_cap;
    void *engine;   /* the engine's state for this batch (SQLite: the prepared statement) */
};
#define FDB_NULL_CELL ((size_t)-1)
void fdb_batch_init(struct fdb_batch *b, struct fdb *db, const char *table, const char *columns,
                    int ncols);
/* Appends one row of ncols cells (NULL: SQL NULL), sending the batch when it is full. */
void fdb_batch_row(struct fdb_batch *b, const char *const *cells);
/* Cell `col` of row `row`: its text, or NULL for SQL NULL. */
const char *fdb_batch_cell(const struct fdb_batch *b, size_t row, int col);
/* Sends every row held and empties the batch; 0 on success, -1 when this or any batch failed
 * since fdb_batches_begin, with the first failure's message in db->error. */
int fdb_batch_flush(struct fdb_batch *b);
void fdb_batch_free(struct fdb_batch *b);

#endif
