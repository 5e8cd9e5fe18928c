#include "reports/tool/cli/commands.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <math.h>

#include "core/lib/nearest.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_csv.h"
#include "reports/tool/show/conditions_view.h"
#include "reports/tool/model/sanitize.h"
#include "reports/tool/cli/load_report.h"
#include "reports/tool/cli/sides.h"
#include "reports/tool/validate/diag.h"
#include "reports/tool/html/html.h"
#include "reports/tool/compare/md_escape.h"
#include "reports/tool/model/inputs.h"
#include "reports/tool/model/json_arena.h"
#include "reports/tool/model/load.h"
#include "reports/tool/redact/redact.h"
#include "reports/tool/compare/report_json.h"
#include "reports/tool/show/show.h"
#include "reports/tool/validate/validate.h"

#define PREFIX "tlbscope-report: "

/* One file for `validate`: true when it is a valid report. */
static bool validate_one(const char *real_path, FILE *out, FILE *err)
{
    struct load_result lr;
    struct diag_list d;
    char prefix[4096];
    char *safe = sanitize_text(real_path);
    const char *path = safe ? safe : real_path; /* the name as printed */
    bool valid;
    load_file(real_path, &lr);
    if (lr.status != LOAD_OK) {
        fprintf(err, PREFIX "%s: %s\n", path, lr.message);
        free(safe);
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
    if (json_arena_installed()) /* one file at a time: its document is gone */
        json_arena_reset();
    free(safe);
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

int cmd_show(const char *path, FILE *out, FILE *err)
{
    struct m_report *r = commands_load_report(path, err);
    if (!r)
        return EXIT_INVALID;
    show_report(r, out);
    model_free(r);
    return EXIT_VALID;
}

/* A JSON document on `out`, indented, with a final line end; false when it could not be. */
static bool dump_json(json_t *doc, FILE *out)
{
    bool ok = doc && json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) == 0;
    if (ok)
        fputc('\n', out);
    json_decref(doc);
    return ok;
}

int cmd_show_json(const char *path, FILE *out, FILE *err)
{
    struct m_report *r = commands_load_report(path, err);
    bool ok;
    if (!r)
        return EXIT_INVALID;
    ok = dump_json(report_json_show(r), out);
    if (!ok)
        fprintf(err, PREFIX "out of memory\n");
    model_free(r);
    return ok ? EXIT_VALID : EXIT_INVALID;
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

/*
 * Every --experiment ID is one that some report has: a mistyped ID would
 * else compare nothing and pass. Names the IDs the reports have.
 */
static bool experiments_known(struct m_report *const *all, size_t n, const struct compare_cli *cli,
                              FILE *err)
{
    size_t k, i, j;
    bool ok = true;
    for (k = 0; k < cli->nexperiments; k++) {
        bool found = false;
        for (i = 0; i < n && !found; i++)
            found = model_experiment(all[i], cli->experiments[k]) != NULL;
        if (found)
            continue;
        ok = false;
        {
            /* the id nearest the mistyped one, among every report's (core/lib/nearest.h) */
            const char *ids[64], *near;
            size_t nids = 0;
            for (i = 0; i < n; i++)
                for (j = 0; j < all[i]->nexperiments && nids < sizeof(ids) / sizeof(ids[0]); j++)
                    if (all[i]->experiments[j].id)
                        ids[nids++] = all[i]->experiments[j].id;
            near = nearest_name(cli->experiments[k], ids, nids);
            fprintf(err, PREFIX "compare: --experiment %s: no report given has this experiment%s%s%s; "
                    "they have:", cli->experiments[k], near ? " (did you mean " : "",
                    near ? near : "", near ? "?)" : "");
        }
        for (i = 0; i < n; i++) {
            for (j = 0; j < all[i]->nexperiments; j++) {
                const char *id = all[i]->experiments[j].id;
                size_t a, b;
                bool seen = !id;
                for (a = 0; a < i && !seen; a++)
                    for (b = 0; b < all[a]->nexperiments && !seen; b++)
                        seen = all[a]->experiments[b].id &&
                               strcmp(all[a]->experiments[b].id, id) == 0;
                for (b = 0; b < j && !seen; b++)
                    seen = all[i]->experiments[b].id && strcmp(all[i]->experiments[b].id, id) == 0;
                if (!seen)
                    fprintf(err, " %s", id);
            }
        }
        fputc('\n', err);
    }
    return ok;
}

/*
 * compare --markdown: the comparison, then the conditions that change the numbers (after the
 * tables: the first line is the title), all of it written with the report's < > & as entities
 * (md_escape.h), since a Markdown renderer passes HTML through.
 */
static bool print_markdown(const struct cmp_model *m, const struct side_set *sides, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return false;
    compare_print(m, mem, TABLE_MARKDOWN);
    if (conditions_compare_warnings(sides->all, sides->nall, NULL)) {
        fputs("\n## Conditions that differ\n\n```\n", mem);
        conditions_compare_warnings(sides->all, sides->nall, mem);
        fputs("```\n", mem);
    }
    if (fclose(mem) != 0) {
        free(text);
        return false;
    }
    md_write_escaped(out, text, len);
    free(text);
    return true;
}

/*
 * Two sides that are one file, or two files with the same document: every
 * ratio is 1 by construction, which the reader should know is not a finding.
 */
static void same_reports_note(const struct side_set *sides, FILE *err)
{
    size_t i, j;
    for (i = 0; i < sides->nall; i++) {
        for (j = i + 1; j < sides->nall; j++) {
            struct m_report *a = sides->all[i], *b = sides->all[j];
            struct stat x, y;
            bool one_file = strcmp(a->path, b->path) == 0 ||
                            (stat(a->path, &x) == 0 && stat(b->path, &y) == 0 &&
                             x.st_dev == y.st_dev && x.st_ino == y.st_ino);
            if (one_file)
                fprintf(err, PREFIX "note: %s and %s are the same file: every ratio\n"
                        PREFIX "      between them is 1 by construction\n", a->label, b->label);
            else if (json_equal(a->root, b->root))
                fprintf(err, PREFIX "note: %s and %s are identical reports: every ratio\n"
                        PREFIX "      between them is 1 by construction\n", a->label, b->label);
        }
    }
}

/*
 * The outcome's exit status, its errors and warnings on `err`: a pair that
 * shares an experiment and no point is a warning, or exit 4 under --strict
 * or a gate; a gate that compared nothing at all is exit 4 (it never passes
 * on nothing); else --fail-if-slower's points, exit 3.
 */
struct compare_outcome {
    size_t disjoint;
    long long slower; /* -1: no gate */
    int rc;
};

/* Do two sides have some experiment in common? */
static bool shares_experiment(const struct cmp_model *m)
{
    size_t k, i, with;
    for (k = 0; k < m->nsections; k++) {
        for (i = 0, with = 0; i < m->nreports; i++)
            with += m->sections[k].exp[i] != NULL;
        if (with >= 2)
            return true;
    }
    return false;
}

static struct compare_outcome compare_outcome(const struct cmp_model *m,
                                              const struct compare_cli *cli, FILE *err)
{
    struct compare_outcome o = { 0, -1, EXIT_VALID };
    bool gate = !isnan(cli->fail_if_slower), fatal = gate || cli->strict;
    size_t compared = compare_points_compared(m);
    o.disjoint = compare_disjoint_pairs(m, err, fatal);
    if (o.disjoint)
        fprintf(err, PREFIX "%zu pair%s of sides share an experiment but no point of it: "
                "nothing compared there%s\n", o.disjoint, o.disjoint == 1 ? "" : "s",
                fatal ? " (exit status 4)" : "; the rest is compared (--strict: exit status 4)");
    if (!compared)
        fprintf(err, PREFIX "%s: nothing compared: the reports share no %s%s\n",
                fatal ? "error" : "warning", shares_experiment(m) ? "point" : "experiment",
                gate ? " (--fail-if-slower never passes on nothing: exit status 4)" : "");
    if (fatal && (o.disjoint || !compared))
        o.rc = EXIT_DISJOINT;
    if (gate) {
        o.slower = (long long)compare_slower_points(m, cli->fail_if_slower, err);
        if (o.slower)
            fprintf(err, PREFIX "%lld point%s slower than the baseline by more than %g%%\n",
                    o.slower, o.slower == 1 ? "" : "s", cli->fail_if_slower);
        if (o.slower && o.rc == EXIT_VALID)
            o.rc = EXIT_SLOWER;
    }
    return o;
}

int cmd_compare_cli(char *const *args, size_t nargs, const struct compare_cli *cli, FILE *out,
                    FILE *err)
{
    struct side_set sides;
    struct cmp_options opts;
    struct cmp_model m;
    struct compare_outcome o;
    int rc = sides_load(args, nargs, cli->baseline, cli->group, COMPARE_MAX_REPORTS, &sides, err);
    if (rc != EXIT_VALID)
        return rc;
    if (sides.nsides < 2) {
        fprintf(err, PREFIX "compare needs at least two reports or sides (got %zu)\n",
                sides.nsides);
        sides_free(&sides);
        return EXIT_USAGE;
    }
    if (refuse_simulated_mix(sides.all, sides.nall, "compare", err)) {
        sides_free(&sides);
        return EXIT_USAGE;
    }
    if (!experiments_known(sides.all, sides.nall, cli, err)) {
        sides_free(&sides);
        return EXIT_USAGE;
    }
    same_reports_note(&sides, err);
    memset(&opts, 0, sizeof(opts));
    opts.wide = cli->wide;
    opts.align_defaults = true;
    opts.experiments = cli->experiments;
    opts.nexperiments = cli->nexperiments;
    opts.sort_ratio = cli->sort_ratio;
    opts.only_differences = cli->only_differences;
    opts.fail_if_slower = cli->fail_if_slower;
    opts.baseline = sides.baseline;
    opts.threshold = cli->threshold / 100;
    opts.where = cli->where;
    opts.nwhere = cli->nwhere;
    if (!compare_build_pooled(sides.all, sides.side_of, sides.nall, sides.nsides, &opts, &m)) {
        fprintf(err, PREFIX "out of memory\n");
        sides_free(&sides);
        return EXIT_INVALID;
    }
    if (cli->json) { /* the verdict first: the document carries it */
        o = compare_outcome(&m, cli, err);
        rc = o.rc;
        if (!dump_json(report_json_compare(&m, o.disjoint, o.slower, rc), out)) {
            fprintf(err, PREFIX "out of memory\n");
            rc = EXIT_INVALID;
        }
        compare_free(&m);
        sides_free(&sides);
        return rc;
    }
    /* CSV has no room for prose: the warning goes where a person will see it */
    if (m.mixed && cli->fmt == TABLE_CSV)
        fprintf(err, PREFIX "warning: hardware and virtualised/emulated reports are "
                "compared; see the flags column\n");
    /* per-experiment conditions that change the numbers (conditions_view.h): before the
     * tables, after them in markdown (whose first line is its title), on stderr with CSV */
    if (cli->fmt == TABLE_MARKDOWN) {
        if (!print_markdown(&m, &sides, out)) {
            fprintf(err, PREFIX "out of memory\n");
            compare_free(&m);
            sides_free(&sides);
            return EXIT_INVALID;
        }
    } else {
        conditions_compare_warnings(sides.all, sides.nall, cli->fmt == TABLE_CSV ? err : out);
        if (cli->fmt == TABLE_CSV)
            compare_csv_print(&m, out);
        else
            compare_print(&m, out, cli->fmt);
    }
    fflush(out);
    rc = compare_outcome(&m, cli, err).rc;
    compare_free(&m);
    sides_free(&sides);
    return rc;
}

int cmd_compare(char *const *args, size_t nargs, enum table_format fmt, FILE *out, FILE *err)
{
    struct compare_cli cli;
    memset(&cli, 0, sizeof(cli));
    cli.fmt = fmt;
    cli.fail_if_slower = NAN;
    cli.threshold = CMP_DEFAULT_THRESHOLD * 100;
    return cmd_compare_cli(args, nargs, &cli, out, err);
}

int cmd_html(char *const *args, size_t nargs, const char *out_path, FILE *out, FILE *err)
{
    struct side_set sides;
    FILE *f;
    bool ok;
    /* any number of reports: past HTML_MAX_REPORTS, one column per CPU model (as the atlas) */
    int rc = sides_load(args, nargs, NULL, false, (size_t)-1, &sides, err);
    if (rc != EXIT_VALID)
        return rc;
    if (sides.nsides > HTML_MAX_REPORTS &&
        (rc = sides_pool_models(&sides, HTML_MAX_REPORTS, err)) != EXIT_VALID) {
        sides_free(&sides);
        return rc;
    }
    /* a page charts its reports on shared axes: compare's rule, checked before -o is written */
    if (refuse_simulated_mix(sides.all, sides.nall, "html", err)) {
        sides_free(&sides);
        return EXIT_USAGE;
    }
    f = strcmp(out_path, "-") == 0 ? out : fopen(out_path, "w");
    if (!f) {
        fprintf(err, PREFIX "%s: cannot write: %s\n", out_path, strerror(errno));
        sides_free(&sides);
        return EXIT_INVALID;
    }
    ok = html_render_sides(f, sides.all, sides.side_of, sides.nall, sides.nsides);
    if (f != out) {
        ok &= !ferror(f);
        ok &= fclose(f) == 0;
    }
    if (!ok)
        fprintf(err, PREFIX "%s: writing the page failed\n", out_path);
    sides_free(&sides);
    return ok ? EXIT_VALID : EXIT_INVALID;
}

char *commands_redacted_name(const char *in_path)
{
    size_t n = strlen(in_path);
    char *name = malloc(n + sizeof(".redacted.json"));
    if (!name)
        return NULL;
    if (n > 5 && strcmp(in_path + n - 5, ".json") == 0)
        n -= 5;
    memcpy(name, in_path, n);
    strcpy(name + n, ".redacted.json");
    return name;
}

/* Creates `path` (never over an existing file) with the copy; unlinked again on failure. */
static int write_new_file(const char *path, const char *in_path, const char *data, size_t len,
                          FILE *err)
{
    struct stat a, b;
    size_t done = 0;
    int fd;
    if (stat(path, &a) == 0 && stat(in_path, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino) {
        fprintf(err, PREFIX "%s: is the input report; redact never overwrites it (give another "
                "-o)\n", path);
        return EXIT_INVALID;
    }
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == EEXIST)
            fprintf(err, PREFIX "%s: exists; not overwritten (remove it or give another -o)\n",
                    path);
        else
            fprintf(err, PREFIX "%s: cannot write: %s\n", path, strerror(errno));
        return EXIT_INVALID;
    }
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (done < len || close(fd) != 0) {
        fprintf(err, PREFIX "%s: writing the redacted report failed: %s\n", path,
                strerror(errno));
        if (done < len)
            close(fd);
        unlink(path);
        return EXIT_INVALID;
    }
    return EXIT_VALID;
}

static void redact_summary(const char *in_path, const char *dest, const struct redact_result *r,
                           FILE *f)
{
    size_t i;
    if (!r->changed) {
        fprintf(f, "%s -> %s: already redacted (%s tokens); copied unchanged\n", in_path, dest,
                r->keyed ? "keyed" : "random");
        return;
    }
    if (!r->nfields) {
        fprintf(f, "%s -> %s: no serial number or UUID recorded; redaction record added\n",
                in_path, dest);
        return;
    }
    fprintf(f, "%s -> %s: %s tokens in ", in_path, dest, r->keyed ? "keyed" : "random");
    for (i = 0; i < r->nfields; i++)
        fprintf(f, "%s%s", i ? ", " : "", r->fields[i]);
    fputc('\n', f);
    if (r->quotes)
        fprintf(f, "  and in %zu text%s that quoted them (messages, notes, reasons, run.args)\n",
                r->quotes, r->quotes == 1 ? "" : "s");
    if (!r->keyed && r->replaced)
        fprintf(f, "  random tokens differ in every file: give --key or --key-file to keep "
                "runs of one machine recognisable\n");
}

int cmd_redact(const char *in_path, const char *out_path, const char *key_text,
               const char *key_file, FILE *out, FILE *err)
{
    struct redact_key key;
    struct redact_result res;
    struct load_result lr;
    struct diag_list d;
    char why[200], *bytes = NULL, *dest = NULL;
    size_t len = 0, i;
    bool to_stdout = out_path && strcmp(out_path, "-") == 0;
    int rc = EXIT_INVALID;

    memset(&res, 0, sizeof(res));
    if (key_text ? !redact_key_from_text(key_text, &key, why, sizeof(why))
        : key_file ? !redact_key_from_file(key_file, &key, why, sizeof(why))
                   : !redact_key_random(&key, why, sizeof(why))) {
        fprintf(err, PREFIX "%s: %s\n", key_file ? key_file : "key", why);
        return key_text ? EXIT_USAGE : EXIT_INVALID;
    }
    load_file_bytes(in_path, &lr, &bytes, &len);
    if (lr.status != LOAD_OK) {
        fprintf(err, PREFIX "%s: %s\n", in_path, lr.message);
        goto out;
    }
    diag_init(&d);
    if (validate_report(lr.root, &d))
        fprintf(err, PREFIX "warning: %s: not a valid report (%zu error%s); redacting it all the "
                "same (`tlbscope-report validate` lists every problem)\n", in_path, d.errors,
                d.errors == 1 ? "" : "s");
    diag_free(&d);
    if (!redact_report(bytes, len, lr.root, &key, &res)) {
        fprintf(err, PREFIX "%s: %s\n", in_path, res.message);
        goto out;
    }
    dest = out_path ? strdup(out_path) : commands_redacted_name(in_path);
    if (!dest) {
        fprintf(err, PREFIX "out of memory\n");
        goto out;
    }
    if (to_stdout) {
        if (fwrite(res.text, 1, res.len, out) != res.len || fflush(out) != 0) {
            fprintf(err, PREFIX "writing the redacted report to standard output failed\n");
            goto out;
        }
    } else if ((rc = write_new_file(dest, in_path, res.text, res.len, err)) != EXIT_VALID) {
        goto out;
    }
    for (i = 0; i < res.nleftovers; i++)
        fprintf(err, PREFIX "warning: %s: line %zu still holds the value of %s, outside that "
                "field (a placeholder the firmware repeats?); check it before sharing\n",
                to_stdout ? "(standard output)" : dest, res.leftovers[i].line,
                res.leftovers[i].field);
    redact_summary(in_path, to_stdout ? "standard output" : dest, &res, to_stdout ? err : out);
    rc = EXIT_VALID;
out:
    redact_result_free(&res);
    load_release(&lr);
    free(bytes);
    free(dest);
    redact_key_free(&key);
    return rc;
}
