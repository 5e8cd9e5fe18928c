#include "reports/tool/model/json_fast.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct fast {
    const unsigned char *p, *end;
    unsigned depth;
    char *buf; /* a string with escapes, unescaped */
    size_t cap;
    bool controls; /* some string or key holds a control character */
};

static json_t *value(struct fast *s);

static void skip_space(struct fast *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
        s->p++;
}

static bool buf_put(struct fast *s, size_t at, char c)
{
    if (at == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        char *grown = realloc(s->buf, cap);
        if (!grown)
            return false;
        s->buf = grown;
        s->cap = cap;
    }
    s->buf[at] = c;
    return true;
}

/*
 * A string after its opening quote: *text and *len the characters (in the
 * input, or unescaped in s->buf). Only printable ASCII and the one-letter
 * escapes; a \u escape, a control character or a byte >= 0x80 declines (jansson
 * checks UTF-8 and the \u0000 rule, and names what is wrong).
 */
static bool string_text(struct fast *s, const char **text, size_t *len)
{
    const unsigned char *start = s->p;
    size_t n = 0;
    while (s->p < s->end && *s->p != '"' && *s->p != '\\' && *s->p >= 0x20 && *s->p < 0x80)
        s->p++;
    if (s->p == s->end || *s->p >= 0x80 || *s->p < 0x20)
        return false;
    if (*s->p == '"') { /* the common case: nothing to unescape */
        if (memchr(start, 0x7f, (size_t)(s->p - start)))
            s->controls = true;
        *text = (const char *)start;
        *len = (size_t)(s->p - start);
        s->p++;
        return true;
    }
    for (s->p = start; s->p < s->end && *s->p != '"'; s->p++) {
        char c = (char)*s->p;
        if (*s->p < 0x20 || *s->p >= 0x80)
            return false;
        if (c == '\\') {
            if (++s->p == s->end)
                return false;
            switch (*s->p) {
            case '"': case '\\': case '/': c = (char)*s->p; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            default: return false; /* \u, or not an escape */
            }
        }
        if (c < 0x20 || c == 0x7f)
            s->controls = true;
        if (!buf_put(s, n++, c))
            return false;
    }
    if (s->p == s->end)
        return false;
    s->p++;
    *text = n ? s->buf : "";
    *len = n;
    return true;
}

static json_t *string_value(struct fast *s)
{
    const char *text;
    size_t len;
    return string_text(s, &text, &len) ? json_stringn_nocheck(text, len) : NULL;
}

/*
 * jansson's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
 * an integer when there is neither fraction nor exponent (strtoll), else a
 * real (strtod, the C locale: the tool never sets another). Integers of
 * more than 18 digits and reals that overflow are left to jansson. "01" and
 * "1x": the container finds no ',' after the 0 or 1, and declines.
 */
static json_t *number_value(struct fast *s)
{
    const unsigned char *start = s->p;
    unsigned long long v = 0;
    size_t digits = 0;
    bool neg = false, real = false;
    char text[64];
    double d;
    if (*s->p == '-') {
        neg = true;
        s->p++;
    }
    if (s->p == s->end || *s->p < '0' || *s->p > '9')
        return NULL;
    if (*s->p == '0') {
        s->p++;
        digits = 1;
    } else {
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
            v = v * 10 + (unsigned)(*s->p++ - '0');
            if (++digits > 18)
                return NULL;
        }
    }
    if (s->p < s->end && *s->p == '.') {
        real = true;
        if (++s->p == s->end || *s->p < '0' || *s->p > '9')
            return NULL;
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
            s->p++;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        real = true;
        if (++s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (s->p == s->end || *s->p < '0' || *s->p > '9')
            return NULL;
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
            s->p++;
    }
    if (!real)
        return json_integer(neg ? -(json_int_t)v : (json_int_t)v);
    if ((size_t)(s->p - start) >= sizeof(text))
        return NULL;
    memcpy(text, start, (size_t)(s->p - start));
    text[s->p - start] = '\0';
    d = strtod(text, NULL);
    return isinf(d) ? NULL : json_real(d);
}

static json_t *literal(struct fast *s, const char *word, json_t *v)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return NULL;
    s->p += n;
    return v; /* "truex": the container finds the x */
}

static json_t *array_value(struct fast *s)
{
    json_t *a = json_array(), *v;
    s->p++; /* [ */
    skip_space(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        return a;
    }
    while (a) {
        if (!(v = value(s)) || json_array_append_new(a, v) != 0)
            break;
        skip_space(s);
        if (s->p == s->end)
            break;
        if (*s->p == ']') {
            s->p++;
            return a;
        }
        if (*s->p++ != ',')
            break;
        skip_space(s);
    }
    json_decref(a);
    return NULL;
}

static json_t *object_value(struct fast *s)
{
    json_t *o = json_object(), *v;
    const char *key;
    size_t len, size;
    s->p++; /* { */
    skip_space(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return o;
    }
    while (o) {
        char *copy = NULL;
        if (s->p == s->end || *s->p++ != '"' || !string_text(s, &key, &len))
            break;
        /* an unescaped key lies in s->buf, which the value's strings reuse */
        if (key == s->buf) {
            if (!(copy = malloc(len)))
                break;
            key = memcpy(copy, key, len);
        }
        skip_space(s);
        v = NULL;
        if (s->p < s->end && *s->p++ == ':') {
            skip_space(s);
            v = value(s);
        }
        size = json_object_size(o);
        /* a key already there is replaced, so the size stays: a duplicate, jansson says where */
        if (!v || json_object_setn_new_nocheck(o, key, len, v) != 0 || json_object_size(o) == size) {
            free(copy);
            break;
        }
        free(copy);
        skip_space(s);
        if (s->p == s->end)
            break;
        if (*s->p == '}') {
            s->p++;
            return o;
        }
        if (*s->p++ != ',')
            break;
        skip_space(s);
    }
    json_decref(o);
    return NULL;
}

static json_t *value(struct fast *s)
{
    json_t *v;
    if (s->p == s->end)
        return NULL;
    switch (*s->p) {
    case '{':
    case '[':
        if (++s->depth > JSON_FAST_MAX_DEPTH)
            return NULL;
        v = *s->p == '{' ? object_value(s) : array_value(s);
        s->depth--;
        return v;
    case '"':
        s->p++;
        return string_value(s);
    case 't':
        return literal(s, "true", json_true());
    case 'f':
        return literal(s, "false", json_false());
    case 'n':
        return literal(s, "null", json_null());
    default:
        return number_value(s);
    }
}

json_t *json_fast_parse(const char *p, size_t len, bool *controls)
{
    struct fast s = { (const unsigned char *)p, (const unsigned char *)p + len, 0, NULL, 0, false };
    json_t *root = NULL;
    skip_space(&s);
    if (s.p < s.end && (*s.p == '{' || *s.p == '[')) {
        root = value(&s);
        skip_space(&s);
        if (root && s.p != s.end) { /* jansson: "end of file expected" */
            json_decref(root);
            root = NULL;
        }
    }
    free(s.buf);
    *controls = s.controls;
    return root;
}
