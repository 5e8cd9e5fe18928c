/*
 * libFuzzer target for `tlbscope-report atlas` (issue 35): the page drawn from a fleet
 * database whose rows hold anything, as a database written by an older tool, by hand or
 * from hostile reports may. Each input line is one headline row, its tab-separated fields
 * (environment, CPU model, figure, class, value, value in ns, unit, machine) go into an
 * in-memory SQLite database of the real schema (a one-character field is a known word, so
 * that the fuzzer reaches every kind of cell and chart quickly), then atlas_write draws it.
 * Besides crashes, the page is checked: every '<' in it opens a tag the atlas writes itself,
 * so no text of the database reached the page as markup.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/fleet/atlas.h"
#include "reports/tool/fleet/fdb.h"
#include "reports/tool/fleet/headline.h"
#include "reports/tool/fleet/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NFIELDS 8
#define MAX_ROWS 64

static FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

/* A one-character field picks a word the atlas knows; any other is used as it is. */
static const char *field(char *s, size_t k)
{
    static const char *const envs[] = { "hardware", "virtualised", "emulated", "simulated" };
    static const char *const units[] = { "ticks", "pages", "percent", "cpus", "ticks/page" };
    static const char *const numbers[] = { "1", "0", "-3.5", "1e300", "2048", "0.001" };
    unsigned d = (unsigned char)s[0];
    if (s[0] == '\0' || s[1] != '\0')
        return s;
    switch (k) {
    case 0: return envs[d % 4];
    case 2: return headline_figures[d % headline_nfigures].id;
    case 4:
    case 5: return numbers[d % 6];
    case 6: return units[d % 5];
    default: return s;
    }
}

/* The tags atlas.c writes: any other after a '<' came from the database. */
static void check_tags(const char *page, size_t len)
{
    static const char *const tags[] = { "!DOCTYPE", "html", "head", "meta", "title", "style",
                                        "body", "h1", "h2", "p", "section", "span", "div",
                                        "table", "tr", "th", "td", "b", "br", "svg", "text",
                                        "line", "circle", NULL };
    size_t i, k, n;
    for (i = 0; i < len; i++) {
        const char *t = page + i + 1;
        if (page[i] != '<')
            continue;
        if (*t == '/')
            t++;
        for (n = 0; t + n < page + len && (isalnum((unsigned char)t[n]) || t[n] == '!'); n++)
            ;
        for (k = 0; tags[k] && !(strlen(tags[k]) == n && strncmp(tags[k], t, n) == 0); k++)
            ;
        if (!tags[k]) {
            fprintf(stderr, "atlas: a '<' that opens no tag of the atlas: %.40s\n", page + i);
            abort();
        }
    }
}

static void exec(struct fdb *db, const char *sql, int n, const char *const *params)
{
    if (fdb_exec(db, sql, n, params) != 0) {
        fprintf(stderr, "fuzz_atlas: %s: %s\n", sql, fdb_error(db));
        abort();
    }
}

static void insert(struct fdb *db, char **f, size_t row)
{
    char key[32];
    const char *env = field(f[0], 0), *model = field(f[1], 1), *machine = field(f[7], 7);
    const char *run[] = { key, machine, model, env };
    const char *cpu[] = { model };
    const char *mach[] = { machine };
    const char *h[] = { key, field(f[2], 2), field(f[3], 3), env, field(f[4], 4),
                        f[5][0] ? field(f[5], 5) : NULL, field(f[6], 6) };
    snprintf(key, sizeof(key), "r%zu", row % 5); /* a few runs, some with several rows */
    exec(db, "INSERT INTO machines (machine_id, identity_kind) VALUES ($1, 'none') "
         "ON CONFLICT DO NOTHING", 1, mach);
    exec(db, "INSERT INTO cpu_models (cpu_model) VALUES ($1) ON CONFLICT DO NOTHING", 1, cpu);
    exec(db, "INSERT INTO runs (run_key, machine_id, cpu_model, environment, redacted, "
         "imported_at, report_json) VALUES ($1, $2, $3, $4, 0, 'now', '{}') "
         "ON CONFLICT DO NOTHING", 4, run);
    exec(db, "INSERT INTO headlines (run_key, figure, class, environment, value, value_ns, "
         "unit) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING", 7, h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256], *text, *line, *save = NULL, *page = NULL;
    size_t rows = 0, len = 0;
    struct fdb *db;
    FILE *out;
    if (size > 1 << 16)
        return 0;
    text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    db = fdb_open(":memory:", FDB_CREATE, err, sizeof(err));
    if (!db || schema_ensure(db, err, sizeof(err)) != 0) {
        fprintf(stderr, "fuzz_atlas: %s\n", err);
        abort();
    }
    for (line = strtok_r(text, "\n", &save); line && rows < MAX_ROWS;
         line = strtok_r(NULL, "\n", &save), rows++) {
        char *f[NFIELDS], *p = line;
        size_t k;
        for (k = 0; k < NFIELDS; k++) {
            f[k] = p;
            p = p ? strchr(p, '\t') : NULL;
            if (p)
                *p++ = '\0';
        }
        for (k = 0; k < NFIELDS; k++)
            if (!f[k])
                f[k] = "";
        insert(db, f, rows);
    }
    out = open_memstream(&page, &len);
    if (out) {
        if (atlas_write(db, out, sink()) != 0) {
            fprintf(stderr, "fuzz_atlas: atlas_write failed on a readable database\n");
            abort();
        }
        fclose(out);
        check_tags(page, len);
    }
    free(page);
    fdb_close(db);
    free(text);
    return 0;
}
