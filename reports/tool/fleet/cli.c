#include "reports/tool/fleet/cli.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/fleet/atlas.h"
#include "reports/tool/fleet/fdb.h"
#include "reports/tool/fleet/import.h"
#include "reports/tool/fleet/schema.h"
#include "reports/tool/model/exit_status.h"
#include "reports/tool/model/inputs.h"

#define PREFIX "tlbscope-report: "

const char fleet_import_help[] =
    "usage: tlbscope-report import --db DB FILE|DIR...\n"
    "Loads reports into the fleet database (docs/fleet.md): machines, CPU\n"
    "models, runs, experiments, points, recommendations, conditions and headline figures,\n"
    "each report's JSON kept verbatim. DB is a SQLite file (created when absent) or a\n"
    "PostgreSQL URI (postgresql://USER@HOST:PORT/DBNAME); both hold the same schema.\n"
    "A DIR stands for the *.json files in it (latest.json left out). The same report\n"
    "imported twice is one run (its key is the SHA-256 of its JSON with sorted keys),\n"
    "reported as \"already imported\". A report that does not validate is refused with\n"
    "the validator's first complaint and the others go on; each report is stored in one\n"
    "transaction, whole or not at all. Redacted reports stay redacted: only their tokens\n"
    "are stored. Prints one line per report and a summary.\n"
    "Exit status: 0 every report imported or already there, 1 some refused (or the\n"
    "database cannot be opened), 2 bad usage.\n";

const char fleet_atlas_help[] =
    "usage: tlbscope-report atlas --db DB -o OUT.html\n"
    "Writes one self-contained page (inline CSS and SVG, no scripts) over every CPU model\n"
    "in the fleet database: per environment (hardware, virtualised, emulated, simulated,\n"
    "never pooled), one column per CPU model with its headline figures (IPI round trip by\n"
    "topology class, one-page and ceiling shootdown, flush ceiling p*, INVLPGB crossover,\n"
    "lazy and concurrent-order savings, recommended ceiling): the median over the model's\n"
    "runs, the spread from the lowest to the highest run, and how many runs and machines it\n"
    "rests on; then per figure a chart comparing the models (a line from the lowest to the\n"
    "highest run, a dot at the median). Serial numbers and UUIDs\n"
    "are never shown. -o - writes to standard output.\n"
    "Exit status: 0, 1 the database cannot be read or the page written, 2 bad usage.\n";

const char fleet_query_help[] =
    "usage: tlbscope-report query --db DB SQL\n"
    "Runs one SQL statement on the fleet database (SQLite or PostgreSQL) and prints its\n"
    "rows tab-separated under a header line; numbers printed alike for both engines (at\n"
    "most 10 significant digits), NULL as an empty field. The views (v_runs, v_headlines,\n"
    "v_model_headlines, v_point_metrics, v_flush_points, v_microcode_history,\n"
    "v_recommendations) answer the common questions (docs/fleet.md).\n"
    "Exit status: 0, 1 the database or the statement failed, 2 bad usage.\n";

/* --db DB or --db=DB, -o OUT or -oOUT; every other argument an operand. */
struct fleet_args {
    const char *db, *out;
    char **ops;
    size_t nops;
};

static int parse(int argc, char **argv, bool wants_out, const char *help, const char *cmd,
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
        } else if (wants_out && strncmp(s, "-o", 2) == 0) {
            const char *v = s[2] ? s + 2 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || !*v || a->out)
                why = "give -o OUT.html once";
            a->out = v;
        } else {
            why = "unknown option";
        }
        if (why) {
            fprintf(stderr, PREFIX "%s: %s\n\n%s", cmd, why, help);
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

static struct fdb *open_db(const char *target, const char *cmd)
{
    char err[600];
    struct fdb *db = fdb_open(target, err, sizeof(err));
    if (!db) {
        fprintf(stderr, PREFIX "%s: %s\n", cmd, err);
        return NULL;
    }
    if (schema_ensure(db, err, sizeof(err))) {
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
    int rc = parse(argc, argv, false, fleet_import_help, "import", &a);
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
    if (!(db = open_db(a.db, "import"))) {
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
    int rc = parse(argc, argv, true, fleet_atlas_help, "atlas", &a);
    if (rc != EXIT_VALID)
        return rc;
    free(a.ops);
    if (a.nops || !a.out) {
        fprintf(stderr, PREFIX "atlas: %s\n\n%s", a.nops ? "takes no FILE (the reports are in "
                "the database: import them first)" : "-o OUT.html is required", fleet_atlas_help);
        return EXIT_USAGE;
    }
    if (!(db = open_db(a.db, "atlas")))
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

/* Numbers alike from both engines: SQLite prints 30602.0 where PostgreSQL prints 30602. */
static void print_field(const char *v)
{
    char *end = NULL;
    double x;
    if (!v)
        return;
    x = strtod(v, &end);
    if (end != v && *end == '\0' && isfinite(x) && strspn(v, "0123456789+-.eE") == strlen(v))
        printf("%.10g", x);
    else
        for (; *v; v++) {
            unsigned char c = (unsigned char)*v;
            /* a report's strings reach the terminal: no control character does (a crafted
             * CPU brand must not drive it), and a field stays on its line and column */
            if (c == '\t' || c == '\n')
                putchar(' ');
            else if (c < 0x20 || c == 0x7f)
                printf("\\x%02x", c);
            else
                putchar(c);
        }
}

static int print_row(void *ctx, int ncols, const char *const *names, const char *const *values)
{
    bool *header_done = ctx;
    int i;
    if (!*header_done) {
        for (i = 0; i < ncols; i++)
            printf("%s%s", i ? "\t" : "", names[i]);
        putchar('\n');
        *header_done = true;
    }
    for (i = 0; i < ncols; i++) {
        if (i)
            putchar('\t');
        print_field(values[i]);
    }
    putchar('\n');
    return 0;
}

int fleet_run_query(int argc, char **argv)
{
    struct fleet_args a;
    struct fdb *db;
    bool header_done = false;
    int rc = parse(argc, argv, false, fleet_query_help, "query", &a);
    const char *sql;
    if (rc != EXIT_VALID)
        return rc;
    sql = a.nops == 1 ? a.ops[0] : NULL;
    free(a.ops);
    if (!sql) {
        fprintf(stderr, PREFIX "query: give exactly one SQL statement\n\n%s", fleet_query_help);
        return EXIT_USAGE;
    }
    if (!(db = open_db(a.db, "query")))
        return EXIT_INVALID;
    if (fdb_query(db, sql, 0, NULL, print_row, &header_done)) {
        fprintf(stderr, PREFIX "query: %s\n", fdb_error(db));
        rc = EXIT_INVALID;
    }
    fdb_close(db);
    return rc;
}
