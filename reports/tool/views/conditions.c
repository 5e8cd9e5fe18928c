#include "reports/tool/views/conditions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/model/units.h"

/*
 * The one table of fields: name, dotted path in the report, and whether a
 * difference changes the numbers. Paths that a report lacks read as "-", so
 * fields added by newer reports (or only some) can be listed here already.
 */
static const struct cond_field {
    const char *name, *path;
    bool changes_numbers;
} fields[] = {
    { "tool version", "generator.version", false },
    { "tool commit", "generator.commit", false },
    /* the machines themselves: what a vendor comparison compares, in the header, not warned */
    { "CPU", "cpu.brand", false },
    { "CPUs", "topology.cpu_count", false },
    { "microcode", "cpu.microcode.revision", false },
    /* a hypervisor or emulator on one side: the "not hardware timings" warning says it */
    { "hypervisor", "cpu.hypervisor", false },
    { "emulator", "run.config.emulator", false },
    { "profile", "method.profile", true },
    { "samples", "method.samples", true },
    { "samples planned", "method.samples_planned", true },
    { "samples achieved", "method.samples_achieved", true },
    { "warmup", "method.warmup", false },
    /* warned by conditions_view.c (once, with what it does to the numbers) */
    { "APIC mode", "method.apic_mode", false },
    { "APIC mode reason", "method.apic_mode_reason", false },
    { "ICR fence", "method.icr_fence", true },
    { "target_wait", "method.target_wait", false },
    { "page flush", "method.page_flush", true },
    { "full flush", "method.full_flush", false },
    { "full flush emulated", "method.full_flush_emulated", true },
    { "full flush variant", "method.full_flush_variant", true },
    { "verification", "method.verification", true },
    { "PTI return to user", "method.pti_return_to_user", true },
    { "IPI class summary", "method.ipi_class_summary", true },
    { "INVLPGB above ceiling", "method.invlpgb_above_ceiling", true },
    { "flush ceiling refill", "method.flush_ceiling_refill", true },
    /* issue 32: shootdown curves' p* on the work summed over CPUs (absent before) */
    { "flush ceiling metric", "method.flush_ceiling_metric", true },
    /* issue 21: lazy CPUs idling, target states settled for their residency (absent before) */
    { "lazy CPUs", "method.lazy_cpus", true },
    { "target state settle", "method.target_state_settle", true },
    /* issue 32: the lazy CPUs' idle state (the deepest MWAIT state verified, else hlt), and
     * the context every target figure is of (absent before) */
    { "lazy CPUs idle in", "method.lazy_idle.state", true },
    { "target context", "method.target_context", true },
    /* issue 20: each iteration's variant order, drawn from the seed (absent before) */
    { "variant order", "method.variant_order", true },
    { "order seed", "method.order_seed", false },
    { "PCID", "method.pcid_enabled", true },
    { "PCID reason", "method.pcid_reason", false },
    { "flush ceiling", "method.flush_ceiling", true },
    { "timestamp", "method.timestamp", false },
    /* issue 32: AMD as Linux runs it (absent before): EFER.TCE changes what an INVLPG or
     * INVLPGB costs (the page-walk cache it keeps), DE_CFG[1] what a timestamp waits for */
    { "EFER.TCE", "method.efer_tce.used", true },
    { "LFENCE serialising", "method.lfence.used", true },
    { "TSC rate", "cpu.tsc_hz", false },
    { "TSC source", "cpu.tsc_source", false },
    { "invariant TSC", "cpu.features.invariant_tsc", false },
    { "run status", "run.status", true },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))
/* measurement conditions (per experiment "conditions" objects): at most this many keys */
#define MAX_COND_KEYS 12

static void value_text(const json_t *v, const char *path, char *buf, size_t cap)
{
    char raw[COND_VALUE_MAX];
    if (json_is_null(v) && strcmp(path, "cpu.hypervisor") == 0) {
        snprintf(buf, cap, "none"); /* recorded: hardware */
        return;
    }
    if (!v || json_is_null(v)) {
        snprintf(buf, cap, "-");
        return;
    }
    if (json_is_string(v))
        snprintf(raw, sizeof(raw), "%s", json_string_value(v));
    else if (json_is_true(v))
        snprintf(raw, sizeof(raw), "yes");
    else if (json_is_false(v))
        snprintf(raw, sizeof(raw), "no");
    else if (json_is_integer(v) && strcmp(path, "cpu.tsc_hz") != 0)
        snprintf(raw, sizeof(raw), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_number(v) && strcmp(path, "cpu.tsc_hz") == 0)
        snprintf(raw, sizeof(raw), "%.3f GHz", json_number_value(v) / 1e9);
    else if (json_is_number(v))
        snprintf(raw, sizeof(raw), "%g", json_number_value(v));
    else
        snprintf(raw, sizeof(raw), "(%s)", jget_type_word(v));
    units_plain(raw, buf, cap);
}

/*
 * A condition's object as a few words: "0 SMIs", "not counted" (smi);
 * "2950 MHz", "no APERF/MPERF" (clock). Never "(an object)": the whole
 * object is in `show` (conditions_view.h).
 */
static void object_text(const char *key, const json_t *v, char *buf, size_t cap)
{
    if (strcmp(key, "smi") == 0) {
        const json_t *count = json_object_get(v, "count");
        if (json_is_integer(count))
            snprintf(buf, cap, "%" JSON_INTEGER_FORMAT " SMIs", json_integer_value(count));
        else
            snprintf(buf, cap, "not counted");
    } else if (strcmp(key, "clock") == 0) {
        const json_t *mhz = json_object_get(v, "effective_mhz");
        if (json_is_integer(mhz))
            snprintf(buf, cap, "%" JSON_INTEGER_FORMAT " MHz", json_integer_value(mhz));
        else
            snprintf(buf, cap, "%s", jget_bool(v, "aperf_mperf", false) ? "not measured"
                                                                      : "no APERF/MPERF");
    } else {
        snprintf(buf, cap, "recorded");
    }
}

/* "a" or "a/b" over the experiments' conditions[key] of one report. */
static void experiment_condition(const struct m_report *r, const char *key, char *buf, size_t cap)
{
    const json_t *exps = jget_array(r->root, "experiments"), *e;
    char one[COND_VALUE_MAX];
    size_t i, len = 0;
    buf[0] = '\0';
    json_array_foreach(exps, i, e) {
        const json_t *c = jget_object(e, "conditions");
        if (!c || !json_object_get(c, key))
            continue;
        if (json_is_object(json_object_get(c, key)))
            object_text(key, json_object_get(c, key), one, sizeof(one));
        else
            value_text(json_object_get(c, key), "", one, sizeof(one));
        if (strstr(buf, one))
            continue;
        snprintf(buf + len, cap - len, "%s%s", len ? "/" : "", one);
        len = strlen(buf);
    }
    if (!len)
        snprintf(buf, cap, "-");
}

/* Keys of the "conditions" objects any report's experiments have (first seen first). */
static size_t condition_keys(struct m_report *const *reports, size_t n, const char **keys)
{
    size_t nk = 0, i, j, k;
    for (i = 0; i < n; i++) {
        const json_t *exps = jget_array(reports[i]->root, "experiments"), *e, *v;
        const char *key;
        json_array_foreach(exps, j, e) {
            const json_t *c = jget_object(e, "conditions");
            if (!c)
                continue;
            json_object_foreach((json_t *)c, key, v) {
                for (k = 0; k < nk && strcmp(keys[k], key) != 0; k++)
                    ;
                if (k == nk && nk < MAX_COND_KEYS)
                    keys[nk++] = key;
            }
        }
    }
    return nk;
}

static bool add_row(struct cond_table *t, const char *name, bool changes, size_t n)
{
    struct cond_row *row = &t->rows[t->n];
    row->name = name;
    row->changes_numbers = changes;
    row->differs = false;
    if (!(row->values = calloc(n ? n : 1, sizeof(*row->values))))
        return false;
    t->n++;
    return true;
}

static void finish_row(struct cond_row *row, size_t n)
{
    size_t i;
    for (i = 1; i < n; i++)
        row->differs |= strcmp(row->values[i], row->values[0]) != 0;
}

bool conditions_build(struct m_report *const *reports, size_t n, struct cond_table *out)
{
    const char *keys[MAX_COND_KEYS];
    size_t nk = condition_keys(reports, n, keys), f, i;
    memset(out, 0, sizeof(*out));
    if (!(out->rows = calloc(NFIELDS + nk, sizeof(*out->rows))))
        return false;
    for (f = 0; f < NFIELDS; f++) {
        bool any = false;
        if (!add_row(out, fields[f].name, fields[f].changes_numbers, n))
            goto oom;
        for (i = 0; i < n; i++) {
            const json_t *v = jget_path(reports[i]->root, fields[f].path);
            value_text(v, fields[f].path, out->rows[out->n - 1].values[i], COND_VALUE_MAX);
            any |= v && !json_is_null(v);
        }
        if (!any) { /* no report has it: no row */
            free(out->rows[--out->n].values);
            continue;
        }
        finish_row(&out->rows[out->n - 1], n);
    }
    for (f = 0; f < nk; f++) {
        char plain[64];
        /* conditions_view.c warns what in them makes numbers incomparable */
        if (!add_row(out, NULL, false, n))
            goto oom;
        snprintf(out->rows[out->n - 1].name_buf, sizeof(out->rows[out->n - 1].name_buf),
                 "condition %s", units_plain(keys[f], plain, sizeof(plain)));
        out->rows[out->n - 1].name = out->rows[out->n - 1].name_buf;
        for (i = 0; i < n; i++)
            experiment_condition(reports[i], keys[f], out->rows[out->n - 1].values[i],
                                 COND_VALUE_MAX);
        finish_row(&out->rows[out->n - 1], n);
    }
    return true;
oom:
    conditions_free(out);
    return false;
}

void conditions_free(struct cond_table *t)
{
    size_t i;
    for (i = 0; i < t->n; i++)
        free(t->rows[i].values);
    free(t->rows);
    memset(t, 0, sizeof(*t));
}

struct table *conditions_table(const struct cond_table *c, struct m_report *const *reports,
                               size_t n)
{
    struct table *t = table_new(n + 2);
    size_t i, j;
    table_header(t, 0, "condition", false);
    for (i = 0; i < n; i++)
        table_header(t, i + 1, reports[i]->label, false);
    table_header(t, n + 1, "differs", false);
    for (j = 0; j < c->n; j++) {
        const struct cond_row *row = &c->rows[j];
        size_t r = table_add_row(t);
        table_set(t, r, 0, "%s", row->name);
        for (i = 0; i < n; i++)
            table_set(t, r, i + 1, "%s", row->values[i]);
        table_set(t, r, n + 1, "%s", !row->differs ? "" : row->changes_numbers ? "DIFFERS (numbers)"
                                                                                : "differs");
    }
    return t;
}

size_t conditions_warnings(const struct cond_table *c, struct m_report *const *reports, size_t n,
                           FILE *out, const char *prefix, const char *cont, size_t width)
{
    char line[2048];
    size_t j, i, count = 0, len;
    for (j = 0; j < c->n; j++) {
        const struct cond_row *row = &c->rows[j];
        if (!row->differs || !row->changes_numbers || !conditions_row_everywhere(row, n))
            continue;
        count++;
        snprintf(line, sizeof(line), "%s differs (", row->name);
        for (i = 0; i < n; i++) {
            len = strlen(line);
            snprintf(line + len, sizeof(line) - len, "%s%s %s", i ? ", " : "", reports[i]->label,
                     row->values[i]);
        }
        len = strlen(line);
        snprintf(line + len, sizeof(line) - len, "): measured differently, the ratios include "
                 "this difference");
        units_print_wrapped(out, prefix, cont, line, width);
    }
    return count;
}

size_t conditions_difference_lines(const struct cond_table *c, struct m_report *const *reports,
                                   size_t n, FILE *out)
{
    size_t j, i, count = 0;
    for (j = 0; j < c->n; j++) {
        const struct cond_row *row = &c->rows[j];
        if (!row->differs || !row->changes_numbers || !conditions_row_everywhere(row, n))
            continue;
        count++;
        fprintf(out, "%s:", row->name);
        for (i = 0; i < n; i++)
            fprintf(out, "%s %s %s", i ? "," : "", reports[i]->label, row->values[i]);
        fputc('\n', out);
    }
    return count;
}

bool conditions_row_everywhere(const struct cond_row *row, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(row->values[i], "-") == 0)
            return false;
    return true;
}

size_t conditions_unrecorded_line(const struct cond_table *c, size_t n, char *buf, size_t cap)
{
    size_t j, count = 0, len;
    snprintf(buf, cap, "not recorded by every report (older tool versions, or unknown to one), "
             "so not compared: ");
    for (j = 0; j < c->n; j++) {
        const struct cond_row *row = &c->rows[j];
        if (!row->differs || conditions_row_everywhere(row, n))
            continue;
        len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", count++ ? ", " : "", row->name);
    }
    return count;
}

/* The conditions that differ, a column per report whose values wrap at `cell_w`, whole. */
static struct table *differs_table(const struct cond_table *c, struct m_report *const *reports,
                                   size_t n, size_t cell_w)
{
    struct table *t = table_new(n + 2);
    size_t i, j;
    table_header(t, 0, "differs", false);
    for (i = 0; i < n; i++) {
        table_header(t, i + 1, reports[i]->label, false);
        table_wrap(t, i + 1, cell_w);
    }
    table_header(t, n + 1, "", false);
    for (j = 0; j < c->n; j++) {
        const struct cond_row *row = &c->rows[j];
        size_t r;
        if (!row->differs)
            continue;
        r = table_add_row(t);
        table_set(t, r, 0, "%s", row->name);
        for (i = 0; i < n; i++)
            table_set(t, r, i + 1, "%s", row->values[i]);
        table_set(t, r, n + 1, "%s", row->changes_numbers && conditions_row_everywhere(row, n)
                                         ? "numbers" : "");
    }
    return t;
}

void conditions_print_fit(const struct cond_table *c, struct m_report *const *reports, size_t n,
                          FILE *out, size_t width)
{
    size_t j, i, name_w = 9, cell_w, len, same = 0;
    char line[8192];
    struct table *t;
    for (j = 0; j < c->n; j++)
        if (c->rows[j].differs && strlen(c->rows[j].name) > name_w)
            name_w = strlen(c->rows[j].name);
    /* indent 2, the name, then n cells and the "differs" column, two spaces apart */
    cell_w = width > 2 + name_w + 2 + 9 + 2 * (n + 1) ? (width - 2 - name_w - 2 - 9 - 2 * n) / n : 0;
    snprintf(line, sizeof(line), "the same in every report: ");
    for (j = 0; j < c->n; j++) {
        if (c->rows[j].differs)
            continue;
        len = strlen(line);
        snprintf(line + len, sizeof(line) - len, "%s%s %s", same++ ? ", " : "", c->rows[j].name,
                 c->rows[j].values[0]);
    }
    if (same)
        units_print_wrapped(out, "  ", "    ", line, width);
    /* a word wider than its column (calibrated_firmware_stall) widens it: the others wrap
     * narrower, down to 10; still too wide, a line per condition */
    for (; cell_w >= 10; cell_w--) {
        t = differs_table(c, reports, n, cell_w);
        if (table_text_width(t) + 2 <= width) {
            if (table_rows(t))
                table_print(t, out, TABLE_TEXT, "  ");
            table_free(t);
            return;
        }
        table_free(t);
    }
    /* too many reports for columns: one wrapped line per condition that differs, whole */
    for (j = 0; j < c->n; j++) {
        const struct cond_row *row = &c->rows[j];
        char head[80];
        if (!row->differs)
            continue;
        line[0] = '\0';
        for (i = 0; i < n; i++) {
            len = strlen(line);
            snprintf(line + len, sizeof(line) - len, "%s%s %s", i ? "; " : "", reports[i]->label,
                     row->values[i]);
        }
        snprintf(head, sizeof(head), "  %s: ", row->name);
        units_print_wrapped(out, head, "      ", line, width);
    }
}
