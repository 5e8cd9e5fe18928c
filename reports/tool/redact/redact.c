#include "reports/tool/redact/redact.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/model/load.h"
#include "reports/tool/redact/redact_text.h"

#define SCAN_MAX_SEGS 6     /* the identifying paths are shallower */
#define SCAN_MAX_DEPTH 4096 /* jansson stops at 2048 */
#define NONE ((size_t)-1)

/* ---- finding the identifying values in the text ---- */

struct span {
    size_t start, end; /* [start, end) of a value; start == NONE when absent */
};

struct path_segs {
    const char *seg[SCAN_MAX_SEGS];
    size_t len[SCAN_MAX_SEGS];
    size_t n;
};

/*
 * One pass over text that jansson has already accepted (so it is valid JSON
 * without duplicate keys): the byte span of each identifying value, and of
 * what the redaction record needs at the top level.
 */
struct scan {
    const char *p;
    size_t len, pos;
    struct path_segs paths[REDACT_MAX_FIELDS];
    size_t npaths;
    struct span target[REDACT_MAX_FIELDS];
    struct span record;       /* the value of the top-level "redaction" */
    size_t insert_at;         /* the top-level key the record goes before ("run", else the first) */
    size_t insert_ws;         /* where the whitespace before that key starts */
    bool have_run;
};

static void split_path(const char *path, struct path_segs *out)
{
    memset(out, 0, sizeof(*out));
    while (*path && out->n < SCAN_MAX_SEGS) {
        size_t n = strcspn(path, ".");
        out->seg[out->n] = path;
        out->len[out->n++] = n;
        path += n + (path[n] == '.');
    }
}

static void skip_ws(struct scan *s)
{
    while (s->pos < s->len && (s->p[s->pos] == ' ' || s->p[s->pos] == '\t' ||
                               s->p[s->pos] == '\n' || s->p[s->pos] == '\r'))
        s->pos++;
}

static bool at(const struct scan *s, char c) { return s->pos < s->len && s->p[s->pos] == c; }

static bool scan_string(struct scan *s) { return redact_scan_string(s->p, s->len, &s->pos); }

/* The key literal [start, end) (quotes included) equals `want` once decoded. */
static bool key_is(const struct scan *s, size_t start, size_t end, const char *want, size_t n)
{
    return redact_key_equals(s->p, start, end, want, n);
}

static bool scan_value(struct scan *s, unsigned live, size_t depth);

static bool scan_object(struct scan *s, unsigned live, size_t depth)
{
    size_t sep_end;
    s->pos++; /* '{' */
    sep_end = s->pos;
    skip_ws(s);
    if (at(s, '}')) {
        s->pos++;
        return true;
    }
    for (;;) {
        size_t key_start, key_end, vstart, i;
        unsigned next = 0;
        int target = -1;
        skip_ws(s);
        key_start = s->pos;
        if (!at(s, '"') || !scan_string(s))
            return false;
        key_end = s->pos;
        for (i = 0; i < s->npaths; i++) {
            const struct path_segs *ps = &s->paths[i];
            if (!(live & (1u << i)) || ps->n <= depth ||
                !key_is(s, key_start, key_end, ps->seg[depth], ps->len[depth]))
                continue;
            if (ps->n == depth + 1)
                target = (int)i;
            else
                next |= 1u << i;
        }
        if (depth == 0) {
            bool is_run = key_is(s, key_start, key_end, "run", 3);
            if (s->insert_at == NONE || (is_run && !s->have_run)) {
                s->insert_at = key_start;
                s->insert_ws = sep_end;
                s->have_run |= is_run;
            }
        }
        skip_ws(s);
        if (!at(s, ':'))
            return false;
        s->pos++;
        skip_ws(s);
        vstart = s->pos;
        if (!scan_value(s, next, depth + 1))
            return false;
        if (target >= 0) {
            s->target[target].start = vstart;
            s->target[target].end = s->pos;
        }
        if (depth == 0 && key_is(s, key_start, key_end, "redaction", 9)) {
            s->record.start = vstart;
            s->record.end = s->pos;
        }
        skip_ws(s);
        if (at(s, ',')) {
            s->pos++;
            sep_end = s->pos;
            continue;
        }
        if (at(s, '}')) {
            s->pos++;
            return true;
        }
        return false;
    }
}

static bool scan_array(struct scan *s, size_t depth)
{
    s->pos++; /* '[' */
    skip_ws(s);
    if (at(s, ']')) {
        s->pos++;
        return true;
    }
    for (;;) {
        skip_ws(s);
        if (!scan_value(s, 0, depth + 1)) /* no identifying path runs through an array */
            return false;
        skip_ws(s);
        if (at(s, ',')) {
            s->pos++;
            continue;
        }
        if (at(s, ']')) {
            s->pos++;
            return true;
        }
        return false;
    }
}

static bool scan_value(struct scan *s, unsigned live, size_t depth)
{
    size_t start = s->pos;
    if (depth > SCAN_MAX_DEPTH || s->pos >= s->len)
        return false;
    switch (s->p[s->pos]) {
    case '{':
        return scan_object(s, live, depth);
    case '[':
        return scan_array(s, depth);
    case '"':
        return scan_string(s);
    default: /* a number, true, false or null (jansson lets a NUL byte trail a number) */
        while (s->pos < s->len && (s->p[s->pos] == '\0' || !strchr(",]} \t\r\n", s->p[s->pos])))
            s->pos++;
        return s->pos > start;
    }
}

/* ---- building the copy ---- */

struct edit {
    size_t start, end; /* bytes of the input replaced (start == end: an insertion) */
    char *text;
};

static int cmp_edit(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static char *quoted_token(const struct redact_key *key, const char *path, const char *value,
                          size_t len)
{
    char token[REDACT_TOKEN_CAP], *out = malloc(REDACT_TOKEN_CAP + 2);
    if (!out)
        return NULL;
    redact_token(key->bytes, key->len, key->keyed, path, value, len, token);
    snprintf(out, REDACT_TOKEN_CAP + 2, "\"%s\"", token);
    return out;
}

/* The record as the app writes it: one line. */
static char *record_text(const struct redact_result *r)
{
    size_t i, cap = 160;
    char *t;
    for (i = 0; i < r->nfields; i++)
        cap += strlen(r->fields[i]) + 4;
    if (!(t = malloc(cap)))
        return NULL;
    snprintf(t, cap, "{ \"redacted\": true, \"keyed\": %s, \"by\": \"tlbscope-report\", "
             "\"fields\": [", r->keyed ? "true" : "false");
    for (i = 0; i < r->nfields; i++) /* spaced like core/lib/json.c's inline arrays */
        snprintf(t + strlen(t), cap - strlen(t), "%s\"%s\"", i ? ", " : " ", r->fields[i]);
    snprintf(t + strlen(t), cap - strlen(t), "%s] }", r->nfields ? " " : "");
    return t;
}

/* The existing record already says what the copy holds: then nothing is rewritten. */
static bool record_matches(const json_t *rec, const struct redact_result *r)
{
    const json_t *fields = jget_array(rec, "fields");
    size_t i, j;
    if (!json_is_object(rec) || !json_is_true(json_object_get(rec, "redacted")) ||
        !json_is_boolean(json_object_get(rec, "keyed")) ||
        json_is_true(json_object_get(rec, "keyed")) != r->keyed ||
        json_array_size(fields) != r->nfields)
        return false;
    for (i = 0; i < r->nfields; i++) {
        bool found = false;
        for (j = 0; j < json_array_size(fields) && !found; j++) {
            const char *f = json_string_value(json_array_get(fields, j));
            found = f && strcmp(f, r->fields[i]) == 0;
        }
        if (!found)
            return false;
    }
    return true;
}

static const char *find_bytes(const char *hay, size_t n, const char *needle, size_t m)
{
    size_t i;
    for (i = 0; m && i + m <= n; i++)
        if (hay[i] == needle[0] && memcmp(hay + i, needle, m) == 0)
            return hay + i;
    return NULL;
}

/* Where a replaced value still shows in the copy (a placeholder also used as a version...). */
static void find_leftovers(struct redact_result *r, const char *field, const char *value,
                           size_t len)
{
    json_t *str;
    char *enc;
    size_t n, pos = 0;
    if (len < 4) /* "1" or "ab" appear everywhere and identify nothing */
        return;
    str = json_stringn(value, len);
    enc = str ? json_dumps(str, JSON_ENCODE_ANY) : NULL;
    json_decref(str);
    if (!enc)
        return;
    n = strlen(enc) - 2; /* without the quotes: how the value reads inside any string */
    while (r->nleftovers < REDACT_MAX_LEFTOVERS && pos + n <= r->len) {
        const char *hit = find_bytes(r->text + pos, r->len - pos, enc + 1, n);
        size_t line = 1, i;
        if (!hit)
            break;
        for (i = 0; i < (size_t)(hit - r->text); i++)
            line += r->text[i] == '\n';
        r->leftovers[r->nleftovers].field = field;
        r->leftovers[r->nleftovers++].line = line;
        pos = (size_t)(hit - r->text) + n;
    }
    free(enc);
}

static bool fail(struct redact_result *r, const char *msg)
{
    snprintf(r->message, sizeof(r->message), "%s", msg);
    return false;
}

bool redact_report(const char *data, size_t len, const json_t *root, const struct redact_key *key,
                   struct redact_result *out)
{
    struct scan s;
    struct edit *edits = NULL;
    struct redact_span *spans = NULL;
    struct redact_pairs pairs;
    const char *originals[REDACT_MAX_FIELDS] = { 0 };
    size_t orig_len[REDACT_MAX_FIELDS] = { 0 };
    enum redact_kind kinds[REDACT_MAX_FIELDS] = { 0 };
    size_t nedits = 0, nspans = 0, i, pos, total;
    bool ok = false, all_hmac = true;
    struct load_result check;

    memset(out, 0, sizeof(*out));
    memset(&s, 0, sizeof(s));
    s.p = data;
    s.len = len;
    s.record.start = s.insert_at = NONE;
    for (i = 0; redact_fields[i] && i < REDACT_MAX_FIELDS; i++) {
        split_path(redact_fields[i], &s.paths[i]);
        s.target[i].start = NONE;
    }
    s.npaths = i;
    if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
        s.pos = 3; /* a byte order mark: load_buffer skips it too, the copy keeps it */
    skip_ws(&s);
    pos = s.pos;
    if (!json_is_object(root) || !at(&s, '{') || !scan_value(&s, (1u << s.npaths) - 1, 0) ||
        !redact_text_spans(data, len, pos, &spans, &nspans))
        return fail(out, "the report's text could not be followed (not the document that was "
                         "loaded?)");
    /* an edit per identifying field, the record, and one per free-text string at most */
    memset(&pairs, 0, sizeof(pairs));
    if (!(edits = calloc(REDACT_MAX_FIELDS + 1 + nspans, sizeof(*edits)))) {
        free(spans);
        return fail(out, "out of memory");
    }

    /* the identifying values: replaced, or already tokens */
    for (i = 0; i < s.npaths; i++) {
        const json_t *v;
        const char *path = redact_fields[i];
        if (s.target[i].start == NONE)
            continue;
        v = jget_path(root, path);
        if (!v) {
            fail(out, "the report's text and its document disagree");
            goto done;
        }
        if (json_is_null(v) || (json_is_string(v) && json_string_length(v) == 0))
            continue; /* nothing recorded, nothing to hide */
        if (json_is_string(v) && strlen(json_string_value(v)) == json_string_length(v) &&
            (kinds[i] = redact_token_kind(json_string_value(v))) != REDACT_NOT_TOKEN)
            continue; /* redacted before */
        edits[nedits].start = s.target[i].start;
        edits[nedits].end = s.target[i].end;
        if (json_is_string(v)) {
            originals[i] = json_string_value(v);
            orig_len[i] = json_string_length(v);
            edits[nedits].text = quoted_token(key, path, originals[i], orig_len[i]);
        } else {
            /* not what the schema says, and identifying all the same: its JSON text is hashed */
            char *dump = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
            edits[nedits].text = dump ? quoted_token(key, path, dump, strlen(dump)) : NULL;
            free(dump);
        }
        if (!edits[nedits++].text)
            goto oom;
        kinds[i] = key->keyed ? REDACT_TOKEN_HMAC : REDACT_TOKEN_RANDOM;
        out->replaced++;
    }
    /* where free text quotes a value replaced above (or a URL's host): the same token */
    for (i = 0; i < s.npaths; i++)
        if (originals[i])
            redact_pairs_add(&pairs, key->bytes, key->len, key->keyed, redact_fields[i],
                             originals[i], orig_len[i]);
    for (i = 0; i < nspans && pairs.n; i++) {
        char *t = redact_text_span(&pairs, data, spans[i].start, spans[i].end);
        if (!t)
            continue;
        edits[nedits].start = spans[i].start;
        edits[nedits].end = spans[i].end;
        edits[nedits++].text = t;
        out->quotes++;
    }
    for (i = 0; i < s.npaths; i++) {
        if (kinds[i] == REDACT_NOT_TOKEN)
            continue;
        out->fields[out->nfields++] = redact_fields[i];
        all_hmac &= kinds[i] == REDACT_TOKEN_HMAC;
    }
    if (out->nfields)
        out->keyed = all_hmac;
    else if (json_is_boolean(json_object_get(jget_object(root, "redaction"), "keyed")))
        out->keyed = json_is_true(json_object_get(jget_object(root, "redaction"), "keyed"));
    else
        out->keyed = key->keyed;

    /* the record: kept when it already says all this, else written (before "run") */
    if (out->replaced || !record_matches(json_object_get(root, "redaction"), out)) {
        char *rec = record_text(out);
        if (!rec)
            goto oom;
        if (s.record.start != NONE) {
            edits[nedits].start = s.record.start;
            edits[nedits].end = s.record.end;
            edits[nedits++].text = rec;
        } else {
            /* `"redaction": {...},` and then the whitespace that stood before the key */
            size_t ws = s.insert_at - s.insert_ws, need = strlen(rec) + ws + 32;
            char *ins = malloc(need);
            if (!ins) {
                free(rec);
                goto oom;
            }
            snprintf(ins, need, "\"redaction\": %s,%.*s", rec, (int)ws, data + s.insert_ws);
            if (!ws)
                strcat(ins, " ");
            free(rec);
            edits[nedits].start = edits[nedits].end = s.insert_at;
            edits[nedits++].text = ins;
        }
    }

    qsort(edits, nedits, sizeof(edits[0]), cmp_edit);
    total = len;
    for (i = 0; i < nedits; i++)
        total += strlen(edits[i].text) - (edits[i].end - edits[i].start);
    if (!(out->text = malloc(total ? total : 1)))
        goto oom;
    for (i = 0, pos = 0; i < nedits; i++) {
        size_t t = strlen(edits[i].text);
        memcpy(out->text + out->len, data + pos, edits[i].start - pos);
        out->len += edits[i].start - pos;
        memcpy(out->text + out->len, edits[i].text, t);
        out->len += t;
        pos = edits[i].end;
    }
    memcpy(out->text + out->len, data + pos, len - pos);
    out->len += len - pos;
    out->changed = nedits > 0;

    /* the copy must be a report again, and the values must be gone from it */
    load_buffer(out->text, out->len, &check);
    if (check.status != LOAD_OK) {
        load_release(&check);
        fail(out, "internal error: the redacted copy does not load back");
        goto done;
    }
    load_release(&check);
    for (i = 0; i < s.npaths; i++)
        if (originals[i])
            find_leftovers(out, redact_fields[i], originals[i], orig_len[i]);
    ok = true;
    goto done;
oom:
    fail(out, "out of memory");
done:
    for (i = 0; i < nedits; i++)
        free(edits[i].text);
    free(edits);
    free(spans);
    if (!ok) {
        free(out->text);
        out->text = NULL;
        out->len = 0;
    }
    return ok;
}

void redact_result_free(struct redact_result *r)
{
    free(r->text);
    r->text = NULL;
    r->len = 0;
}
