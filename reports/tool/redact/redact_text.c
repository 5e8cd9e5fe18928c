/*
 * The free text of a report (core/run/redact.h redact_text_fields: run.args,
 * the run's messages, an experiment's reason and notes) may quote a value
 * that redact tokenises in its own field: a failed fetch's warning names the
 * boot server's URL, run.args says upload=URL. Those quotes get the same
 * tokens (redact_scrub(), the code the app runs under redact=on), so a
 * report redacted here and one the app redacted with the same key read alike.
 */
#include "reports/tool/redact/redact_text.h"

#include <stdlib.h>
#include <string.h>

#define TEXT_MAX_SEGS 4 /* the deepest free-text path: run.warnings.[].message */
#define TEXT_MAX_PATHS 8

struct walk {
    const char *p;
    size_t len, pos;
    /* the path to the value being read: keys as spans of the text, "[]" for an element */
    struct { size_t start, end; bool element; } seg[TEXT_MAX_SEGS];
    size_t depth;
    const char *paths[TEXT_MAX_PATHS][TEXT_MAX_SEGS];
    size_t path_len[TEXT_MAX_PATHS][TEXT_MAX_SEGS], path_segs[TEXT_MAX_PATHS], npaths;
    struct redact_span *spans;
    size_t nspans, cap;
    bool failed;
};

static void skip_ws(struct walk *w)
{
    while (w->pos < w->len && strchr(" \t\r\n", w->p[w->pos]) && w->p[w->pos])
        w->pos++;
}

bool redact_scan_string(const char *p, size_t len, size_t *pos)
{
    (*pos)++; /* the opening quote */
    while (*pos < len) {
        char c = p[*pos];
        if (c == '\\')
            *pos += 2;
        else if (c == '"')
            return ++*pos <= len;
        else
            (*pos)++;
    }
    return false;
}

bool redact_key_equals(const char *p, size_t start, size_t end, const char *want, size_t n)
{
    const char *raw = p + start + 1;
    size_t rawlen = end - start - 2;
    json_t *v;
    bool eq;
    if (!memchr(raw, '\\', rawlen))
        return rawlen == n && memcmp(raw, want, n) == 0;
    /* escaped: decode it as jansson did, so "ser\u0069al" is "serial" here too */
    v = json_loadb(p + start, end - start, JSON_DECODE_ANY, NULL);
    eq = json_is_string(v) && json_string_length(v) == n &&
         memcmp(json_string_value(v), want, n) == 0;
    json_decref(v);
    return eq;
}

static bool scan_string(struct walk *w) { return redact_scan_string(w->p, w->len, &w->pos); }

static bool key_is(const struct walk *w, size_t start, size_t end, const char *want, size_t n)
{
    return redact_key_equals(w->p, start, end, want, n);
}

/* The string that starts at `start` stands at one of the free-text paths. */
static bool at_text_path(const struct walk *w)
{
    size_t i, k;
    for (i = 0; i < w->npaths; i++) {
        if (w->path_segs[i] != w->depth)
            continue;
        for (k = 0; k < w->depth; k++) {
            bool element = w->path_len[i][k] == 2 && !memcmp(w->paths[i][k], "[]", 2);
            if (element != w->seg[k].element ||
                (!element && !key_is(w, w->seg[k].start, w->seg[k].end, w->paths[i][k],
                                     w->path_len[i][k])))
                break;
        }
        if (k == w->depth)
            return true;
    }
    return false;
}

static void add_span(struct walk *w, size_t start, size_t end)
{
    if (w->nspans == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        struct redact_span *grown = realloc(w->spans, cap * sizeof(*grown));
        if (!grown) {
            w->failed = true;
            return;
        }
        w->spans = grown;
        w->cap = cap;
    }
    w->spans[w->nspans].start = start;
    w->spans[w->nspans++].end = end;
}

static bool walk_value(struct walk *w, size_t nesting);

/* One member or element: its path segment pushed while its value is read. */
static bool walk_child(struct walk *w, size_t key_start, size_t key_end, bool element,
                       size_t nesting)
{
    bool ok;
    if (w->depth < TEXT_MAX_SEGS) {
        w->seg[w->depth].start = key_start;
        w->seg[w->depth].end = key_end;
        w->seg[w->depth].element = element;
    }
    w->depth++;
    ok = walk_value(w, nesting + 1);
    w->depth--;
    return ok;
}

static bool walk_container(struct walk *w, bool object, size_t nesting)
{
    char close = object ? '}' : ']';
    w->pos++;
    skip_ws(w);
    if (w->pos < w->len && w->p[w->pos] == close) {
        w->pos++;
        return true;
    }
    for (;;) {
        size_t ks = 0, ke = 0;
        skip_ws(w);
        if (object) {
            ks = w->pos;
            if (w->pos >= w->len || w->p[w->pos] != '"' || !scan_string(w))
                return false;
            ke = w->pos;
            skip_ws(w);
            if (w->pos >= w->len || w->p[w->pos] != ':')
                return false;
            w->pos++;
            skip_ws(w);
        }
        if (!walk_child(w, ks, ke, !object, nesting))
            return false;
        skip_ws(w);
        if (w->pos < w->len && w->p[w->pos] == ',') {
            w->pos++;
            continue;
        }
        if (w->pos < w->len && w->p[w->pos] == close) {
            w->pos++;
            return true;
        }
        return false;
    }
}

static bool walk_value(struct walk *w, size_t nesting)
{
    size_t start = w->pos;
    if (nesting > 4096 || w->pos >= w->len)
        return false;
    switch (w->p[w->pos]) {
    case '{':
        return walk_container(w, true, nesting);
    case '[':
        return walk_container(w, false, nesting);
    case '"':
        if (!scan_string(w))
            return false;
        if (w->depth <= TEXT_MAX_SEGS && at_text_path(w))
            add_span(w, start, w->pos);
        return true;
    default: /* a number, true, false or null (jansson lets a NUL byte trail a number) */
        while (w->pos < w->len && (w->p[w->pos] == '\0' || !strchr(",]} \t\r\n", w->p[w->pos])))
            w->pos++;
        return w->pos > start;
    }
}

bool redact_text_spans(const char *text, size_t len, size_t start, struct redact_span **spans,
                       size_t *nspans)
{
    struct walk w;
    size_t i;
    memset(&w, 0, sizeof(w));
    w.p = text;
    w.len = len;
    w.pos = start;
    for (i = 0; redact_text_fields[i] && i < TEXT_MAX_PATHS; i++) {
        const char *f = redact_text_fields[i];
        size_t k = 0;
        while (*f && k < TEXT_MAX_SEGS) {
            size_t n = strcspn(f, ".");
            w.paths[i][k] = f;
            w.path_len[i][k++] = n;
            f += n + (f[n] == '.');
        }
        w.path_segs[i] = k;
    }
    w.npaths = i;
    skip_ws(&w);
    if (!walk_value(&w, 0) || w.failed) {
        free(w.spans);
        return false;
    }
    *spans = w.spans;
    *nspans = w.nspans;
    return true;
}

char *redact_text_span(const struct redact_pairs *pairs, const char *text, size_t start,
                       size_t end)
{
    json_t *v = json_loadb(text + start, end - start, JSON_DECODE_ANY, NULL), *s;
    const char *in;
    size_t len, need;
    char *out, *enc = NULL;
    if (!json_is_string(v)) {
        json_decref(v);
        return NULL;
    }
    in = json_string_value(v);
    len = json_string_length(v);
    need = redact_scrub(pairs, in, len, NULL, 0);
    out = malloc(need + 1);
    if (out) {
        redact_scrub(pairs, in, len, out, need + 1);
        /* unchanged: no edit, so the bytes stay exactly as they were */
        if (need != len || memcmp(out, in, len) != 0) {
            s = json_stringn(out, need);
            enc = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
            json_decref(s);
        }
    }
    free(out);
    json_decref(v);
    return enc;
}
