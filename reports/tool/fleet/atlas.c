#include "reports/tool/fleet/atlas.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/fleet/headline.h"
#include "reports/tool/views/page.h"
#include "reports/tool/views/svg.h"
#include "reports/tool/model/units.h"

#define PREFIX "tlbscope-report: "

/* The sections, in this order: hardware first; the others are not hardware costs. */
static const struct {
    const char *id, *title, *badge, *note;
} envs[] = {
    { "hardware", "Hardware", "hw", "Measured on the machine, no hypervisor." },
    { "virtualised", "Virtualised", "virt",
      "Measured under a hypervisor (cpu.hypervisor): the hypervisor's costs, not the CPU's." },
    { "emulated", "Emulated", "emu",
      "Emulated instructions or an emulator (QEMU TCG with emulate=, Bochs): emulator timings, "
      "never hardware costs." },
    { "simulated", "Simulated", "sim",
      "tlbscope-sim's model: the model's timings, no hardware took part." },
};
#define NENVS (sizeof(envs) / sizeof(envs[0]))

struct hrow {
    size_t env;
    char *model, *figure, *cls, *unit, *machine;
    double value, ns;
};

struct column {
    size_t env;
    char *model;
    long long runs, machines;
};

struct atlas {
    struct hrow *rows;
    size_t nrows, caprows;
    struct column *cols;
    size_t ncols, capcols;
    bool oom;
};

static size_t env_index(const char *e)
{
    size_t i;
    if (MUTANT(fleet_atlas_pools_environments))
        return 0;
    for (i = 0; e && i < NENVS; i++)
        if (strcmp(e, envs[i].id) == 0)
            return i;
    return 0;
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

static int take_headline(void *ctx, int ncols, const char *const *names, const char *const *v)
{
    struct atlas *a = ctx;
    struct hrow *h;
    (void)names;
    if (ncols < 8 || !v[4])
        return 0;
    if (a->nrows == a->caprows) {
        size_t cap = a->caprows ? 2 * a->caprows : 256;
        struct hrow *n = realloc(a->rows, cap * sizeof(*n));
        if (!n) {
            a->oom = true;
            return 1;
        }
        a->rows = n;
        a->caprows = cap;
    }
    h = &a->rows[a->nrows++];
    h->env = env_index(v[0]);
    h->model = dup_or_empty(v[1]);
    h->figure = dup_or_empty(v[2]);
    h->cls = dup_or_empty(v[3]);
    h->value = strtod(v[4], NULL);
    h->ns = v[5] ? strtod(v[5], NULL) : NAN;
    h->unit = dup_or_empty(v[6]);
    h->machine = dup_or_empty(v[7]);
    return 0;
}

static int take_column(void *ctx, int ncols, const char *const *names, const char *const *v)
{
    struct atlas *a = ctx;
    struct column *c;
    size_t env;
    (void)names;
    if (ncols < 4)
        return 0;
    env = env_index(v[0]);
    /* pooled (the mutant): one column per model, its counts summed */
    if (a->ncols && a->cols[a->ncols - 1].env == env &&
        strcmp(a->cols[a->ncols - 1].model, v[1] ? v[1] : "") == 0) {
        a->cols[a->ncols - 1].runs += v[2] ? atoll(v[2]) : 0;
        a->cols[a->ncols - 1].machines += v[3] ? atoll(v[3]) : 0;
        return 0;
    }
    if (a->ncols == a->capcols) {
        size_t cap = a->capcols ? 2 * a->capcols : 32;
        struct column *n = realloc(a->cols, cap * sizeof(*n));
        if (!n) {
            a->oom = true;
            return 1;
        }
        a->cols = n;
        a->capcols = cap;
    }
    c = &a->cols[a->ncols++];
    c->env = env;
    c->model = dup_or_empty(v[1]);
    c->runs = v[2] ? atoll(v[2]) : 0;
    c->machines = v[3] ? atoll(v[3]) : 0;
    return 0;
}

static void atlas_free(struct atlas *a)
{
    size_t i;
    for (i = 0; i < a->nrows; i++) {
        free(a->rows[i].model);
        free(a->rows[i].figure);
        free(a->rows[i].cls);
        free(a->rows[i].unit);
        free(a->rows[i].machine);
    }
    for (i = 0; i < a->ncols; i++)
        free(a->cols[i].model);
    free(a->rows);
    free(a->cols);
}

/* One cell: the figure of one model in one environment over its runs. */
struct cell {
    double median, lo, hi;
    size_t runs, machines;
    bool in_ns;
    const char *unit;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool cell_of(const struct atlas *a, size_t env, const char *model, const char *figure,
                    const char *cls, struct cell *c)
{
    double *vals = malloc((a->nrows ? a->nrows : 1) * sizeof(*vals));
    const char **machines = malloc((a->nrows ? a->nrows : 1) * sizeof(*machines));
    size_t i, k, n = 0, nm = 0;
    bool all_ns = true;
    memset(c, 0, sizeof(*c));
    if (!vals || !machines) {
        free(vals);
        free(machines);
        return false;
    }
    for (i = 0; i < a->nrows; i++) {
        const struct hrow *h = &a->rows[i];
        if (h->env == env && strcmp(h->model, model) == 0 && strcmp(h->figure, figure) == 0 &&
            strcmp(h->cls, cls) == 0) {
            all_ns = all_ns && isfinite(h->ns);
            c->unit = h->unit;
        }
    }
    for (i = 0; i < a->nrows; i++) {
        const struct hrow *h = &a->rows[i];
        if (h->env != env || strcmp(h->model, model) != 0 || strcmp(h->figure, figure) != 0 ||
            strcmp(h->cls, cls) != 0)
            continue;
        vals[n++] = all_ns ? h->ns : h->value;
        for (k = 0; k < nm && strcmp(machines[k], h->machine) != 0; k++)
            ;
        if (k == nm)
            machines[nm++] = h->machine;
    }
    if (n) {
        qsort(vals, n, sizeof(*vals), cmp_double);
        c->median = n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2;
        c->lo = vals[0];
        c->hi = vals[n - 1];
        c->runs = n;
        c->machines = nm;
        c->in_ns = all_ns && strcmp(c->unit, "ticks") == 0;
    }
    free(vals);
    free(machines);
    return n > 0;
}

/*
 * A value as the page shows it. The unit comes from the database, that is from a report
 * (recommendations.entries[].unit): the validator holds it to a few words, but a database
 * written by an older tool, or by hand, may hold anything, so it is escaped like any text.
 */
static void put_value(FILE *out, const struct cell *c, double v)
{
    char t[48];
    if (c->in_ns) {
        fputs(units_time(v, t, sizeof(t)), out);
    } else if (strcmp(c->unit, "ticks") == 0) {
        fprintf(out, "%s ticks", units_count(v, t, sizeof(t)));
    } else if (strcmp(c->unit, "percent") == 0) {
        fprintf(out, "%s%%", units_number(v, t, sizeof(t)));
    } else {
        fprintf(out, "%s ", units_number(v, t, sizeof(t)));
        if (MUTANT(atlas_unit_unescaped))
            fputs(c->unit, out);
        else
            svg_text(out, c->unit);
    }
}

/* The rows of the table: figure x class, in headline_figures' order, classes sorted. */
struct frow {
    const struct headline_figure *f;
    const char *cls;
};

static size_t figure_rows(const struct atlas *a, size_t env, struct frow *out, size_t cap)
{
    size_t f, i, k, n = 0;
    for (f = 0; f < headline_nfigures; f++) {
        size_t first = n;
        for (i = 0; i < a->nrows; i++) {
            const struct hrow *h = &a->rows[i];
            if (h->env != env || strcmp(h->figure, headline_figures[f].id) != 0)
                continue;
            for (k = first; k < n && strcmp(out[k].cls, h->cls) != 0; k++)
                ;
            if (k == n && n < cap) {
                out[n].f = &headline_figures[f];
                out[n++].cls = h->cls;
            }
        }
        /* classes in a fixed order: insertion sort by name */
        for (i = first + 1; i < n; i++)
            for (k = i; k > first && strcmp(out[k - 1].cls, out[k].cls) > 0; k--) {
                struct frow t = out[k];
                out[k] = out[k - 1];
                out[k - 1] = t;
            }
    }
    return n;
}

static void row_label(FILE *out, const struct frow *r)
{
    svg_text(out, r->f->label);
    if (r->cls[0]) {
        fputs(": ", out);
        svg_text(out, r->cls);
    }
}

static void table(FILE *out, const struct atlas *a, size_t env, const struct column *cols,
                  size_t ncols, const struct frow *rows, size_t nrows)
{
    size_t i, j;
    fputs("<div class=\"scroll\"><table class=\"atlas\">\n<tr><th>figure</th>", out);
    for (j = 0; j < ncols; j++) {
        fputs("<th class=\"model\">", out);
        svg_text(out, cols[j].model);
        fprintf(out, "<br><span class=\"muted\">%lld run%s, %lld machine%s</span></th>",
                cols[j].runs, cols[j].runs == 1 ? "" : "s", cols[j].machines,
                cols[j].machines == 1 ? "" : "s");
    }
    fputs("</tr>\n", out);
    for (i = 0; i < nrows; i++) {
        fputs("<tr><th>", out);
        row_label(out, &rows[i]);
        fputs("</th>", out);
        for (j = 0; j < ncols; j++) {
            struct cell c;
            if (!cell_of(a, env, cols[j].model, rows[i].f->id, rows[i].cls, &c)) {
                fputs("<td class=\"num muted\">-</td>", out);
                continue;
            }
            fputs("<td class=\"num\"><b>", out);
            put_value(out, &c, c.median);
            fputs("</b>", out);
            if (c.runs > 1) {
                fputs("<br><span class=\"spread\">", out);
                put_value(out, &c, c.lo);
                fputs(" to ", out);
                put_value(out, &c, c.hi);
                fputs("</span>", out);
            }
            fprintf(out, "<br><span class=\"muted\">%zu run%s, %zu machine%s</span></td>", c.runs,
                    c.runs == 1 ? "" : "s", c.machines, c.machines == 1 ? "" : "s");
        }
        fputs("</tr>\n", out);
    }
    fputs("</table></div>\n", out);
}

/* A range chart: one line per model from its lowest to its highest run, a dot at the median. */
#define CH_W 880 /* room right of CH_RIGHT for the median's label */
#define CH_LEFT 300
#define CH_RIGHT 720
#define CH_ROW 26
#define CH_AXIS 34 /* the value axis under the rows: its line, ticks and their values */

static size_t first_shown(const bool *has, size_t n)
{
    size_t j;
    for (j = 0; j < n && !has[j]; j++)
        ;
    return j < n ? j : 0;
}

/*
 * The value axis at height y: ticks at 1, 2 and 5 times a power of ten (log
 * scale) or at a round step (linear), each value in the figure's unit (`c`'s).
 */
static void range_axis(FILE *out, const struct cell *c, double lo, double hi, bool log_scale,
                       double y)
{
    double v, step, mag, f;
    int k, shown = 0;
#define XPOS(v) (CH_LEFT + (CH_RIGHT - CH_LEFT) * (log_scale ? log((v) / lo) / log(hi / lo) \
                                                              : ((v) - lo) / (hi - lo)))
    fprintf(out, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
            "stroke=\"#57606a\"/>\n", CH_LEFT, y, CH_RIGHT, y);
    if (log_scale) {
        static const double mult[] = { 1, 2, 5 };
        for (v = pow(10, floor(log10(lo))); v <= hi && shown < 40; v *= 10) {
            for (k = 0; k < 3; k++) {
                double t = mult[k] * v;
                if (t < lo * 0.999 || t > hi * 1.001)
                    continue;
                fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                        "stroke=\"#57606a\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
                        "text-anchor=\"middle\">", XPOS(t), y, XPOS(t), y + 4, XPOS(t), y + 16);
                put_value(out, c, t);
                fputs("</text>\n", out);
                shown++;
            }
        }
        return;
    }
    /* 1, 2 or 5 times a power of ten: about four ticks */
    mag = pow(10, floor(log10((hi - lo) / 4)));
    f = (hi - lo) / 4 / mag;
    step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    for (v = ceil(lo / step) * step; v <= hi * 1.0001 && shown < 12 && step > 0; v += step) {
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#57606a\"/>"
                "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", XPOS(v),
                y, XPOS(v), y + 4, XPOS(v), y + 16);
        put_value(out, c, v);
        fputs("</text>\n", out);
        shown++;
    }
#undef XPOS
}
static void chart(FILE *out, const struct atlas *a, size_t env, const struct column *cols,
                  size_t ncols, const struct frow *row)
{
    struct cell *cells = calloc(ncols ? ncols : 1, sizeof(*cells));
    bool *has = calloc(ncols ? ncols : 1, sizeof(*has));
    double lo = INFINITY, hi = -INFINITY;
    size_t j, shown = 0;
    bool log_scale;
    if (!cells || !has) {
        free(cells);
        free(has);
        return;
    }
    for (j = 0; j < ncols; j++) {
        has[j] = cell_of(a, env, cols[j].model, row->f->id, row->cls, &cells[j]);
        if (has[j]) {
            lo = fmin(lo, cells[j].lo);
            hi = fmax(hi, cells[j].hi);
            shown++;
        }
    }
    if (!shown) {
        free(cells);
        free(has);
        return;
    }
    log_scale = lo > 0 && hi / lo > SVG_LOG_RATIO;
    if (!log_scale) {
        lo = fmin(lo, 0);
        if (hi <= lo)
            hi = lo + 1;
    }
    fprintf(out, "<svg class=\"chart range\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\" "
            "role=\"img\"><title>", CH_W, 50 + shown * CH_ROW + CH_AXIS, CH_W,
            50 + shown * CH_ROW + CH_AXIS);
    row_label(out, row);
    fputs("</title>\n<text class=\"ctitle\" x=\"10\" y=\"18\">", out);
    row_label(out, row);
    /* the figure's direction, as the headline table defines it */
    fprintf(out, "%s; %s</text>\n", log_scale ? " (log scale)" : "",
            row->f->lower_is_better ? "lower is better" : "higher is better");
    range_axis(out, &cells[first_shown(has, ncols)], lo, hi, log_scale,
               40 + (double)(shown - 1) * CH_ROW + 16);
    shown = 0;
    for (j = 0; j < ncols; j++) {
        double y, x0, x1, xm;
#define XPOS(v) (CH_LEFT + (CH_RIGHT - CH_LEFT) * (log_scale ? log(v / lo) / log(hi / lo) \
                                                              : ((v) - lo) / (hi - lo)))
        if (!has[j])
            continue;
        y = 40 + (double)shown++ * CH_ROW;
        x0 = XPOS(cells[j].lo);
        x1 = XPOS(cells[j].hi);
        xm = XPOS(cells[j].median);
#undef XPOS
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", CH_LEFT - 8,
                y + 4);
        svg_text(out, cols[j].model);
        fprintf(out, "</text>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"%s\" stroke-width=\"4\" stroke-linecap=\"round\"/>\n", x0, y,
                x1 > x0 + 1 ? x1 : x0 + 1, y, svg_palette(j));
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\" stroke=\"#222\">"
                "<title>", xm, y, svg_palette(j));
        svg_text(out, cols[j].model);
        fputs(": median ", out);
        put_value(out, &cells[j], cells[j].median);
        fprintf(out, " over %zu run%s</title></circle>\n", cells[j].runs,
                cells[j].runs == 1 ? "" : "s");
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">", fmin(x1, CH_RIGHT) + 10,
                y + 4);
        put_value(out, &cells[j], cells[j].median);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
    free(cells);
    free(has);
}

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "margin:0 auto;max-width:1340px;padding:16px 24px;color:#1d1d1f;background:#fff;"
    "line-height:1.4}\n"
    "h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.25em;margin-top:2em;border-bottom:2px "
    "solid #d0d7de;padding-bottom:4px}\n"
    "table{border-collapse:collapse;margin:8px 0;font-size:.9em}th,td{border:1px solid "
    "#d0d7de;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f5f7}\n"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}.scroll{overflow-x:auto}\n"
    ".muted{color:#6e7781;font-size:.85em}.spread{color:#57606a;font-size:.85em}\n"
    ".badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:.8em;font-weight:600;"
    "margin-right:4px}\n"
    ".hw{background:#dafbe1;color:#116329}.virt{background:#fff1c2;color:#7d4e00}"
    ".emu{background:#f3e8ff;color:#6b21a8}.sim{background:#dbeafe;color:#1e3a8a}\n"
    "svg.chart{display:block;margin:10px 0}.ctitle{font-size:14px;font-weight:600}"
    ".tick{font-size:12px;fill:#333}\n";

static int take_count(void *ctx, int ncols, const char *const *names, const char *const *v)
{
    (void)names;
    *(size_t *)ctx = ncols >= 1 && v[0] ? (size_t)strtoull(v[0], NULL, 10) : 0;
    return 1;
}

int atlas_write(struct fdb *db, FILE *out, FILE *err)
{
    struct atlas a;
    size_t e, j, total_runs = 0;
    int rc = 0;
    memset(&a, 0, sizeof(a));
    if (fdb_query(db, "SELECT h.environment, r.cpu_model, h.figure, h.class, h.value, "
                  "h.value_ns, h.unit, r.machine_id FROM headlines h JOIN runs r ON "
                  "r.run_key = h.run_key ORDER BY h.environment, r.cpu_model, h.figure, h.class",
                  0, NULL, take_headline, &a) ||
        fdb_query(db, "SELECT environment, cpu_model, COUNT(DISTINCT run_key), "
                  "COUNT(DISTINCT machine_id) FROM (SELECT r.environment, r.cpu_model, "
                  "r.run_key, r.machine_id FROM runs r UNION SELECT h.environment, r.cpu_model, "
                  "r.run_key, r.machine_id FROM headlines h JOIN runs r ON r.run_key = h.run_key"
                  ") u GROUP BY environment, cpu_model ORDER BY environment, cpu_model",
                  0, NULL, take_column, &a)) {
        fprintf(err, PREFIX "atlas: %s\n", fdb_error(db));
        atlas_free(&a);
        return -1;
    }
    if (a.oom) {
        fprintf(err, PREFIX "atlas: out of memory\n");
        atlas_free(&a);
        return -1;
    }
    if (fdb_query(db, "SELECT COUNT(*) FROM runs", 0, NULL, take_count, &total_runs)) {
        fprintf(err, PREFIX "atlas: %s\n", fdb_error(db));
        atlas_free(&a);
        return -1;
    }
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            PAGE_CSP_META "<title>tlbscope atlas: %zu CPU model column%s</title>\n"
            "<style>\n%s</style>\n</head>\n<body>\n<h1>tlbscope atlas</h1>\n", a.ncols,
            a.ncols == 1 ? "" : "s", css);
    fprintf(out, "<p class=\"muted\">Every CPU model in the fleet database (%zu runs). Each "
            "cell: the median of the figure over the model's runs in bold, the lowest and "
            "highest run under it, and how many runs and machines it rests on. Times in ns "
            "from each run's TSC frequency (ticks where a run lacks it). Hardware, virtualised, "
            "emulated and simulated runs are kept in separate sections and never pooled. "
            "Machines are told apart by an ID; serial numbers and UUIDs are not shown.</p>\n",
            total_runs);
    for (e = 0; e < NENVS; e++) {
        struct column *cols = a.cols;
        struct frow rows[64];
        size_t ncols = 0, nrows, first = a.ncols, i;
        for (j = 0; j < a.ncols; j++)
            if (a.cols[j].env == e) {
                first = first < j ? first : j;
                ncols++;
            }
        if (!ncols)
            continue;
        cols += first; /* take_column's order: one environment's columns are adjacent */
        nrows = figure_rows(&a, e, rows, sizeof(rows) / sizeof(rows[0]));
        fprintf(out, "<section id=\"env-%s\">\n<h2><span class=\"badge %s\">%s</span>%s: %zu "
                "CPU model%s</h2>\n<p class=\"muted\">%s</p>\n", envs[e].id, envs[e].badge,
                envs[e].id, envs[e].title, ncols, ncols == 1 ? "" : "s", envs[e].note);
        if (!nrows)
            fputs("<p>No headline figure: these runs measured none of them.</p>\n", out);
        else
            table(out, &a, e, cols, ncols, rows, nrows);
        for (i = 0; i < nrows; i++)
            chart(out, &a, e, cols, ncols, &rows[i]);
        fputs("</section>\n", out);
    }
    if (!a.ncols)
        fputs("<p>The database holds no run yet: `tlbscope-report import --db DB DIR` first."
              "</p>\n", out);
    fputs("</body>\n</html>\n", out);
    if (ferror(out))
        rc = -1;
    atlas_free(&a);
    return rc;
}
