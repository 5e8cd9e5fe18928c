#include "reports/tool/fleet/cli.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/fleet/atlas.h"
#include "reports/tool/fleet/fdb.h"
#include "reports/tool/fleet/import.h"
#include "reports/tool/fleet/query_out.h"
#include "reports/tool/fleet/schema.h"
#include "reports/tool/fleet/sql_split.h"
#include "reports/tool/model/exit_status.h"
#include "reports/tool/model/inputs.h"
#include "reports/tool/model/sanitize.h"

#define PREFIX "tlbscope-report: "

const char fleet_import_help[] =
    "usage: tlbscope-report import --db DB FILE|DIR...\n"
    "Loads reports into the fleet database (docs/fleet.md): machines, CPU\n"
    "models, runs, experiments, points, recommendations, conditions and headline\n"
    "figures, each report's JSON kept verbatim. DB is a SQLite file (created when\n"
    "absent) or a PostgreSQL URI (postgresql://USER@HOST:PORT/DBNAME); both hold the\n"
    "same schema. Only import creates or changes a database (it upgrades one of fleet\n"
    "schema version 1). A DIR stands for the *.json files in it (latest.json left\n"
    "out). The same report imported twice is one run (its key is the SHA-256 of its\n"
    "JSON with sorted keys), reported as \"already imported\". A report that does not\n"
    "validate is refused with the validator's first complaint and the others go on;\n"
    "each report is stored in one transaction, whole or not at all. Redacted reports\n"
    "stay redacted: only their tokens are stored. Prints one line per report, with\n"
    "its run id (the runs.run column: WHERE run = 'r...'), and a summary; on a\n"
    "terminal, stderr shows how far a large report has got.\n"
    "Exit status: 0 every report imported or already there, 1 some refused (or the\n"
    "database cannot be opened), 2 bad usage.\n";

const char fleet_atlas_help[] =
    "usage: tlbscope-report atlas --db DB -o OUT.html\n"
    "Writes one self-contained page (inline CSS and SVG, no scripts) over every CPU\n"
    "model in the fleet database: per environment (hardware, virtualised, emulated,\n"
    "simulated, never pooled), one column per CPU model with its headline figures\n"
    "(IPI round trip by topology class, one-page and ceiling shootdown, flush ceiling\n"
    "p*, INVLPGB crossover, lazy and concurrent-order savings, recommended ceiling):\n"
    "the median over the model's runs, the spread from the lowest to the highest run,\n"
    "and how many runs and machines it rests on; then per figure a chart comparing\n"
    "the models (a line from the lowest to the highest run, a dot at the median).\n"
    "Serial numbers and UUIDs are never shown. -o - writes to standard output. The\n"
    "database is opened read-only and must exist (import creates it).\n"
    "Exit status: 0, 1 the database cannot be read or the page written, 2 bad usage.\n";

const char fleet_query_help[] =
    "usage: tlbscope-report query --db DB [--format tsv|aligned|csv|json] SQL\n"
    "Runs one SQL statement on the fleet database (SQLite or PostgreSQL), opened\n"
    "read-only (a statement that writes fails; the database must exist: import\n"
    "creates it), and prints its rows: tab-separated under a header line (tsv, the\n"
    "default), an aligned table, CSV (RFC 4180; a text cell that starts = + - @\n"
    "gets a leading ', as in compare --csv) or JSON (an array of objects).\n"
    "Numbers print alike for both engines (integers exactly, others with at most 10\n"
    "significant digits); NULL is an empty field (null in JSON). A second statement\n"
    "after the first is refused, named. The views (v_runs, v_headlines,\n"
    "v_model_headlines, v_point_metrics, v_flush_points, v_microcode_history,\n"
    "v_recommendations) answer the common questions (docs/fleet.md); `run` is the id\n"
    "import prints.\n"
    "Exit status: 0, 1 the database or the statement failed, 2 bad usage.\n";

/* --db DB or --db=DB, -o OUT or -oOUT, --format F; every other argument an operand. */
struct fleet_args {
    const char *db, *out, *format;
    char **ops;
    size_t nops;
};

enum { WANTS_OUT = 1, WANTS_FORMAT = 2 };

static int parse(int argc, char **argv, unsigned wants, const char *help, const char *cmd,
                 struct fleet_args *a)
{
    bool options = true;
    int i;
    memset(a, 0, sizeof(*a));
    if (!(a->ops = calloc((size_t)argc, sizeof(*a->ops))))
        return EXIT_INVALID;
    for (i = 2; i < argc; i++) {
        const char *s = argv[i], *why = NULL;
        if (!options || s[0] != '-' || !s[1]) {
            a->ops[a->nops++] = argv[i];
        } else if (strcmp(s, "--") == 0) {
            options = false;
        } else if (strcmp(s, "--db") == 0 || strncmp(s, "--db=", 5) == 0) {
            const char *v = s[4] == '=' ? s + 5 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || !*v || a->db)
                why = "give --db DB once";
            a->db = v;
        } else if ((wants & WANTS_OUT) && strncmp(s, "-o", 2) == 0) {
            const char *v = s[2] ? s + 2 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || !*v || a->out)
                why = "give -o OUT.html once";
            a->out = v;
        } else if ((wants & WANTS_FORMAT) &&
                   (strcmp(s, "--format") == 0 || strncmp(s, "--format=", 9) == 0)) {
            const char *v = s[8] == '=' ? s + 9 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || !*v || a->format)
                why = "give --format tsv|aligned|csv|json once";
            a->format = v;
        } else {
            why = "unknown option";
        }
        if (why) {
            char *name = sanitize_text(s);
            fprintf(stderr, PREFIX "%s: %s%s%s\n\n%s", cmd, why,
                    strcmp(why, "unknown option") == 0 ? " " : "",
                    strcmp(why, "unknown option") == 0 ? (name ? name : s) : "", help);
            free(name);
            free(a->ops);
            return EXIT_USAGE;
        }
    }
    if (!a->db) {
        fprintf(stderr, PREFIX "%s: --db DB is required (a SQLite file or postgresql://...)\n\n%s",
                cmd, help);
        free(a->ops);
        return EXIT_USAGE;
    }
    return EXIT_VALID;
}

/* import creates and upgrades (FDB_CREATE); atlas and query only read an existing one. */
static struct fdb *open_db(const char *target, const char *cmd, enum fdb_mode mode)
{
    char err[800];
    struct fdb *db = fdb_open(target, mode, err, sizeof(err));
    if (!db) {
        fprintf(stderr, PREFIX "%s: %s\n", cmd, err);
        return NULL;
    }
    if (mode == FDB_CREATE ? schema_ensure(db, err, sizeof(err))
                           : schema_check(db, target, err, sizeof(err))) {
        fprintf(stderr, PREFIX "%s: %s\n", cmd, err);
        fdb_close(db);
        return NULL;
    }
    return db;
}

int fleet_run_import(int argc, char **argv)
{
    struct fleet_args a;
    struct input_list files;
    struct import_counts counts = { 0, 0, 0 };
    struct fdb *db;
    bool inputs_ok;
    size_t i;
    int rc = parse(argc, argv, 0, fleet_import_help, "import", &a);
    if (rc != EXIT_VALID)
        return rc;
    if (!a.nops) {
        free(a.ops);
        fprintf(stderr, PREFIX "import: no FILE or DIR given\n\n%s", fleet_import_help);
        return EXIT_USAGE;
    }
    memset(&files, 0, sizeof(files));
    /* a directory that cannot be read is named; the files that can be read still go in */
    inputs_ok = inputs_expand(a.ops, a.nops, true, &files, stderr);
    free(a.ops);
    if (!(db = open_db(a.db, "import", FDB_CREATE))) {
        inputs_free(&files);
        return EXIT_INVALID;
    }
    for (i = 0; i < files.n; i++) {
        import_file(db, files.paths[i], &counts, stdout, stderr);
        fflush(stdout);
    }
    printf("%zu imported, %zu already imported, %zu refused (%s database)\n", counts.imported,
           counts.already, counts.refused, db->ops->kind);
    fdb_close(db);
    inputs_free(&files);
    return counts.refused || !inputs_ok ? EXIT_INVALID : EXIT_VALID;
}

int fleet_run_atlas(int argc, char **argv)
{
    struct fleet_args a;
    struct fdb *db;
    FILE *out;
    int rc = parse(argc, argv, WANTS_OUT, fleet_atlas_help, "atlas", &a);
    if (rc != EXIT_VALID)
        return rc;
    free(a.ops);
    if (a.nops || !a.out) {
        fprintf(stderr, PREFIX "atlas: %s\n\n%s", a.nops ? "takes no FILE (the reports are in "
                "the database: import them first)" : "-o OUT.html is required", fleet_atlas_help);
        return EXIT_USAGE;
    }
    if (!(db = open_db(a.db, "atlas", FDB_READ)))
        return EXIT_INVALID;
    out = strcmp(a.out, "-") == 0 ? stdout : fopen(a.out, "w");
    if (!out) {
        fprintf(stderr, PREFIX "atlas: %s: cannot write\n", a.out);
        fdb_close(db);
        return EXIT_INVALID;
    }
    rc = atlas_write(db, out, stderr) ? EXIT_INVALID : EXIT_VALID;
    if ((out != stdout && fclose(out) != 0) || (out == stdout && fflush(out) != 0)) {
        fprintf(stderr, PREFIX "atlas: %s: write failed\n", a.out);
        rc = EXIT_INVALID;
    }
    fdb_close(db);
    return rc;
}

/* The statement alone: text after its ';' other than spaces and comments is refused, named. */
static bool one_statement(const char *sql)
{
    const char *rest = sql + sql_statement_end(sql);
    char shown[48], *safe;
    if (sql_is_blank(sql)) {
        fprintf(stderr, PREFIX "query: no SQL statement given\n\n%s", fleet_query_help);
        return false;
    }
    if (sql_is_blank(rest) || MUTANT(fleet_second_statement))
        return true;
    while (*rest == ' ' || *rest == '\n' || *rest == '\t' || *rest == '\r')
        rest++;
    if (strlen(rest) > 40)
        snprintf(shown, sizeof(shown), "%.37s...", rest);
    else
        snprintf(shown, sizeof(shown), "%s", rest);
    safe = sanitize_text(shown);
    fprintf(stderr, PREFIX "query: one statement only; after it comes\n  %s\n",
            safe ? safe : shown);
    free(safe);
    return false;
}

int fleet_run_query(int argc, char **argv)
{
    struct fleet_args a;
    struct query_out *q;
    enum query_format format = QUERY_TSV;
    struct fdb *db;
    int rc = parse(argc, argv, WANTS_FORMAT, fleet_query_help, "query", &a);
    const char *sql;
    if (rc != EXIT_VALID)
        return rc;
    sql = a.nops == 1 ? a.ops[0] : NULL;
    free(a.ops);
    if (!sql) {
        fprintf(stderr, PREFIX "query: give exactly one SQL statement\n\n%s", fleet_query_help);
        return EXIT_USAGE;
    }
    if (a.format && !query_format_parse(a.format, &format)) {
        char *safe = sanitize_text(a.format);
        fprintf(stderr, PREFIX "query: --format %s: expected tsv, aligned, csv or json\n",
                safe ? safe : a.format);
        free(safe);
        return EXIT_USAGE;
    }
    if (!one_statement(sql))
        return EXIT_USAGE;
    if (!(db = open_db(a.db, "query", FDB_READ)))
        return EXIT_INVALID;
    if (!(q = query_out_new(format, db, stdout))) {
        fprintf(stderr, PREFIX "query: out of memory\n");
        fdb_close(db);
        return EXIT_INVALID;
    }
    if (fdb_query(db, sql, 0, NULL, query_out_row, q)) {
        char *safe = sanitize_text(fdb_error(db));
        fprintf(stderr, PREFIX "query: %s\n", safe ? safe : fdb_error(db));
        free(safe);
        rc = EXIT_INVALID;
    }
    if (query_out_finish(q)) {
        fprintf(stderr, PREFIX "query: out of memory\n");
        rc = EXIT_INVALID;
    }
    if (db->cols_cut)
        fprintf(stderr, PREFIX "query: only the first %d columns are printed\n", FDB_MAX_COLS);
    fdb_close(db);
    return rc;
}
