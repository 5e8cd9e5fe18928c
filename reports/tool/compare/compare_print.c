/* Printing a comparison: aligned text, Markdown, or one CSV table. */
#include <math.h>
#include <string.h>

#include <stdlib.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_questions.h"
#include "reports/tool/compare/compare_csv.h"
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
                     m->reports[i]->label, compare_derived_text(row->key, row->v[i], a, sizeof(a)),
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
    compare_questions_print(m, out, markdown, markdown ? 1000 : COMPARE_WIDTH);
}

void compare_print(const struct cmp_model *m, FILE *out, enum table_format fmt)
{
    if (fmt == TABLE_CSV)
        compare_wide_csv_print(m, out);
    else
        print_text(m, out, fmt == TABLE_MARKDOWN);
    if (fmt != TABLE_CSV)
        recommend_view_compare(m->reports, m->nreports, out);
    if (fmt != TABLE_CSV) /* the conclusion last, where a reader ends */
        compare_summary_print(m, out, fmt == TABLE_MARKDOWN);
}
