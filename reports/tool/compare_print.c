/* Printing a comparison: aligned text, Markdown, or one CSV table. */
#include <math.h>
#include <string.h>

#include "reports/tool/compare.h"
#include "reports/tool/recommend_view.h"
#include "reports/tool/units.h"

#define S(x) ((x) ? (x) : "?")
#define COMPARE_WIDTH 100

/* What the markdown machine column means (serial numbers and UUIDs are never printed). */
static const char machine_note[] =
    "Reports with the same machine label come from one machine: the same serial number and "
    "UUID, or the same tokens after `tlbscope-report redact` with one key. \"-\": the report "
    "records neither.";

static const char *unit_name(const struct cmp_model *m) { return m->in_ns ? "ns" : "ticks"; }

/* "1154*": the value with the marks of its cell (legend printed with the table). */
static const char *mark_value(const struct cmp_model *m, const struct cmp_cell *c, double v,
                              char *buf, size_t cap)
{
    char num[32];
    if (!c->present || !isfinite(v)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    if (m->in_ns)
        units_ns(v, num, sizeof(num));
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

static void machine_line(const struct m_report *r, char *buf, size_t cap)
{
    char bios[160], machine[160], sim[200];
    if (r->simulated) { /* no machine, firmware or BIOS: the model and its CPU profile */
        snprintf(buf, cap, "simulated by tlbscope-sim, %s: modelled %s %s, %lld CPUs",
                 model_simulation_text(r, sim, sizeof(sim)), S(r->vendor),
                 r->brand ? r->brand : "(no brand)", r->cpu_count);
        return;
    }
    snprintf(buf, cap, "%s: %s %s, microcode %s, BIOS %s, %lld CPUs, %s%s",
             model_machine_name(r, machine, sizeof(machine)), S(r->vendor),
             r->brand ? r->brand : "(no brand)", r->microcode ? r->microcode : "unknown",
             model_bios_text(r, bios, sizeof(bios)), r->cpu_count,
             r->hypervisor ? "hypervisor " : "no hypervisor", r->hypervisor ? r->hypervisor : "");
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
    if (r->emulated)
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

struct table *compare_section_table(const struct cmp_model *m, const struct cmp_section *s)
{
    size_t nk = s->by_class ? 1 : s->keys.n, ncols = nk + m->nreports * 3 - 1, i, j, c;
    struct table *t = table_new(ncols ? ncols : 1);
    char head[64], a[48];
    if (s->by_class)
        table_header(t, 0, "class", false);
    for (j = 0; !s->by_class && j < nk; j++)
        table_header(t, j, s->keys.keys[j], true);
    for (i = 0, c = nk; i < m->nreports; i++) {
        const char *l = m->reports[i]->label;
        snprintf(head, sizeof(head), "%s p50", l);
        table_header(t, c++, head, true);
        snprintf(head, sizeof(head), "%s p99", l);
        table_header(t, c++, head, true);
        if (i) {
            snprintf(head, sizeof(head), "%s/%s", l, m->reports[0]->label);
            table_header(t, c++, head, true);
        }
    }
    for (j = 0; j < s->nrows; j++) {
        const struct cmp_row *row = &s->rows[j];
        size_t r = table_add_row(t);
        if (s->by_class) {
            table_set(t, r, 0, "%s", row->cls);
        } else {
            for (c = 0; c < nk; c++)
                table_set(t, r, c, "%s", model_param_text(row->vals[c], a, sizeof(a)));
        }
        for (i = 0, c = nk; i < m->nreports; i++) {
            const struct cmp_cell *cell = &row->cells[i];
            table_set(t, r, c++, "%s", mark_value(m, cell, cell->p50, a, sizeof(a)));
            table_set(t, r, c++, "%s", mark_value(m, cell, cell->p99, a, sizeof(a)));
            if (i) {
                double q = compare_ratio(row, i);
                bool marked = isfinite(q) && (!compare_is_hardware(m->reports[0]) ||
                                              cell->virtualised || cell->emulated ||
                                              cell->simulated || row->cells[0].emulated);
                table_set(t, r, c++, "%s%s", units_ratio(q, a, sizeof(a)), marked ? "?" : "");
            }
        }
    }
    return t;
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
            table_set(t, r, nk + 1 + i, "%s%s%s%s", units_number(row->v[i], a, sizeof(a)),
                      shown && m->reports[i]->virtualised ? "*" : "",
                      shown && m->reports[i]->simulated ? "^" : "", shown && emu ? "~" : "");
        }
    }
    return t;
}

/* "A SUCCESS, B SKIP: reason" lines for a section. */
static void status_lines(const struct cmp_model *m, const struct cmp_section *s, FILE *out,
                         const char *prefix, const char *bullet)
{
    char reason[96];
    size_t i;
    bool all_success = true;
    for (i = 0; i < m->nreports; i++)
        all_success &= s->exp[i] && s->exp[i]->status && strcmp(s->exp[i]->status, "SUCCESS") == 0;
    if (all_success) {
        fprintf(out, "%sstatus: SUCCESS in every report\n", prefix);
        return;
    }
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        if (!e)
            fprintf(out, "%s%s%s: not in this report\n", prefix, bullet, m->reports[i]->label);
        else
            fprintf(out, "%s%s%s: %s%s%s\n", prefix, bullet, m->reports[i]->label, S(e->status),
                    e->reason ? ": " : "", e->reason ? units_clip(e->reason, 88, reason, sizeof(reason)) : "");
    }
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
        fprintf(out, "Reports (p50 and p99 of each point's latency, in %s):\n",
                m->in_ns ? "ns from each report's TSC frequency" : "TSC ticks (a report lacks "
                           "its TSC frequency)");
        for (i = 0; i < m->nreports; i++) {
            const struct m_report *r = m->reports[i];
            char first[8];
            flags_text(r, flags, sizeof(flags));
            snprintf(line, sizeof(line), "%s%s%s", r->path, flags[0] ? "  " : "", flags);
            snprintf(first, sizeof(first), "  %s  ", r->label);
            units_print_wrapped(out, first, "     ", line, COMPARE_WIDTH);
            machine_line(r, line, sizeof(line));
            units_print_wrapped(out, "     ", "       ", line, COMPARE_WIDTH);
        }
        for (i = 0; i < m->nreports; i++) {
            char same[COMPARE_MAX_REPORTS * 4];
            if (!compare_same_machine(m, i, same, sizeof(same))[0])
                continue;
            snprintf(line, sizeof(line), "%s (the same serial number and UUID, or the same "
                     "redaction tokens)", same);
            units_print_wrapped(out, "Same machine: ", "              ", line, COMPARE_WIDTH);
        }
    }
    if (m->mixed) {
        mixed_warning(m, line, sizeof(line));
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
                        "instructions, ^ simulated (tlbscope-sim's model), ? ratio using one, "
                        "- no such point", markdown ? 1000 : COMPARE_WIDTH);
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
        if (s->nrows) {
            if (markdown)
                fprintf(out, "\nTimes in %s.\n\n", unit_name(m));
            else
                fprintf(out, "  times in %s\n", unit_name(m));
            t = compare_section_table(m, s);
            table_print(t, out, markdown ? TABLE_MARKDOWN : TABLE_TEXT, "  ");
            table_free(t);
        }
        if ((t = compare_values_table(m, s))) {
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
        if (i) {
            snprintf(head, sizeof(head), "%s_over_%s_p50", l, m->reports[0]->label);
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
                if (i) {
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
}
