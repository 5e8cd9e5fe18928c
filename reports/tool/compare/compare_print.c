/* Printing a comparison: aligned text, Markdown, or one CSV table. */
#include <math.h>
#include <string.h>

#include <stdlib.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_summary.h"
#include "reports/tool/compare/compare_windows.h"
#include "reports/tool/views/conditions.h"
#include "reports/tool/views/recommend_view.h"
#include "reports/tool/model/cpu_roles.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")
#define COMPARE_WIDTH 80

/* What the markdown machine column means (serial numbers and UUIDs are never printed). */
static const char machine_note[] =
    "Reports with the same machine label come from one machine: the same serial number and "
    "UUID, or the same tokens after `tlbscope-report redact` with one key. \"-\": the report "
    "records neither.";

static const char *unit_name(const struct cmp_model *m) { return m->in_ns ? "ns" : "ticks"; }

/*
 * "1.66 ms*": the value scaled to a readable unit, with the marks of its cell
 * (legend printed with the table); ticks only where a report lacks its TSC rate.
 */
static const char *mark_value(const struct cmp_model *m, const struct cmp_cell *c, double v,
                              char *buf, size_t cap)
{
    char num[32];
    if (!c->present || !isfinite(v)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    if (m->in_ns)
        units_time(v, num, sizeof(num));
    else
        units_ticks(v, num, sizeof(num));
    snprintf(buf, cap, "%s%s%s%s", num, c->virtualised ? "*" : "", c->simulated ? "^" : "",
             c->emulated ? "~" : "");
    return buf;
}

static const char *plain_value(const struct cmp_model *m, const struct cmp_cell *c, double v,
                               char *buf, size_t cap)
{
    if (!c->present || !isfinite(v))
        snprintf(buf, cap, "%s", "");
    else if (m->in_ns)
        snprintf(buf, cap, "%.1f", v);
    else
        snprintf(buf, cap, "%.0f", v);
    return buf;
}

/*
 * The vendor comparison header: what each side is. The CPU, its microcode
 * and CPU count are what a comparison of machines compares, so they lead
 * and are never warned about; the machine and firmware follow.
 */
static void cpu_line(const struct m_report *r, char *buf, size_t cap)
{
    if (r->simulated) { /* no machine: the model and the CPU profile it was given */
        snprintf(buf, cap, "modelled %s %s, %lld CPUs", S(r->vendor),
                 r->brand ? r->brand : "(no brand)", r->cpu_count);
        return;
    }
    if (r->aarch64) { /* no CPUID: the MIDR and who made the core */
        snprintf(buf, cap, "aarch64 MIDR %s (implementer %s), EL%lld, %lld CPUs", S(r->midr),
                 r->implementer_name ? r->implementer_name : S(r->implementer),
                 r->exception_level, r->cpu_count);
        return;
    }
    snprintf(buf, cap, "%s %s, microcode %s, %lld CPUs", S(r->vendor),
             r->brand ? r->brand : "(no brand)", r->microcode ? r->microcode : "unknown",
             r->cpu_count);
}

static void machine_line(const struct m_report *r, char *buf, size_t cap)
{
    char bios[160], machine[160], sim[200];
    if (r->simulated) {
        snprintf(buf, cap, "simulated by tlbscope-sim, %s",
                 model_simulation_text(r, sim, sizeof(sim)));
        return;
    }
    snprintf(buf, cap, "%s, BIOS %s, %s%s", model_machine_name(r, machine, sizeof(machine)),
             model_bios_text(r, bios, sizeof(bios)), r->hypervisor ? "hypervisor " : "no hypervisor",
             r->hypervisor ? r->hypervisor : "");
}

static void flags_text(const struct m_report *r, char *buf, size_t cap)
{
    char seed[32] = "?";
    size_t len;
    if (r->sim.seed >= 0)
        snprintf(seed, sizeof(seed), "%lld", r->sim.seed);
    snprintf(buf, cap, "%s%s%s", r->virtualised ? "[VIRTUALISED: " : "",
             r->virtualised ? r->hypervisor : "", r->virtualised ? "]" : "");
    len = strlen(buf);
    if (r->simulated)
        snprintf(buf + len, cap - len, "%s[SIMULATED: profile %s, seed %s]", len ? " " : "",
                 S(r->sim.profile), seed);
    len = strlen(buf);
    if (r->machine_emulated)
        snprintf(buf + len, cap - len, "%s[EMULATED: %s]", len ? " " : "", S(r->emulator));
    else if (r->emulated)
        snprintf(buf + len, cap - len, "%s[EMULATED]", len ? " " : "");
}

/* Every report simulated: they may be compared, but only as the model's numbers. */
static bool all_simulated(const struct cmp_model *m)
{
    size_t i;
    for (i = 0; i < m->nreports; i++)
        if (!m->reports[i]->simulated)
            return false;
    return m->nreports > 0;
}

static void mixed_warning(const struct cmp_model *m, char *buf, size_t cap)
{
    size_t i, len;
    snprintf(buf, cap, "hardware report(s)");
    for (i = 0; i < m->nreports; i++) {
        len = strlen(buf);
        if (compare_is_hardware(m->reports[i]))
            snprintf(buf + len, cap - len, " %s", m->reports[i]->label);
    }
    len = strlen(buf);
    snprintf(buf + len, cap - len, " compared with virtualised or emulated report(s)");
    for (i = 0; i < m->nreports; i++) {
        len = strlen(buf);
        if (!compare_is_hardware(m->reports[i]))
            snprintf(buf + len, cap - len, " %s", m->reports[i]->label);
    }
    len = strlen(buf);
    snprintf(buf + len, cap - len, ": their timings are not hardware timings");
}

static const struct cmp_model *sort_model; /* qsort has no context argument in C11 */
static const struct cmp_section *sort_section;

static int cmp_by_ratio(const void *a, const void *b)
{
    double x = compare_row_max_ratio(sort_model, &sort_section->rows[*(const size_t *)a]);
    double y = compare_row_max_ratio(sort_model, &sort_section->rows[*(const size_t *)b]);
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (isnan(x) != isnan(y))
        return isnan(x) ? 1 : -1;
    if (x != y && !isnan(x))
        return x > y ? -1 : 1;
    return i < j ? -1 : i > j;
}

size_t compare_row_order(const struct cmp_model *m, const struct cmp_section *s, size_t *idx)
{
    size_t j, n = 0;
    for (j = 0; j < s->nrows; j++) {
        if (s->rows[j].unmatched)
            continue;
        if (m->opts.only_differences && !compare_row_differs(m, &s->rows[j]))
            continue;
        idx[n++] = j;
    }
    if (m->opts.sort_ratio) {
        sort_model = m;
        sort_section = s;
        qsort(idx, n, sizeof(*idx), cmp_by_ratio);
    }
    return n;
}

/* "1.84" with "?" when either side's numbers are not hardware's (see the legend). */
static void ratio_cell(const struct cmp_model *m, const struct cmp_row *row, size_t i, char *buf,
                       size_t cap)
{
    const struct cmp_cell *cell = &row->cells[i];
    double q = compare_ratio(row, i);
    char a[48];
    bool marked = isfinite(q) && (!compare_is_hardware(m->reports[row->base]) ||
                                  cell->virtualised || cell->emulated || cell->simulated ||
                                  row->cells[row->base].emulated);
    char pct[24] = "";
    if (isfinite(q))
        compare_percent_text(q, pct, sizeof(pct));
    snprintf(buf, cap, "%s%s%s%s", units_ratio(q, a, sizeof(a)), marked ? "?" : "",
             pct[0] ? " " : "", pct);
}

static void range_cell(const struct cmp_row *row, size_t i, char *buf, size_t cap)
{
    double lo, hi;
    char a[32], b[32];
    if (!compare_ratio_range(row, i, &lo, &hi))
        snprintf(buf, cap, "%s", isfinite(compare_ratio(row, i)) ? "?" : "-");
    else
        snprintf(buf, cap, "%s-%s", units_ratio(lo, a, sizeof(a)), units_ratio(hi, b, sizeof(b)));
}

/* The parameter columns' headers: "class" by topology class, else the section's keys. */
/* Is parameter column c the same on every row of the section (and are there two rows)? */
static bool constant_column(const struct cmp_section *s, size_t c)
{
    char a[48], b[48];
    size_t j;
    if (s->by_class || s->nrows < 2)
        return false;
    model_param_text(s->rows[0].vals[c], a, sizeof(a));
    for (j = 1; j < s->nrows; j++)
        if (strcmp(model_param_text(s->rows[j].vals[c], b, sizeof(b)), a) != 0)
            return false;
    return true;
}

size_t compare_constant_params(const struct cmp_section *s, char *buf, size_t cap)
{
    char a[48];
    size_t c, n = 0, len = 0;
    if (cap)
        buf[0] = '\0';
    for (c = 0; !s->by_class && c < s->keys.n; c++) {
        if (!constant_column(s, c))
            continue;
        model_param_text(s->rows[0].vals[c], a, sizeof(a));
        len += (size_t)snprintf(buf + (len < cap ? len : cap), len < cap ? cap - len : 0,
                                "%s%s=%s", n ? ", " : "", s->keys.keys[c], a);
        n++;
    }
    return n;
}

/* The parameter columns shown: every one, or (drop_constant) those that vary between rows. */
static size_t shown_params(const struct cmp_section *s, bool drop_constant, bool *keep)
{
    size_t c, n = 0;
    for (c = 0; !s->by_class && c < s->keys.n; c++) {
        keep[c] = !drop_constant || !constant_column(s, c);
        n += keep[c];
    }
    return s->by_class ? 1 : n;
}

static void param_headers(struct table *t, const struct cmp_section *s, const bool *keep)
{
    size_t j, col = 0;
    if (s->by_class)
        table_header(t, 0, "class", false);
    for (j = 0; !s->by_class && j < s->keys.n; j++)
        if (!keep || keep[j])
            table_header(t, col++, s->keys.keys[j], true);
}

/* A row's parameter cells, whole: a narrow column wraps them at blanks (table_wrap). */
static void param_cells(struct table *t, size_t r, const struct cmp_section *s,
                        const struct cmp_row *row, const bool *keep)
{
    char a[128];
    size_t c, col = 0;
    if (s->by_class) {
        table_set(t, r, 0, "%s", row->cls);
        return;
    }
    for (c = 0; c < s->keys.n; c++) {
        if (keep && !keep[c])
            continue;
        model_param_text(row->vals[c], a, sizeof(a));
        if (MUTANT(compare_value_cut) && strlen(a) > 6)
            memcpy(a + 3, "...", 4); /* the old cut: "invpcid_single_context" as "inv..." */
        table_set(t, r, col++, "%s", a);
    }
}

/* The wide layout: parameters, then per side p50 and p99, and each ratio to the base. */
static struct table *wide_table(const struct cmp_model *m, const struct cmp_section *s,
                                bool p99)
{
    size_t nk = s->by_class ? 1 : s->keys.n, per = m->intervals ? 3 : 1;
    size_t ncols = nk + m->nreports * (p99 ? 2 : 1) + (m->nreports - 1) * per, i, j, c, n;
    size_t *idx = calloc(s->nrows ? s->nrows : 1, sizeof(*idx));
    struct table *t = idx ? table_new(ncols ? ncols : 1) : NULL;
    const char *bl = m->reports[s->base]->label;
    char head[64], a[48];
    if (!t) {
        free(idx);
        return NULL;
    }
    param_headers(t, s, NULL);
    for (i = 0, c = nk; i < m->nreports; i++) {
        const char *l = m->reports[i]->label;
        snprintf(head, sizeof(head), "%s p50", l);
        table_header(t, c++, head, true);
        if (p99) {
            snprintf(head, sizeof(head), "%s p99", l);
            table_header(t, c++, head, true);
        }
        if (i != s->base) {
            snprintf(head, sizeof(head), "%s/%s", l, bl);
            table_header(t, c++, head, true);
        }
        if (i != s->base && m->intervals) {
            snprintf(head, sizeof(head), "%s/%s %s", l, bl, m->pooled ? "range" : "interval");
            table_header(t, c++, head, true);
            table_header(t, c++, "verdict", false);
        }
    }
    n = compare_row_order(m, s, idx);
    for (j = 0; j < n; j++) {
        const struct cmp_row *row = &s->rows[idx[j]];
        size_t r = table_add_row(t);
        param_cells(t, r, s, row, NULL);
        for (i = 0, c = nk; i < m->nreports; i++) {
            const struct cmp_cell *cell = &row->cells[i];
            table_set(t, r, c++, "%s", mark_value(m, cell, cell->p50, a, sizeof(a)));
            if (p99)
                table_set(t, r, c++, "%s", mark_value(m, cell, cell->p99, a, sizeof(a)));
            if (i != s->base) {
                ratio_cell(m, row, i, a, sizeof(a));
                table_set(t, r, c++, "%s", a);
            }
            if (i != s->base && m->intervals) {
                range_cell(row, i, a, sizeof(a));
                table_set(t, r, c++, "%s", a);
                table_set(t, r, c++, "%s", compare_verdict_text(compare_verdict(row, i)));
            }
        }
    }
    free(idx);
    return t;
}

/* "pages=1 flush=invpcid_single_context mode=conc": a point's shown parameters, whole. */
static void point_text(const struct cmp_section *s, const struct cmp_row *row, const bool *keep,
                       char *buf, size_t cap)
{
    char a[128];
    size_t c, len = 0;
    buf[0] = '\0';
    if (s->by_class) {
        snprintf(buf, cap, "class=%s", row->cls);
        return;
    }
    for (c = 0; c < s->keys.n && len < cap; c++) {
        if (!keep[c])
            continue;
        snprintf(buf + len, cap - len, "%s%s=%s", len ? " " : "", s->keys.keys[c],
                 model_param_text(row->vals[c], a, sizeof(a)));
        len = strlen(buf);
    }
}

/*
 * The long layout, for more sides than fit side by side: one row per point
 * and side that has it, with its ratio to the section's base. by_point (the last resort):
 * the parameters leave the columns for a line above each point's rows.
 */
static struct table *long_table(const struct cmp_model *m, const struct cmp_section *s,
                                bool p99, size_t param_wrap, bool interval, bool percent,
                                bool drop_constant, bool by_point)
{
    size_t q = p99 ? 1 : 0; /* the p99 column, or none: the columns after it move left */
    bool iv = m->intervals && interval; /* the interval column (the verdict stays) */
    bool *keep = calloc(s->keys.n ? s->keys.n : 1, sizeof(*keep));
    /* by_point: one empty column, so that a point's rows stand 2 in under its line */
    size_t nk = !keep ? 0 : by_point ? (shown_params(s, drop_constant, keep), 1)
                                     : shown_params(s, drop_constant, keep);
    size_t ncols = nk + 3 + q + (m->intervals ? 1 : 0) + iv, i, j, n;
    size_t *idx = calloc(s->nrows ? s->nrows : 1, sizeof(*idx));
    struct table *t = idx && keep ? table_new(ncols) : NULL;
    char head[64], a[48], point[512];
    if (!t) {
        free(idx);
        free(keep);
        return NULL;
    }
    if (!by_point)
        param_headers(t, s, keep);
    for (j = 0; param_wrap && j < nk; j++)
        table_wrap(t, j, param_wrap);
    table_header(t, nk, "side", false);
    table_header(t, nk + 1, "p50", true);
    if (p99)
        table_header(t, nk + 2, "p99", true);
    /* compact (the last resort for 80 columns): the base is the row marked "base" */
    snprintf(head, sizeof(head), "/%s", m->reports[s->base]->label);
    table_header(t, nk + 2 + q, percent ? head : "ratio", true);
    if (iv)
        table_header(t, nk + 3 + q, m->pooled ? "range" : "interval", true);
    if (m->intervals)
        table_header(t, nk + 3 + q + iv, "verdict", false);
    n = compare_row_order(m, s, idx);
    for (j = 0; j < n; j++) {
        const struct cmp_row *row = &s->rows[idx[j]];
        if (by_point) {
            point_text(s, row, keep, point, sizeof(point));
            table_add_span(t, point[0] ? point : "(every parameter as above)");
        }
        for (i = 0; i < m->nreports; i++) {
            const struct cmp_cell *cell = &row->cells[i];
            size_t r;
            if (!cell->present)
                continue;
            r = table_add_row(t);
            if (!by_point)
                param_cells(t, r, s, row, keep);
            table_set(t, r, nk, "%s", m->reports[i]->label);
            table_set(t, r, nk + 1, "%s", mark_value(m, cell, cell->p50, a, sizeof(a)));
            if (p99)
                table_set(t, r, nk + 2, "%s", mark_value(m, cell, cell->p99, a, sizeof(a)));
            if (i == s->base) {
                table_set(t, r, nk + 2 + q, "base");
                continue;
            }
            ratio_cell(m, row, i, a, sizeof(a));
            if (!percent) /* "1.28? +28%" -> "1.28?": the ratio says it */
                a[strcspn(a, " ")] = '\0';
            table_set(t, r, nk + 2 + q, "%s", a);
            if (iv) {
                range_cell(row, i, a, sizeof(a));
                table_set(t, r, nk + 3 + q, "%s", a);
            }
            if (m->intervals) {
                enum cmp_verdict v = compare_verdict(row, i);
                table_set(t, r, nk + 3 + q + iv, "%s",
                          percent ? compare_verdict_text(v)
                          : v == CMP_NO_DIFFERENCE ? "no diff." : v == CMP_SPREAD_UNKNOWN
                                                                       ? "unknown"
                                                                       : compare_verdict_text(v));
            }
        }
    }
    free(idx);
    free(keep);
    return t;
}

struct table *compare_section_table(const struct cmp_model *m, const struct cmp_section *s)
{
    return wide_table(m, s, true);
}

/* Side by side with p99, else without it, else the long layout: the first that fits. */
struct table *compare_section_table_fit(const struct cmp_model *m, const struct cmp_section *s,
                                        size_t width, enum cmp_layout *layout)
{
    struct table *t = wide_table(m, s, true);
    size_t wrap;
    int pass;
    *layout = CMP_LAYOUT_WIDE;
    if (m->opts.wide || table_text_width(t) + 2 <= width)
        return t;
    table_free(t);
    t = wide_table(m, s, false);
    *layout = CMP_LAYOUT_P50;
    if (table_text_width(t) + 2 <= width)
        return t;
    table_free(t);
    *layout = CMP_LAYOUT_LONG;
    t = long_table(m, s, true, 0, true, true, false, false);
    if (table_text_width(t) + 2 <= width)
        return t;
    table_free(t);
    *layout = CMP_LAYOUT_LONG_P50;
    t = long_table(m, s, false, 0, true, true, false, false);
    /* long parameter values ("all other CPUs") wrap at their blanks, never cut */
    for (wrap = 20; table_text_width(t) + 2 > width && wrap >= 9; wrap--) {
        table_free(t);
        t = long_table(m, s, false, wrap, true, true, false, false);
    }
    /* still too wide (many parameters, long side names, ratios in the thousands): the
     * interval goes, then the percentage beside each ratio; the verdict stays */
    for (pass = 0; pass < 2 && table_text_width(t) + 2 > width; pass++) {
        if (pass == 0 && !m->intervals)
            continue;
        table_free(t);
        t = long_table(m, s, false, 0, false, pass == 0, false, false);
        for (wrap = 20; table_text_width(t) + 2 > width && wrap >= 9; wrap--) {
            table_free(t);
            t = long_table(m, s, false, wrap, false, pass == 0, false, false);
        }
    }
    /* then parameters the same on every row leave the table for a line above it
     * (compare_constant_params), on the most compact columns */
    if (table_text_width(t) + 2 > width) {
        table_free(t);
        *layout = CMP_LAYOUT_LONG_CONSTANT;
        t = long_table(m, s, false, 0, false, false, true, false);
        for (wrap = 20; table_text_width(t) + 2 > width && wrap >= 9; wrap--) {
            table_free(t);
            t = long_table(m, s, false, wrap, false, false, true, false);
        }
    }
    /* the last resort: the rest of the parameters on a line above each point's rows, whole
     * (a value is never cut), with the interval and percentage back if they fit */
    for (pass = 0; pass < 3 && table_text_width(t) + 2 > width; pass++) {
        table_free(t);
        *layout = CMP_LAYOUT_BY_POINT;
        t = long_table(m, s, false, 0, pass == 0, pass < 2, true, true);
        table_span_width(t, width - 2);
    }
    return t;
}

bool compare_headline(const struct cmp_model *m, const struct cmp_section *s, size_t side,
                      char *buf, size_t cap)
{
    struct cmp_summary sum;
    char g[32], lo[32], hi[32];
    size_t len;
    bool slower;
    if (side == s->base || !compare_summary(m, s, side, &sum))
        return false;
    slower = sum.geomean >= 1;
    /* "1.31x slower" or "1.31x faster": the factor always above 1, as people say it */
    snprintf(buf, cap, "%s is %sx %s than %s over %zu point%s", m->reports[side]->label,
             units_ratio(slower ? sum.geomean : 1 / sum.geomean, g, sizeof(g)),
             slower ? "slower" : "faster", m->reports[s->base]->label, sum.n,
             sum.n == 1 ? "" : "s");
    len = strlen(buf);
    /* the interval named: which one it is decides what it claims (compare.h) */
    if (sum.all_ranged)
        snprintf(buf + len, cap - len, ", %s [%s, %s]; %zu faster, %zu slower, %zu no "
                 "difference (dead band %g%%)", compare_interval_text(sum.kind),
                 units_ratio(slower ? sum.lo : 1 / sum.hi, lo, sizeof(lo)),
                 units_ratio(slower ? sum.hi : 1 / sum.lo, hi, sizeof(hi)), sum.faster,
                 sum.slower, sum.noise, m->opts.threshold * 100);
    else
        snprintf(buf + len, cap - len, " (geometric mean of p50 ratios %s; spread unknown: "
                 "no interval on a side, so no verdict)", units_ratio(sum.geomean, lo, sizeof(lo)));
    return true;
}

static void summary_lines(const struct cmp_model *m, const struct cmp_section *s, FILE *out,
                          bool markdown)
{
    char line[400];
    size_t i;
    for (i = 0; i < m->nreports; i++) {
        if (!compare_headline(m, s, i, line, sizeof(line)))
            continue;
        if (markdown)
            fprintf(out, "\n**%s**\n", line);
        else
            units_print_wrapped(out, "  => ", "     ", line, COMPARE_WIDTH);
    }
}

/* "only in B: targets=4 mode=seq; ..." for the points fewer than two sides have. */
static void unmatched_lines(const struct cmp_model *m, const struct cmp_section *s, FILE *out,
                            bool markdown)
{
    enum { SHOWN = 8 };
    char line[1200], point[160];
    size_t i, j, count, len;
    for (i = 0; i < m->nreports; i++) {
        count = 0;
        len = 0;
        line[0] = '\0';
        for (j = 0; j < s->nrows; j++) {
            const struct cmp_row *row = &s->rows[j];
            if (!row->unmatched || row->role_covered || !row->cells[i].present)
                continue;
            if (count++ < SHOWN) {
                if (s->by_class)
                    snprintf(point, sizeof(point), "class=%s", row->cls);
                else
                    group_tuple_text(&s->keys, row->vals, point, sizeof(point));
                snprintf(line + len, sizeof(line) - len, "%s%s", len ? "; " : "", point);
                len = strlen(line);
            }
        }
        if (!count)
            continue;
        if (count > SHOWN)
            snprintf(line + len, sizeof(line) - len, "; and %zu more", count - SHOWN);
        snprintf(point, sizeof(point), "%sonly in %s (%zu point%s, not compared by value or role): ",
                 markdown ? "- " : "  ", m->reports[i]->label, count, count == 1 ? "" : "s");
        /* a long side name leaves no room for the first point: it starts the next line,
         * never cut mid-word */
        if (!markdown && strlen(point) + strcspn(line, " ") > COMPARE_WIDTH) {
            fprintf(out, "%.*s\n", (int)(strlen(point) - 1), point);
            units_print_wrapped(out, "      ", "      ", line, COMPARE_WIDTH);
            continue;
        }
        units_print_wrapped(out, point, markdown ? "  " : "      ", line,
                            markdown ? 1000 : COMPARE_WIDTH);
    }
}

/*
 * A derived value as one format per kind, so a column reads evenly: ratios
 * and fractions with three decimals ("1.000", "0.997"), counts as integers.
 */
static const char *derived_text(const char *key, double v, char *buf, size_t cap)
{
    if (isfinite(v) && (strstr(key, "_over_") || strstr(key, "ratio") || strstr(key, "fraction")))
        snprintf(buf, cap, "%.3f", v);
    else
        units_number(v, buf, cap);
    return buf;
}

struct table *compare_values_table(const struct cmp_model *m, const struct cmp_section *s)
{
    size_t nk = s->vkeys.n, i, j, c;
    struct table *t;
    char a[48];
    if (!s->nvrows)
        return NULL;
    t = table_new(nk + 1 + m->nreports);
    for (j = 0; j < nk; j++)
        table_header(t, j, s->vkeys.keys[j], true);
    table_header(t, nk, "value", false);
    for (i = 0; i < m->nreports; i++)
        table_header(t, nk + 1 + i, m->reports[i]->label, true);
    for (j = 0; j < s->nvrows; j++) {
        const struct cmp_value_row *row = &s->vrows[j];
        size_t r = table_add_row(t);
        for (c = 0; c < nk; c++)
            table_set(t, r, c, "%s", model_param_text(row->vals[c], a, sizeof(a)));
        table_set(t, r, nk, "%s", row->key);
        for (i = 0; i < m->nreports; i++) {
            bool emu = s->exp[i] && s->exp[i]->emulated;
            bool shown = !isnan(row->v[i]);
            table_set(t, r, nk + 1 + i, "%s%s%s%s", derived_text(row->key, row->v[i], a, sizeof(a)),
                      shown && m->reports[i]->virtualised ? "*" : "",
                      shown && m->reports[i]->simulated ? "^" : "", shown && emu ? "~" : "");
        }
    }
    return t;
}

/*
 * The derived values for more sides than fit side by side: each point's
 * parameters on a line, then one wrapped line per value, "p_star: A 16^, B 17^".
 */
static void print_values_long(const struct cmp_model *m, const struct cmp_section *s, FILE *out)
{
    char point[400], line[2048], head[64], a[48];
    size_t j, i, len;
    for (j = 0; j < s->nvrows; j++) {
        const struct cmp_value_row *row = &s->vrows[j];
        if (j == 0 || row->vals != s->vrows[j - 1].vals) {
            group_tuple_text(&s->vkeys, row->vals, point, sizeof(point));
            units_print_wrapped(out, "  ", "    ", point[0] ? point : "(no parameters)",
                                COMPARE_WIDTH);
        }
        line[0] = '\0';
        for (i = 0, len = 0; i < m->nreports; i++) {
            bool emu = s->exp[i] && s->exp[i]->emulated;
            if (isnan(row->v[i]))
                continue;
            snprintf(line + len, sizeof(line) - len, "%s%s %s%s%s%s", len ? ", " : "",
                     m->reports[i]->label, derived_text(row->key, row->v[i], a, sizeof(a)),
                     m->reports[i]->virtualised ? "*" : "", m->reports[i]->simulated ? "^" : "",
                     emu ? "~" : "");
            len = strlen(line);
        }
        snprintf(head, sizeof(head), "    %s: ", row->key);
        units_print_wrapped(out, head, "        ", line, COMPARE_WIDTH);
    }
}

/* "A SUCCESS, B SKIP: reason" lines for a section, reasons wrapped (not cut) at 80 columns. */
static void status_lines(const struct cmp_model *m, const struct cmp_section *s, FILE *out,
                         const char *prefix, const char *bullet)
{
    char head[64], line[1200];
    size_t i;
    bool all_success = true, markdown = bullet[0] != '\0';
    for (i = 0; i < m->nreports; i++)
        all_success &= s->exp[i] && s->exp[i]->status && strcmp(s->exp[i]->status, "SUCCESS") == 0;
    if (all_success) {
        fprintf(out, "%sstatus: SUCCESS in every report\n", prefix);
        return;
    }
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        snprintf(head, sizeof(head), "%s%s%s: ", prefix, bullet, m->reports[i]->label);
        if (!e)
            snprintf(line, sizeof(line), "not in this report");
        else
            snprintf(line, sizeof(line), "%s%s%s", S(e->status), e->reason ? ": " : "",
                     e->reason ? e->reason : "");
        units_print_wrapped(out, head, "      ", line, markdown ? 1000 : COMPARE_WIDTH);
    }
}

static size_t rows_shown(const struct cmp_model *m, const struct cmp_section *s)
{
    size_t *idx = calloc(s->nrows ? s->nrows : 1, sizeof(*idx)), n;
    if (!idx)
        return 0;
    n = compare_row_order(m, s, idx);
    free(idx);
    return n;
}

/* Some row has a ratio to the baseline. */
static bool baseline_compares(const struct cmp_model *m)
{
    size_t k, j, i;
    for (k = 0; k < m->nsections; k++)
        for (j = 0; j < m->sections[k].nrows; j++)
            for (i = 0; i < m->nreports; i++)
                if (isfinite(compare_ratio(&m->sections[k].rows[j], i)))
                    return true;
    return false;
}

/* Which file each side is: its runs when pooled; the baseline; whether the spread is known. */
static void print_sides(const struct cmp_model *m, FILE *out, bool markdown)
{
    size_t i, r;
    if (m->pooled) {
        for (i = 0; i < m->nreports; i++) {
            char head[48], files[2048];
            size_t len = 0;
            snprintf(head, sizeof(head), "%s%s pools %zu run%s: ", markdown ? "- " : "  ",
                     m->reports[i]->label, compare_side_runs(m, i),
                     compare_side_runs(m, i) == 1 ? "" : "s");
            files[0] = '\0';
            for (r = 0; r < m->nall; r++) {
                if (m->side_of[r] != i)
                    continue;
                snprintf(files + len, sizeof(files) - len, "%s%s", len ? " " : "",
                         m->all[r]->path);
                len = strlen(files);
            }
            units_print_wrapped(out, head, "      ", files, markdown ? 100000 : COMPARE_WIDTH);
        }
    }
    {
        char line[600];
        snprintf(line, sizeof(line), "%s (%s); ratios are the other sides' p50 over its p50 "
                 "(choose with --baseline FILE)", m->reports[m->opts.baseline]->label,
                 m->reports[m->opts.baseline]->path);
        if (markdown)
            fputc('\n', out);
        units_print_wrapped(out, "Baseline: ", "          ", line, markdown ? 1000 : COMPARE_WIDTH);
        if (markdown) /* a paragraph of its own */
            fputc('\n', out);
        if (!baseline_compares(m)) {
            snprintf(line, sizeof(line), "the baseline %s has no point in common with the other "
                     "sides, so no ratio can be formed: choose another with --baseline FILE",
                     m->reports[m->opts.baseline]->label);
            units_print_wrapped(out, markdown ? "> **WARNING:** " : "WARNING: ",
                                markdown ? "> " : "         ", line,
                                markdown ? 1000 : COMPARE_WIDTH);
        }
    }
    if (m->pooled || m->intervals) {
        char line[700];
        snprintf(line, sizeof(line), "%s the ratio's interval runs from the side's low end over "
                 "the base's high end to high over low, each end %s; the verdict is \"slower\" "
                 "or \"faster\" only when the whole interval is on one side of 1 and the ratio "
                 "is more than %g%% from 1 (--threshold), else \"no difference\" (a side "
                 "without an interval: \"spread unknown\").",
                 m->pooled ? "each cell is the median over a side's runs;" : "one run per side:",
                 m->pooled ? "the p50's range over the side's runs, or with one run its 95% "
                             "interval (p50_ci95)"
                           : "the p50's 95% interval from the run's own samples (p50_ci95)",
                 m->opts.threshold * 100);
        units_print_wrapped(out, "Noise: ", "       ", line, markdown ? 1000 : COMPARE_WIDTH);
    } else
        units_print_wrapped(out, "Noise: ", "       ", "spread unknown: one run per side, so no "
                            "ratio can be told apart from run-to-run noise (repeated runs of one "
                            "configuration differ by 2x and more under QEMU). Pool runs: "
                            "A=a1.json,a2.json B=b1.json,b2.json, or --group.",
                            markdown ? 1000 : COMPARE_WIDTH);
    if (markdown)
        fputc('\n', out);
}

/* The machine and method table, with a warning per difference that changes the numbers. */
static void print_conditions(const struct cmp_model *m, FILE *out, bool markdown)
{
    struct cond_table c;
    struct table *t;
    char line[2048];
    if (!conditions_build(m->reports, m->nreports, &c))
        return;
    fputs(markdown ? "## Conditions\n\n" : "Conditions (how each report was measured):\n", out);
    if (markdown) {
        t = conditions_table(&c, m->reports, m->nreports);
        table_print(t, out, TABLE_MARKDOWN, "  ");
        table_free(t);
        fputc('\n', out);
    } else {
        conditions_print_fit(&c, m->reports, m->nreports, out, COMPARE_WIDTH);
    }
    conditions_warnings(&c, m->reports, m->nreports, out, markdown ? "> **WARNING:** " : "WARNING: ",
                        markdown ? "> " : "         ", markdown ? 1000 : COMPARE_WIDTH);
    if (conditions_unrecorded_line(&c, m->nreports, line, sizeof(line)))
        units_print_wrapped(out, markdown ? "> " : "Note: ", markdown ? "> " : "      ", line,
                            markdown ? 1000 : COMPARE_WIDTH);
    if (markdown)
        fputc('\n', out);
    conditions_free(&c);
}

static void print_text(const struct cmp_model *m, FILE *out, bool markdown)
{
    char line[400], flags[200];
    size_t i;
    if (markdown) {
        struct table *t = table_new(9);
        static const char *const heads[] = { "", "file", "machine", "CPU", "microcode", "BIOS",
                                             "CPUs", "hypervisor", "flags" };
        fputs("# tlbscope comparison\n\n", out);
        for (i = 0; i < 9; i++)
            table_header(t, i, heads[i], i == 6);
        for (i = 0; i < m->nreports; i++) {
            const struct m_report *r = m->reports[i];
            size_t row = table_add_row(t);
            char label[16];
            table_set(t, row, 0, "%s", r->label);
            table_set(t, row, 1, "%s", r->path);
            table_set(t, row, 2, "%s", compare_machine_label(m, i, label, sizeof(label)));
            table_set(t, row, 3, "%s %s", S(r->vendor), r->brand ? r->brand : "");
            table_set(t, row, 4, "%s", r->microcode ? r->microcode : "unknown");
            table_set(t, row, 5, "%s", model_bios_text(r, line, sizeof(line)));
            table_set(t, row, 6, "%lld", r->cpu_count);
            table_set(t, row, 7, "%s", r->hypervisor ? r->hypervisor
                                       : r->simulated ? "none (simulated)" : "none (hardware)");
            flags_text(r, flags, sizeof(flags));
            table_set(t, row, 8, "%s", flags);
        }
        table_print(t, out, TABLE_MARKDOWN, "");
        table_free(t);
        fputc('\n', out);
        fprintf(out, "%s\n\n", machine_note);
    } else {
        fprintf(out, "Reports (%zu side%s; latency p50 and p99 per point, %s):\n",
                m->nreports, m->nreports == 1 ? "" : "s",
                !m->in_ns       ? "in TSC ticks: a rate is missing"
                : m->cross_arch ? "in ns from each tick rate"
                                : "from each one's TSC rate");
        for (i = 0; i < m->nreports; i++) {
            const struct m_report *r = m->reports[i];
            char first[40];
            snprintf(first, sizeof(first), "  %s  ", r->label);
            /* a name and its path on one line where they fit; else the path below the name */
            if (strlen(first) + strlen(r->path) > COMPARE_WIDTH && strlen(first) > 5) {
                fprintf(out, "  %s\n", r->label);
                snprintf(first, sizeof(first), "     ");
            }
            units_print_wrapped(out, first, "     ", r->path, COMPARE_WIDTH);
            cpu_line(r, line, sizeof(line));
            units_print_wrapped(out, "     CPU      ", "              ", line, COMPARE_WIDTH);
            machine_line(r, line, sizeof(line));
            units_print_wrapped(out, "     machine  ", "              ", line, COMPARE_WIDTH);
            flags_text(r, flags, sizeof(flags));
            if (flags[0])
                units_print_wrapped(out, "     ", "       ", flags, COMPARE_WIDTH);
        }
        for (i = 0; i < m->nreports; i++) {
            char same[300];
            if (!compare_same_machine(m, i, same, sizeof(same))[0])
                continue;
            snprintf(line, sizeof(line), "%s (same serial number and UUID, or tokens)", same);
            units_print_wrapped(out, "Same machine: ", "              ", line, COMPARE_WIDTH);
        }
    }
    compare_arch_print(m, out, markdown, markdown ? 1000 : COMPARE_WIDTH);
    print_sides(m, out, markdown);
    print_conditions(m, out, markdown);
    if (m->mixed) {
        mixed_warning(m, line, sizeof(line));
        if (markdown)
            fprintf(out, "> **WARNING:** %s\n\n", line);
        else
            units_print_wrapped(out, "WARNING: ", "         ", line, COMPARE_WIDTH);
    }
    /* issue 32: steady rates over different windows */
    if (compare_window_warning((const struct m_report *const *)m->reports, m->nreports, line,
                               sizeof(line))) {
        if (markdown)
            fprintf(out, "> **WARNING:** %s\n\n", line);
        else
            units_print_wrapped(out, "WARNING: ", "         ", line, COMPARE_WIDTH);
    }
    if (all_simulated(m)) {
        static const char note[] = "every report is simulated by tlbscope-sim: the model's "
                                   "timings, not hardware's";
        if (markdown)
            fprintf(out, "> **SIMULATED:** %s\n\n", note);
        else
            units_print_wrapped(out, "SIMULATED: ", "           ", note, COMPARE_WIDTH);
    }
    units_print_wrapped(out, "Legend: ", "        ", "* measured under a hypervisor, ~ emulated "
                        "instructions, ^ simulated (tlbscope-sim's model); a ratio followed by ? "
                        "divides a marked (not hardware) value; - no such point (a p99: fewer than 100 "
                        "samples, where nearest rank gives the maximum). Ratios are each "
                        "p50 over the baseline's: above 1 is slower, below 1 faster. Points only "
                        "some reports have are listed under their table.",
                        markdown ? 1000 : COMPARE_WIDTH);
    for (i = 0; i < m->nsections; i++) {
        const struct cmp_section *s = &m->sections[i];
        struct table *t;
        if (markdown)
            fprintf(out, "\n## %s: %s%s\n\n", s->id, S(s->title),
                    s->by_class ? " (by topology class)" : "");
        else {
            snprintf(line, sizeof(line), "%s: %s%s", s->id, S(s->title),
                     s->by_class ? " (by topology class; median over pairs without a summary)"
                                 : "");
            fputc('\n', out);
            units_print_wrapped(out, "== ", "   ", line, COMPARE_WIDTH);
        }
        status_lines(m, s, out, markdown ? "" : "  ", markdown ? "- " : "");
        compare_defaulted_lines(m, s, out, markdown ? "- defaulted: " : "  defaulted: ",
                                markdown ? 1000 : COMPARE_WIDTH);
        if (*cpu_role_text(s->exp, m->reports, m->nreports, line, sizeof(line)))
            units_print_wrapped(out, markdown ? "- role: " : "  role: ", markdown ? "  " : "        ",
                                line, markdown ? 1000 : COMPARE_WIDTH);
        if (s->base != m->opts.baseline && rows_shown(m, s)) {
            snprintf(line, sizeof(line), "%s, the first side that measured %s (%s has no point "
                     "of it)", m->reports[s->base]->label, s->id,
                     m->reports[m->opts.baseline]->label);
            units_print_wrapped(out, markdown ? "- base: " : "  base: ",
                                markdown ? "  " : "        ", line,
                                markdown ? 1000 : COMPARE_WIDTH);
        }
        if (rows_shown(m, s)) {
            enum cmp_layout layout = CMP_LAYOUT_WIDE;
            t = markdown ? compare_section_table(m, s)
                         : compare_section_table_fit(m, s, COMPARE_WIDTH, &layout);
            if (markdown)
                fprintf(out, "\nTimes scaled per value (%s).\n\n",
                        m->in_ns ? "ns, us, ms, s" : "TSC ticks");
            else if (layout == CMP_LAYOUT_P50)
                fputs("  p50 only, to fit 80 columns (--wide: with p99)\n", out);
            else if (layout == CMP_LAYOUT_LONG || layout == CMP_LAYOUT_LONG_P50 ||
                     layout == CMP_LAYOUT_LONG_CONSTANT || layout == CMP_LAYOUT_BY_POINT)
                fprintf(out, "  long layout: a row per point and side%s (%zu sides do not fit; "
                        "--wide)\n", layout != CMP_LAYOUT_LONG ? ", p50 only" : "",
                        m->nreports);
            if ((layout == CMP_LAYOUT_LONG_CONSTANT || layout == CMP_LAYOUT_BY_POINT) &&
                compare_constant_params(s, line, sizeof(line)))
                units_print_wrapped(out, "  on every row: ", "    ", line, COMPARE_WIDTH);
            /* the last two columns, where a table still does not fit after every cut */
            table_print(t, out, markdown ? TABLE_MARKDOWN : TABLE_TEXT,
                        !markdown && table_text_width(t) + 2 > COMPARE_WIDTH ? "" : "  ");
            table_free(t);
            summary_lines(m, s, out, markdown);
            if (markdown)
                fputc('\n', out);
        }
        unmatched_lines(m, s, out, markdown);
        if ((t = compare_values_table(m, s))) {
            if (!markdown && !m->opts.wide && table_text_width(t) + 2 > COMPARE_WIDTH) {
                table_free(t);
                fputs("  derived values (a line per point; --wide: a table):\n", out);
                print_values_long(m, s, out);
                continue;
            }
            fputs(markdown ? "\nDerived values (summary points):\n\n" : "  derived values:\n", out);
            table_print(t, out, markdown ? TABLE_MARKDOWN : TABLE_TEXT, "  ");
            table_free(t);
        }
    }
}

/* One table: experiment, point, unit, then per report p50, p99, flags (and the ratio). */
static void print_csv(const struct cmp_model *m, FILE *out)
{
    size_t ncols = 3 + m->nreports * 4 - 1, i, j, k, c;
    struct table *t = table_new(ncols);
    char head[64], a[64], point[256];
    table_header(t, 0, "experiment", false);
    table_header(t, 1, "point", false);
    table_header(t, 2, "unit", false);
    for (i = 0, c = 3; i < m->nreports; i++) {
        const char *l = m->reports[i]->label;
        snprintf(head, sizeof(head), "%s_p50", l);
        table_header(t, c++, head, true);
        snprintf(head, sizeof(head), "%s_p99", l);
        table_header(t, c++, head, true);
        snprintf(head, sizeof(head), "%s_flags", l);
        table_header(t, c++, head, false);
        if (i != m->opts.baseline) {
            snprintf(head, sizeof(head), "%s_over_%s_p50", l, m->reports[m->opts.baseline]->label);
            table_header(t, c++, head, true);
        }
    }
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        for (j = 0; j < s->nrows; j++) {
            const struct cmp_row *row = &s->rows[j];
            size_t r = table_add_row(t);
            table_set(t, r, 0, "%s", s->id);
            if (s->by_class)
                snprintf(point, sizeof(point), "class=%s", row->cls);
            else
                group_tuple_text(&s->keys, row->vals, point, sizeof(point));
            table_set(t, r, 1, "%s", point);
            table_set(t, r, 2, "%s", unit_name(m));
            for (i = 0, c = 3; i < m->nreports; i++) {
                const struct cmp_cell *cell = &row->cells[i];
                table_set(t, r, c++, "%s", plain_value(m, cell, cell->p50, a, sizeof(a)));
                table_set(t, r, c++, "%s", plain_value(m, cell, cell->p99, a, sizeof(a)));
                table_set(t, r, c++, "%s", compare_flags(cell));
                if (i != m->opts.baseline) {
                    double q = compare_ratio(row, i);
                    if (isfinite(q))
                        table_set(t, r, c, "%.3f", q);
                    c++;
                }
            }
        }
    }
    table_print(t, out, TABLE_CSV, "");
    table_free(t);
}

void compare_print(const struct cmp_model *m, FILE *out, enum table_format fmt)
{
    if (fmt == TABLE_CSV)
        print_csv(m, out);
    else
        print_text(m, out, fmt == TABLE_MARKDOWN);
    if (fmt != TABLE_CSV)
        recommend_view_compare(m->reports, m->nreports, out);
    if (fmt != TABLE_CSV) /* the conclusion last, where a reader ends */
        compare_summary_print(m, out, fmt == TABLE_MARKDOWN);
}
