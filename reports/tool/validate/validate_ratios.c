/*
 * shootdown_seq_vs_conc's summary ratios against the cells they come from:
 * conc_over_seq_p50 must be the conc point's p50 over the seq point's (the
 * app truncates to 1/1000, core/exp/shootdown_seq_conc.c ratio_milli), so a
 * ratio the numbers beside it contradict is an error (issue 13, finding 7).
 * The result points are sorted once and searched: linear-time validation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"
#include "reports/tool/validate/vcheck.h"

/* Truncation to 1/1000 plus rounding of the p50s themselves. */
#define RATIO_TOLERANCE 0.0015

struct cell {
    char key[160]; /* "pages=1 targets=3" (params but mode, sorted by name), then the mode */
    const json_t *latency;
};

static int cmp_cell(const void *a, const void *b)
{
    return strcmp(((const struct cell *)a)->key, ((const struct cell *)b)->key);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The params but `skip`, sorted by name, as text, then " mode=" + mode (or nothing). */
static bool key_of(const json_t *params, const char *skip, const char *mode, char *buf, size_t cap)
{
    const char *names[8], *k;
    const json_t *v;
    size_t n = 0, i, len = 0;
    json_object_foreach((json_t *)params, k, v) {
        if (skip && strcmp(k, skip) == 0)
            continue;
        if (n == 8)
            return false;
        names[n++] = k;
    }
    qsort(names, n, sizeof(*names), cmp_str);
    buf[0] = '\0';
    for (i = 0; i < n; i++) {
        v = json_object_get(params, names[i]);
        if (json_is_integer(v))
            snprintf(buf + len, cap - len, "%s=%" JSON_INTEGER_FORMAT ";", names[i],
                     json_integer_value(v));
        else if (json_is_string(v))
            snprintf(buf + len, cap - len, "%s=\"%s\";", names[i], json_string_value(v));
        else
            return false;
        len = strlen(buf);
    }
    snprintf(buf + len, cap - len, "|%s", mode ? mode : "");
    return strlen(buf) + 1 < cap;
}

static const json_t *find(const struct cell *cells, size_t n, const char *key)
{
    struct cell probe;
    const struct cell *hit;
    snprintf(probe.key, sizeof(probe.key), "%s", key);
    hit = bsearch(&probe, cells, n, sizeof(*cells), cmp_cell);
    return hit ? hit->latency : NULL;
}

void validate_seq_conc_ratios(struct vctx *c, const json_t *e)
{
    const json_t *results = jget_array(e, "results"), *summary = jget_array(e, "summary"), *p;
    struct cell *cells;
    size_t n = 0, i, mark;
    if (!results || !summary || !json_array_size(summary))
        return;
    if (!(cells = calloc(json_array_size(results) + 1, sizeof(*cells))))
        return;
    json_array_foreach(results, i, p) {
        const json_t *params = jget_object(p, "params"), *lat = jget_path(p, "metrics.latency");
        const char *mode = jget_string(params, "mode");
        if (params && lat && mode && key_of(params, "mode", mode, cells[n].key, sizeof(cells[n].key))) {
            cells[n].latency = lat;
            n++;
        }
    }
    qsort(cells, n, sizeof(*cells), cmp_cell);
    mark = jpath_push_key(&c->path, "summary");
    json_array_foreach(summary, i, p) {
        static const char *const which[] = { "p50", "p99" };
        const json_t *params = jget_object(p, "params"), *values = jget_object(p, "values");
        char key[160], seq_key[168], conc_key[168];
        size_t w, m;
        if (!params || !values || !key_of(params, NULL, NULL, key, sizeof(key)))
            continue;
        key[strlen(key) - 1] = '\0'; /* drop the "|": the mode goes there */
        snprintf(seq_key, sizeof(seq_key), "%s|seq", key);
        snprintf(conc_key, sizeof(conc_key), "%s|conc", key);
        m = jpath_push_index(&c->path, i);
        for (w = 0; w < 2; w++) {
            char name[32];
            const json_t *sv = find(cells, n, seq_key), *cv = find(cells, n, conc_key);
            double stored, s, q;
            snprintf(name, sizeof(name), "conc_over_seq_%s", which[w]);
            stored = jget_number(values, name, NAN);
            s = jget_number(sv, which[w], NAN);
            q = jget_number(cv, which[w], NAN);
            if (isnan(stored) || !(s > 0) || isnan(q))
                continue;
            if (fabs(stored - q / s) > RATIO_TOLERANCE) {
                size_t vm = jpath_push_key(&c->path, "values");
                vc_error(c, name, "%.4g, but the conc point's %s over the seq point's is %.4g "
                         "(%.0f / %.0f)", stored, which[w], q / s, q, s);
                jpath_pop(&c->path, vm);
            }
        }
        jpath_pop(&c->path, m);
    }
    jpath_pop(&c->path, mark);
    free(cells);
}
