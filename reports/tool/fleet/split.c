#include "reports/tool/fleet/split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/model/json_fast.h"

static const char *const sections[] = { "results", "summary" };

/* The scan of the file: where each points array's elements lie. */
struct scan {
    const char *end;
    struct split_report *out;
    size_t cap_arrays, cap_ranges;
    bool failed; /* out of memory: nothing is split */
};

static const char *ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* Past the string that opens at p, or NULL when it does not end. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

/*
 * Past one value at p, or NULL where the scan cannot tell (the parsers then
 * decide): brackets are counted, not matched by kind, and scalars end at a
 * delimiter; a slice that is not one valid value fails its own parse, which
 * sends the whole file to the ordinary parser. `depth`: the value's level in
 * the document; deeper than the fast parser goes is left to jansson whole.
 */
static const char *skip_value(const char *p, const char *end, int depth)
{
    const char *q;
    int d = 0;
    if (p >= end)
        return NULL;
    if (*p == '"')
        return skip_string(p, end);
    if (*p != '{' && *p != '[') {
        for (q = p; q < end && !strchr(",]} \t\n\r", *q); q++)
            ;
        return q > p ? q : NULL;
    }
    for (; p < end; p++) {
        if (*p == '"') {
            if (!(p = skip_string(p, end)))
                return NULL;
            p--;
        } else if (*p == '{' || *p == '[') {
            if (depth + ++d > JSON_FAST_MAX_DEPTH)
                return NULL;
        } else if ((*p == '}' || *p == ']') && --d == 0) {
            return p + 1;
        }
    }
    return NULL;
}

static bool add_range(struct scan *s, const char *from, const char *to)
{
    struct split_report *o = s->out;
    if (o->npoints * 2 + 2 > s->cap_ranges) {
        size_t cap = s->cap_ranges ? s->cap_ranges * 2 : 1024;
        uint32_t *r = realloc(o->ranges, cap * sizeof(*r));
        if (!r) {
            s->failed = true;
            return false;
        }
        o->ranges = r;
        s->cap_ranges = cap;
    }
    o->ranges[o->npoints * 2] = (uint32_t)(from - o->bytes);
    o->ranges[o->npoints * 2 + 1] = (uint32_t)(to - o->bytes);
    o->npoints++;
    return true;
}

/* The elements of the points array at p ('['); returns past its ']', or NULL. */
static const char *scan_points(struct scan *s, const char *p, size_t exp, int section)
{
    struct split_report *o = s->out;
    size_t first = o->npoints;
    p = ws(p + 1, s->end);
    if (p < s->end && *p == ']')
        return p + 1;
    for (;;) {
        const char *start = p;
        if (!(p = skip_value(p, s->end, 4)) || !add_range(s, start, p))
            return NULL;
        p = ws(p, s->end);
        if (p < s->end && *p == ']')
            break;
        if (p >= s->end || *p != ',')
            return NULL;
        p = ws(p + 1, s->end);
    }
    if (o->narrays == s->cap_arrays) {
        size_t cap = s->cap_arrays ? s->cap_arrays * 2 : 16;
        struct split_array *a = realloc(o->arrays, cap * sizeof(*a));
        if (!a) {
            s->failed = true;
            return NULL;
        }
        o->arrays = a;
        s->cap_arrays = cap;
    }
    o->arrays[o->narrays].exp = exp;
    o->arrays[o->narrays].section = section;
    o->arrays[o->narrays].first = first;
    o->arrays[o->narrays].count = o->npoints - first;
    o->narrays++;
    return p + 1;
}

/* A key as the file spells it; escaped keys never match (their array stays whole). */
static bool key_is(const char *k, const char *k_end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(k_end - k) == n + 2 && memcmp(k + 1, word, n) == 0;
}

/*
 * The members of the object at p ('{'); `exp`: the experiment it is, or
 * (size_t)-1 for the top level. Returns past its '}', or NULL.
 */
static const char *scan_object(struct scan *s, const char *p, size_t exp)
{
    p = ws(p + 1, s->end);
    if (p < s->end && *p == '}')
        return p + 1;
    for (;;) {
        const char *key = p, *key_end;
        int sec;
        if (p >= s->end || *p != '"' || !(key_end = p = skip_string(p, s->end)))
            return NULL;
        p = ws(p, s->end);
        if (p >= s->end || *p != ':')
            return NULL;
        p = ws(p + 1, s->end);
        if (p >= s->end)
            return NULL;
        sec = key_is(key, key_end, sections[0]) ? 0 : key_is(key, key_end, sections[1]) ? 1 : -1;
        if (exp == (size_t)-1 && key_is(key, key_end, "experiments") && *p == '[') {
            size_t i = 0;
            p = ws(p + 1, s->end);
            while (p && p < s->end && *p != ']') {
                p = *p == '{' ? scan_object(s, p, i++) : skip_value(p, s->end, 2);
                if (!p || (p = ws(p, s->end)) >= s->end || (*p != ',' && *p != ']'))
                    return NULL;
                if (*p == ',')
                    p = ws(p + 1, s->end);
            }
            p = p && p < s->end ? p + 1 : NULL;
        } else if (exp != (size_t)-1 && sec >= 0 && *p == '[') {
            p = scan_points(s, p, exp, sec);
        } else {
            p = skip_value(p, s->end, exp == (size_t)-1 ? 1 : 3);
        }
        if (!p || (p = ws(p, s->end)) >= s->end)
            return NULL;
        if (*p == '}')
            return p + 1;
        if (*p != ',')
            return NULL;
        p = ws(p + 1, s->end);
    }
}

/* The file without the split arrays' contents ("[...]" becomes "[]"); NULL when out of memory. */
static char *skeleton_text(const struct split_report *o, size_t *len)
{
    char *t = malloc(o->len + 1), *w = t;
    size_t from = 0, a;
    if (!t)
        return NULL;
    for (a = 0; a < o->narrays; a++) {
        const struct split_array *x = &o->arrays[a];
        size_t cut = o->ranges[x->first * 2], resume = o->ranges[(x->first + x->count) * 2 - 1];
        memcpy(w, o->bytes + from, cut - from);
        w += cut - from;
        from = resume;
    }
    memcpy(w, o->bytes + from, o->len - from);
    w += o->len - from;
    *w = '\0';
    *len = (size_t)(w - t);
    return t;
}

/* One null per point in each emptied array of the skeleton; false if the shape is not there. */
static bool fill_nulls(struct split_report *o)
{
    const json_t *exps = json_object_get(o->skeleton, "experiments");
    size_t a, i;
    for (a = 0; a < o->narrays; a++) {
        const struct split_array *x = &o->arrays[a];
        json_t *arr = json_object_get(json_array_get(exps, x->exp), sections[x->section]);
        if (!json_is_array(arr) || json_array_size(arr) != 0)
            return false;
        for (i = 0; i < x->count; i++)
            if (json_array_append_new(arr, json_null()))
                return false;
    }
    return true;
}

static void drop_split(struct split_report *o)
{
    free(o->arrays);
    free(o->ranges);
    o->arrays = NULL;
    o->ranges = NULL;
    o->narrays = o->npoints = 0;
}

void split_load(const char *bytes, size_t len, struct split_report *out,
                struct load_result *lr)
{
    struct scan s;
    const char *p = bytes;
    char *skel;
    size_t skel_len;
    memset(out, 0, sizeof(*out));
    memset(&s, 0, sizeof(s));
    out->bytes = bytes;
    out->len = len;
    s.end = bytes + len;
    s.out = out;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3;
    p = ws(p, s.end);
    if (len > LOAD_MAX_BYTES || p >= s.end || *p != '{' || !scan_object(&s, p, (size_t)-1) ||
        s.failed || !out->narrays || !(skel = skeleton_text(out, &skel_len))) {
        /* nothing to split, or the scan could not follow the file: the ordinary parser */
        drop_split(out);
        load_buffer(bytes, len, lr);
        out->skeleton = lr->status == LOAD_OK ? json_incref(lr->root) : NULL;
        return;
    }
    load_buffer(skel, skel_len, lr);
    free(skel);
    if (lr->status == LOAD_OK) {
        out->skeleton = json_incref(lr->root);
        if (fill_nulls(out))
            return;
        json_decref(out->skeleton);
        load_release(lr);
    }
    /* an error's line and column are the whole file's: parse it whole for the message */
    drop_split(out);
    load_buffer(bytes, len, lr);
    out->skeleton = lr->status == LOAD_OK ? json_incref(lr->root) : NULL;
}

/* The arrays are in file order: by experiment, then as its keys come (summary may be first). */
static const struct split_array *find_array(const struct split_report *s, size_t exp,
                                            int section)
{
    size_t lo = 0, hi = s->narrays;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->arrays[mid].exp < exp)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < s->narrays && s->arrays[lo].exp == exp; lo++)
        if (s->arrays[lo].section == section)
            return &s->arrays[lo];
    return NULL;
}

const json_t *split_point(struct split_report *s, size_t exp, const char *section, size_t i)
{
    const struct split_array *a = find_array(s, exp, strcmp(section, sections[0]) == 0 ? 0 : 1);
    const char *from;
    size_t n;
    bool controls;
    json_error_t err;
    if (!a || i >= a->count)
        return NULL;
    if (MUTANT(fleet_point_shifted) && i + 1 < a->count)
        i++;
    json_decref(s->current);
    from = s->bytes + s->ranges[(a->first + i) * 2];
    n = s->ranges[(a->first + i) * 2 + 1] - s->ranges[(a->first + i) * 2];
    /* as load_buffer reads the file: the fast parser, else jansson (a point is any value) */
    s->current = json_fast_parse(from, n, &controls);
    if (!s->current)
        s->current = json_loadb(from, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
    s->fetched++;
    if (!s->current) {
        s->bad_point = true;
        return json_null();
    }
    return s->current;
}

void split_load_error(const struct split_report *s, struct load_result *lr)
{
    load_buffer(s->bytes, s->len, lr);
    if (lr->status == LOAD_OK) { /* never expected: the parts parse only where the whole does */
        load_release(lr);
        lr->status = LOAD_NOT_JSON;
        snprintf(lr->message, sizeof(lr->message), "a point does not parse on its own");
    }
}

void split_free(struct split_report *s)
{
    json_decref(s->current);
    json_decref(s->skeleton);
    drop_split(s);
    s->current = s->skeleton = NULL;
}
