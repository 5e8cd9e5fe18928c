#include "reports/tool/views/recommend_view.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/units.h"

/* the recommendations are prose for a terminal: 80 columns, as in the app's text summary */
#define RECOMMEND_WIDTH 80

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static const json_t *entries(const struct m_report *r)
{
    return json_object_get(json_object_get(r->root, "recommendations"), "entries");
}

/*
 * The verdicts are the app's prose, in TSC ticks ("saves 179660 ticks"):
 * each "N ticks" becomes "69.2 us (179660 ticks)" from the report's own TSC
 * rate, so machines with different clocks read alike. Without a rate the
 * text is left as it is.
 */
static void ticks_to_time(const char *in, double tsc_hz, char *out, size_t cap)
{
    size_t n = 0;
    const char *p = in;
    if (cap == 0)
        return;
    while (*p && n + 1 < cap) {
        char *end;
        long long v;
        char t[32];
        bool starts = isdigit((unsigned char)*p) && (p == in || !isalnum((unsigned char)p[-1]));
        if (!starts || !(tsc_hz > 0)) {
            out[n++] = *p++;
            continue;
        }
        v = strtoll(p, &end, 10);
        if (strncmp(end, " to ", 4) == 0 && isdigit((unsigned char)end[4])) { /* "A to B ticks" */
            char *end2;
            long long w = strtoll(end + 4, &end2, 10);
            char t2[32];
            if (strncmp(end2, " ticks", 6) == 0 && !isalnum((unsigned char)end2[6])) {
                n += (size_t)snprintf(out + n, cap - n, "%s to %s (%lld to %lld ticks)",
                                      units_time((double)v * 1e9 / tsc_hz, t, sizeof(t)),
                                      units_time((double)w * 1e9 / tsc_hz, t2, sizeof(t2)), v, w);
                if (n >= cap)
                    n = cap - 1;
                p = end2 + 6;
                continue;
            }
        }
        if (strncmp(end, " ticks", 6) != 0 || isalnum((unsigned char)end[6])) {
            while (p < end && n + 1 < cap) /* a number of something else: as it is */
                out[n++] = *p++;
            continue;
        }
        n += (size_t)snprintf(out + n, cap - n, "%s (%lld ticks)",
                              units_time((double)v * 1e9 / tsc_hz, t, sizeof(t)), v);
        if (n >= cap)
            n = cap - 1;
        p = end + 6;
    }
    out[n] = '\0';
}

/*
 * One entry as one line: verdict, confidence or why, Linux's default, label.
 * A report written before intervals existed (no "interval" key) says so
 * instead of showing none.
 */
static void entry_string(const struct m_report *r, const json_t *e, char *text, size_t cap)
{
    const char *env = str(e, "environment");
    bool enough = strcmp(str(e, "status"), "recommended") == 0;
    size_t n = 0;
    ticks_to_time(str(e, "verdict"), r->tsc_hz, text, cap);
    n = strlen(text);
    if (enough && !json_object_get(e, "interval") && n < cap)
        n += (size_t)snprintf(text + n, cap - n,
                              " (interval not recorded: the report predates them)");
    if (n < cap) {
        if (enough)
            n += (size_t)snprintf(text + n, cap - n, " [confidence %s]", str(e, "confidence"));
        else
            n += (size_t)snprintf(text + n, cap - n, " (%s)", str(e, "why"));
    }
    if (n < cap && json_is_string(json_object_get(e, "linux_default")))
        n += (size_t)snprintf(text + n, cap - n, "; Linux: %s", str(e, "linux_default"));
    if (n < cap && *env && strcmp(env, "hardware") != 0)
        snprintf(text + n, cap - n, " [%s: does not describe hardware]", env);
}

/* The entry wrapped under `first` at 80 columns. */
static void entry_text(const struct m_report *r, const json_t *e, const char *first,
                       const char *cont, FILE *out)
{
    char text[4096];
    entry_string(r, e, text, sizeof(text));
    units_print_wrapped(out, first, cont, text, RECOMMEND_WIDTH);
}

void recommend_view_show(const struct m_report *r, FILE *out)
{
    const json_t *list = entries(r), *e;
    const json_t *recs = json_object_get(r->root, "recommendations");
    size_t i;
    if (!json_is_array(list))
        return;
    fputc('\n', out);
    if (json_is_string(json_object_get(recs, "note"))) {
        char head[512];
        snprintf(head, sizeof(head), "What this machine suggests [%s]:", str(recs, "note"));
        units_print_wrapped(out, "", "  ", head, RECOMMEND_WIDTH);
    } else {
        fprintf(out, "What this machine suggests:\n");
    }
    json_array_foreach(list, i, e) {
        char first[40];
        snprintf(first, sizeof(first), "  %-16s ", str(e, "id"));
        entry_text(r, e, first, "                   ", out);
    }
}

static const json_t *entry(const struct m_report *r, const char *id)
{
    const json_t *list = entries(r), *e;
    size_t i;
    json_array_foreach(list, i, e)
        if (strcmp(str(e, "id"), id) == 0)
            return e;
    return NULL;
}

const char *const recommend_view_ids[] = { "flush_ceiling", "invlpgb_vs_ipi", "shootdown_order",
                                           "lazy_skip", "pti_user_flush", NULL };

bool recommend_view_has_any(const struct m_report *r) { return json_is_array(entries(r)); }

const char *recommend_view_entry(const struct m_report *r, const char *id, char *buf, size_t cap)
{
    const json_t *e = entry(r, id);
    if (!e || !cap)
        return NULL;
    entry_string(r, e, buf, cap);
    return buf;
}

void recommend_view_compare(struct m_report *const *reports, size_t n, FILE *out)
{
    const char *const *ids = recommend_view_ids;
    size_t i, k, any = 0;
    for (i = 0; i < n; i++)
        any += json_is_array(entries(reports[i]));
    if (!any)
        return;
    fprintf(out, "\nRecommendations, side by side:\n");
    for (k = 0; ids[k]; k++) {
        fprintf(out, "  %s\n", ids[k]);
        for (i = 0; i < n; i++) {
            const json_t *e = entry(reports[i], ids[k]);
            char first[40];
            snprintf(first, sizeof(first), "    %s: ", reports[i]->label);
            if (!e)
                fprintf(out, "%snot in this report (schema version %s)\n", first,
                        json_is_array(entries(reports[i])) ? "2" : "1: no recommendations");
            else
                entry_text(reports[i], e, first, "       ", out);
        }
    }
}
