/*
 * shootdown_seq_vs_conc's summary ratios against the cells they come from:
 * conc_over_seq_p50 must be the conc point's p50 over the seq point's (the
 * app truncates to 1/1000, core/exp/shootdown_seq_conc.c ratio_milli), so a
 * ratio the numbers beside it contradict is an error (issue 13, finding 7).
 * The cells the summary needs are sorted once and each result point looked
 * up among them: linear time, and memory for the summary alone.
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

/* A result point a summary ratio needs: "pages=1;targets=3;|conc" and its latency's p50, p99. */
struct cell {
    char key[168]; /* params but mode, sorted by name, as text; then "|" and the mode */
    double p50, p99;
    bool found;
};

static int cmp_cell(const void *a, const void *b)
{
    return strcmp(((const struct cell *)a)->key, ((const struct cell *)b)->key);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The params but `skip`, sorted by name, as text, then "|" + mode (or nothing). */
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

static struct cell *find(struct cell *cells, size_t n, const char *key)
{
    struct cell probe;
    snprintf(probe.key, sizeof(probe.key), "%s", key);
    return bsearch(&probe, cells, n, sizeof(*cells), cmp_cell);
}

/* A summary point's seq and conc keys; false when it has no ratio to check. */
static bool summary_keys(const json_t *p, char seq_key[168], char conc_key[168])
{
    const json_t *params = jget_object(p, "params");
    char key[160];
    if (!params || !jget_object(p, "values") || !key_of(params, NULL, NULL, key, sizeof(key)))
        return false;
    key[strlen(key) - 1] = '\0'; /* drop the "|": the mode goes there */
    snprintf(seq_key, 168, "%s|seq", key);
    snprintf(conc_key, 168, "%s|conc", key);
    return true;
}

/*
 * The cells the summary's ratios need, filled from the results in one pass
 * (the first point of a key wins): memory for the summary, whatever the
 * number of results, which import reads one at a time.
 */
static size_t wanted_cells(struct vctx *c, const json_t *results, const json_t *summary,
                           struct cell *cells)
{
    size_t n = 0, i, k;
    for (i = 0; i < json_array_size(summary); i++)
        if (summary_keys(vc_point(c, summary, "summary", i), cells[n].key, cells[n + 1].key))
            n += 2;
    qsort(cells, n, sizeof(*cells), cmp_cell);
    for (i = 0; n && i < json_array_size(results); i++) {
        const json_t *p = vc_point(c, results, "results", i);
        const json_t *params = jget_object(p, "params"), *lat = jget_path(p, "metrics.latency");
        const char *mode = jget_string(params, "mode");
        char key[168];
        struct cell *hit;
        if (params && lat && mode && key_of(params, "mode", mode, key, sizeof(key)) &&
            (hit = find(cells, n, key))) {
            /* equal keys (two summary points of one cell) share the values */
            for (k = (size_t)(hit - cells); k > 0 && strcmp(cells[k - 1].key, key) == 0; k--)
                ;
            for (; k < n && strcmp(cells[k].key, key) == 0; k++) {
                if (cells[k].found)
                    continue;
                cells[k].found = true;
                cells[k].p50 = jget_number(lat, "p50", NAN);
                cells[k].p99 = jget_number(lat, "p99", NAN);
            }
        }
    }
    return n;
}

void validate_seq_conc_ratios(struct vctx *c, const json_t *e)
{
    const json_t *results = jget_array(e, "results"), *summary = jget_array(e, "summary");
    struct cell *cells;
    size_t n, i, mark;
    if (!results || !summary || !json_array_size(summary))
        return;
    if (!(cells = calloc(2 * json_array_size(summary), sizeof(*cells))))
        return;
    n = wanted_cells(c, results, summary, cells);
    mark = jpath_push_key(&c->path, "summary");
    for (i = 0; i < json_array_size(summary); i++) {
        static const char *const which[] = { "p50", "p99" };
        const json_t *p = vc_point(c, summary, "summary", i), *values = jget_object(p, "values");
        char seq_key[168], conc_key[168];
        const struct cell *sv, *cv;
        size_t w, m;
        if (!summary_keys(p, seq_key, conc_key))
            continue;
        sv = find(cells, n, seq_key);
        cv = find(cells, n, conc_key);
        m = jpath_push_index(&c->path, i);
        for (w = 0; w < 2; w++) {
            char name[32];
            double stored, s, q;
            snprintf(name, sizeof(name), "conc_over_seq_%s", which[w]);
            stored = jget_number(values, name, NAN);
            s = sv && sv->found ? (w ? sv->p99 : sv->p50) : NAN;
            q = cv && cv->found ? (w ? cv->p99 : cv->p50) : NAN;
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
