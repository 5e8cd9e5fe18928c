#include "reports/tool/fleet/import.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/fleet/headline.h"
#include "reports/tool/fleet/import_rows.h"
#include "reports/tool/fleet/progress.h"
#include "reports/tool/fleet/run_key.h"
#include "reports/tool/fleet/split.h"
#include "reports/tool/model/load.h"
#include "reports/tool/model/model.h"
#include "reports/tool/model/sanitize.h"
#include "reports/tool/validate/diag.h"
#include "reports/tool/validate/validate.h"

#define PREFIX "tlbscope-report: "
/* A report this large is written straight into a SQLite file, not through its log (fdb.h). */
#define LARGE_REPORT_BYTES (16u << 20)

/* The points as the validator, the run key and the rows read them: one at a time, counted. */
struct reader {
    struct split_report *split;
    struct progress *progress;
    size_t phase_start; /* split->fetched when the phase began */
};

static const json_t *reader_at(void *ctx, size_t exp, const char *section, size_t i)
{
    struct reader *rd = ctx;
    const json_t *p = split_point(rd->split, exp, section, i);
    if (p)
        progress_tick(rd->progress, rd->split->fetched - rd->phase_start);
    return p;
}

static void phase(struct reader *rd, const char *name)
{
    rd->phase_start = rd->split->fetched;
    progress_phase(rd->progress, name);
}

static int found_row(void *ctx, int ncols, const char *const *names, const char *const *values)
{
    (void)ncols;
    (void)names;
    (void)values;
    *(bool *)ctx = true;
    return 1;
}

static bool already_there(struct fdb *db, const char *run_key, bool *found)
{
    const char *p[1] = { run_key };
    *found = false;
    return fdb_query(db, "SELECT 1 FROM runs WHERE run_key = $1", 1, p, found_row, found) == 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/*
 * The validator's verdict: true when the report may go in; the first error named when not.
 * A point that did not parse (split.h) reads as null to the validator: that file's refusal
 * is the parser's message, not the validator's.
 */
static bool valid(const json_t *root, const struct vpoints *points, const bool *bad_point,
                  struct progress *progress, const char *path, FILE *err)
{
    struct diag_list d;
    const struct diag *first = NULL;
    size_t i;
    bool ok;
    diag_init(&d);
    ok = validate_report_points(root, points, &d) == 0 || MUTANT(fleet_invalid_accepted);
    for (i = 0; i < d.count && !first; i++)
        if (d.items[i].level == DIAG_ERROR)
            first = &d.items[i];
    if (!ok)
        progress_end(progress);
    if (!ok && !*bad_point)
        fprintf(err, PREFIX "%s: refused: not a valid report (%zu error%s%s%s%s%s; "
                "`tlbscope-report validate` lists every one)\n", path, d.errors,
                d.errors == 1 ? "" : "s", first ? ", first: " : "", first ? first->path : "",
                first && first->path[0] ? ": " : "", first ? first->text : "");
    diag_free(&d);
    return ok;
}

void import_file(struct fdb *db, const char *real_path, struct import_counts *counts, FILE *out,
                 FILE *err)
{
    struct load_result lr;
    struct split_report split;
    struct progress progress;
    struct reader rd = { &split, &progress, 0 };
    struct vpoints points = { reader_at, &rd };
    struct import_report in;
    struct m_report *r;
    char key[RUN_KEY_LEN + 1], machine_id[14], cpu_model[160], short_run[18];
    char *bytes = NULL, *safe = sanitize_text(real_path);
    const char *path = safe ? safe : real_path;
    size_t len = 0;
    bool found;
    int rc;
    memset(&split, 0, sizeof(split));
    memset(&progress, 0, sizeof(progress));
    load_file_raw(real_path, &lr, &bytes, &len);
    if (lr.status == LOAD_OK)
        split_load(bytes, len, &split, &lr);
    if (lr.status != LOAD_OK) {
        fprintf(err, PREFIX "%s: refused: %s\n", path, lr.message);
        counts->refused++;
        goto done;
    }
    progress_start(&progress, err, real_path, split.npoints);
    phase(&rd, "checking");
    if (!valid(lr.root, &points, &split.bad_point, &progress, path, err) || split.bad_point) {
        if (split.bad_point) { /* the ordinary parser's message for the whole file */
            struct load_result whole;
            split_load_error(&split, &whole);
            progress_end(&progress);
            fprintf(err, PREFIX "%s: refused: %s\n", path, whole.message);
        }
        load_release(&lr);
        counts->refused++;
        goto done;
    }
    phase(&rd, "hashing");
    if (!run_key_of(lr.root, &split, bytes, len, key)) {
        progress_end(&progress);
        fprintf(err, PREFIX "%s: refused: out of memory\n", path);
        load_release(&lr);
        counts->refused++;
        goto done;
    }
    if (!already_there(db, key, &found)) {
        progress_end(&progress);
        fprintf(err, PREFIX "%s: not imported: %s\n", path, fdb_error(db));
        load_release(&lr);
        counts->refused++;
        goto done;
    }
    import_short_run(key, short_run);
    if (found) {
        progress_end(&progress);
        fprintf(out, "already imported %s (run %s)\n", path, short_run);
        load_release(&lr);
        counts->already++;
        goto done;
    }
    r = model_build(lr.root, path); /* takes the document (split keeps a reference) */
    if (!r) {
        progress_end(&progress);
        fprintf(err, PREFIX "%s: refused: out of memory\n", path);
        counts->refused++;
        goto done;
    }
    phase(&rd, "storing");
    in.r = r;
    in.points = &points;
    in.run_key = key;
    in.json_text = bytes;
    in.source_name = base_name(path);
    if (len >= LARGE_REPORT_BYTES)
        fdb_large_writes(db, true);
    rc = import_store(db, &in, machine_id, cpu_model, sizeof(cpu_model));
    if (len >= LARGE_REPORT_BYTES)
        fdb_large_writes(db, false);
    if (rc) {
        progress_end(&progress);
        fprintf(err, PREFIX "%s: not imported: %s\n", path, fdb_error(db));
        counts->refused++;
    } else {
        char *model_text = sanitize_text(cpu_model); /* NULL: nothing to escape */
        progress_end(&progress);
        fprintf(out, "imported %s (run %s, machine %s, %s, %s)\n", path, short_run, machine_id,
                model_text ? model_text : cpu_model, headline_run_environment(r));
        free(model_text);
        counts->imported++;
    }
    model_free(r);
done:
    progress_end(&progress);
    split_free(&split);
    free(bytes);
    free(safe);
}
