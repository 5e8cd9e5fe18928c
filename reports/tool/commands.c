#include "reports/tool/commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/compare.h"
#include "reports/tool/diag.h"
#include "reports/tool/html.h"
#include "reports/tool/inputs.h"
#include "reports/tool/load.h"
#include "reports/tool/show.h"
#include "reports/tool/validate.h"

#define PREFIX "tlbscope-report: "

/* One file for `validate`: true when it is a valid report. */
static bool validate_one(const char *path, FILE *out, FILE *err)
{
    struct load_result lr;
    struct diag_list d;
    char prefix[4096];
    bool valid;
    load_file(path, &lr);
    if (lr.status != LOAD_OK) {
        fprintf(err, PREFIX "%s: %s\n", path, lr.message);
        return false;
    }
    diag_init(&d);
    validate_report(lr.root, &d);
    snprintf(prefix, sizeof(prefix), PREFIX "%s", path);
    diag_print(&d, prefix, err);
    valid = d.errors == 0;
    if (valid)
        fprintf(out, "OK %s\n", path);
    else
        fprintf(err, PREFIX "%s: not a valid report (%zu error%s)\n", path, d.errors,
                d.errors == 1 ? "" : "s");
    diag_free(&d);
    load_release(&lr);
    return valid;
}

int cmd_validate(char *const *args, size_t nargs, FILE *out, FILE *err)
{
    struct input_list in;
    size_t i, bad = 0;
    bool expanded = inputs_expand(args, nargs, false, &in, err);
    for (i = 0; i < in.n; i++)
        bad += !validate_one(in.paths[i], out, err);
    if (in.n > 1 && bad)
        fprintf(err, PREFIX "%zu of %zu files are not valid reports\n", bad, in.n);
    inputs_free(&in);
    return expanded && !bad ? EXIT_VALID : EXIT_INVALID;
}

struct m_report *commands_load_report(const char *path, FILE *err)
{
    struct load_result lr;
    struct diag_list d;
    struct m_report *r;
    load_file(path, &lr);
    if (lr.status != LOAD_OK) {
        fprintf(err, PREFIX "%s: %s\n", path, lr.message);
        return NULL;
    }
    diag_init(&d);
    if (validate_report(lr.root, &d)) {
        const struct diag *first = NULL;
        size_t i;
        for (i = 0; i < d.count && !first; i++)
            if (d.items[i].level == DIAG_ERROR)
                first = &d.items[i];
        fprintf(err, PREFIX "warning: %s: not a valid report (%zu error%s%s%s%s%s); showing what "
                "can be read (`tlbscope-report validate` lists every problem)\n", path, d.errors,
                d.errors == 1 ? "" : "s", first ? ", first: " : "", first ? first->path : "",
                first && first->path[0] ? ": " : "", first ? first->text : "");
    }
    diag_free(&d);
    r = model_build(lr.root, path); /* takes the document */
    if (!r)
        fprintf(err, PREFIX "%s: out of memory\n", path);
    return r;
}

int cmd_show(const char *path, FILE *out, FILE *err)
{
    struct m_report *r = commands_load_report(path, err);
    if (!r)
        return EXIT_INVALID;
    show_report(r, out);
    model_free(r);
    return EXIT_VALID;
}

/* Loads every input of compare/html, labelled A, B, ...; NULL after any failure. */
static struct m_report **load_all(char *const *args, size_t nargs, size_t *n, FILE *err)
{
    struct input_list in;
    struct m_report **reports = NULL;
    size_t i;
    bool ok = inputs_expand(args, nargs, true, &in, err);
    *n = 0;
    if (ok && in.n > COMPARE_MAX_REPORTS) {
        fprintf(err, PREFIX "%zu reports given; at most %d can be shown together\n", in.n,
                COMPARE_MAX_REPORTS);
        ok = false;
    }
    if (ok && !(reports = calloc(in.n ? in.n : 1, sizeof(*reports)))) {
        fprintf(err, PREFIX "out of memory\n");
        ok = false;
    }
    for (i = 0; ok && i < in.n; i++) {
        reports[i] = commands_load_report(in.paths[i], err);
        if (reports[i])
            snprintf(reports[i]->label, sizeof(reports[i]->label), "%c", (char)('A' + i));
        else
            ok = false;
        *n = i + 1;
    }
    inputs_free(&in);
    if (!ok) {
        for (i = 0; reports && i < *n; i++)
            model_free(reports[i]);
        free(reports);
        *n = 0;
        return NULL;
    }
    return reports;
}

static void free_all(struct m_report **reports, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        model_free(reports[i]);
    free(reports);
}

/*
 * Simulated reports mixed with others: refused, not just flagged, because no
 * ratio between the model's timings and a machine's means anything. Names
 * every simulated file; true when refused (the caller exits EXIT_USAGE).
 */
static bool refuse_simulated_mix(struct m_report *const *reports, size_t n, const char *command,
                                 FILE *err)
{
    size_t i, simulated = 0;
    if (!compare_mixes_simulated(reports, n))
        return false;
    for (i = 0; i < n; i++) {
        if (!reports[i]->simulated)
            continue;
        simulated++;
        fprintf(err, PREFIX "%s: simulated report (tlbscope-sim): simulated timings are the "
                "model's and can only be compared with other simulated reports\n",
                reports[i]->path);
    }
    fprintf(err, PREFIX "%s: simulated and non-simulated reports given together (%zu simulated, "
            "%zu not); nothing %s\n", command, simulated, n - simulated,
            strcmp(command, "html") == 0 ? "written" : "compared");
    return true;
}

int cmd_compare(char *const *args, size_t nargs, enum table_format fmt, FILE *out, FILE *err)
{
    size_t n;
    struct m_report **reports = load_all(args, nargs, &n, err);
    struct cmp_model m;
    int rc = EXIT_VALID;
    if (!reports)
        return EXIT_INVALID;
    if (n < 2) {
        fprintf(err, PREFIX "compare needs at least two reports (got %zu)\n", n);
        free_all(reports, n);
        return EXIT_USAGE;
    }
    if (refuse_simulated_mix(reports, n, "compare", err)) {
        free_all(reports, n);
        return EXIT_USAGE;
    }
    if (!compare_build(reports, n, &m)) {
        fprintf(err, PREFIX "out of memory\n");
        rc = EXIT_INVALID;
    } else {
        /* CSV has no room for prose: the warning goes where a person will see it */
        if (m.mixed && fmt == TABLE_CSV)
            fprintf(err, PREFIX "warning: hardware and virtualised/emulated reports are "
                    "compared; see the *_flags columns\n");
        compare_print(&m, out, fmt);
        compare_free(&m);
    }
    free_all(reports, n);
    return rc;
}

int cmd_html(char *const *args, size_t nargs, const char *out_path, FILE *out, FILE *err)
{
    size_t n;
    struct m_report **reports = load_all(args, nargs, &n, err);
    FILE *f;
    bool ok;
    if (!reports)
        return EXIT_INVALID;
    /* a page charts its reports on shared axes: compare's rule, checked before -o is written */
    if (refuse_simulated_mix(reports, n, "html", err)) {
        free_all(reports, n);
        return EXIT_USAGE;
    }
    f = strcmp(out_path, "-") == 0 ? out : fopen(out_path, "w");
    if (!f) {
        fprintf(err, PREFIX "%s: cannot write: %s\n", out_path, strerror(errno));
        free_all(reports, n);
        return EXIT_INVALID;
    }
    ok = html_render(f, reports, n);
    if (f != out) {
        ok &= !ferror(f);
        ok &= fclose(f) == 0;
    }
    if (!ok)
        fprintf(err, PREFIX "%s: writing the page failed\n", out_path);
    free_all(reports, n);
    return ok ? EXIT_VALID : EXIT_INVALID;
}
