#include "reports/tool/validate/vcheck.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate.h"
#include "reports/tool/model/vocab.h"

static void vc_report(struct vctx *c, enum diag_level level, const char *key, const char *fmt,
                      va_list ap)
{
    char path[JPATH_CAP + 80], text[400];
    vsnprintf(text, sizeof(text), fmt, ap);
    diag_add(c->diags, level, key ? jpath_child(&c->path, key, path, sizeof(path)) : c->path.buf,
             "%s", text);
}

void vc_error(struct vctx *c, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vc_report(c, DIAG_ERROR, key, fmt, ap);
    va_end(ap);
}

void vc_warn(struct vctx *c, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vc_report(c, DIAG_WARNING, key, fmt, ap);
    va_end(ap);
}

static bool type_matches(const json_t *v, enum vtype t)
{
    switch (t) {
    case VT_STRING:
        return json_is_string(v);
    case VT_INT:
        return json_is_integer(v);
    case VT_NUMBER:
        return json_is_number(v);
    case VT_BOOL:
        return json_is_boolean(v);
    case VT_OBJECT:
        return json_is_object(v);
    case VT_ARRAY:
        return json_is_array(v);
    }
    return false;
}

static const char *type_name(enum vtype t)
{
    static const char *const names[] = { "a string", "an integer", "a number",
                                         "a boolean", "an object", "an array" };
    return names[t];
}

const json_t *vc_member(struct vctx *c, const json_t *obj, const char *key, enum vtype t,
                        unsigned flags)
{
    const json_t *v;
    if (!json_is_object(obj))
        return NULL;
    v = json_object_get(obj, key);
    if (!v) {
        if (!(flags & VF_OPTIONAL))
            vc_error(c, key, "missing required key");
        return NULL;
    }
    if (json_is_null(v)) {
        if (!(flags & VF_NULLABLE))
            vc_error(c, key, "is null, expected %s", type_name(t));
        return NULL;
    }
    if (!type_matches(v, t)) {
        vc_error(c, key, "expected %s%s, found %s", type_name(t),
                 flags & VF_NULLABLE ? " or null" : "", jget_type_word(v));
        return NULL;
    }
    return v;
}

const char *vc_string(struct vctx *c, const json_t *obj, const char *key, unsigned flags)
{
    const json_t *v = vc_member(c, obj, key, VT_STRING, flags);
    return v ? json_string_value(v) : NULL;
}

int vc_word(struct vctx *c, const json_t *obj, const char *key, const char *const words[],
            unsigned flags)
{
    const char *s = vc_string(c, obj, key, flags);
    int i;
    char expected[200];
    if (!s)
        return -1;
    i = vocab_index(words, s);
    if (i < 0) {
        vocab_describe(words, expected, sizeof(expected));
        vc_error(c, key, "unknown %s word \"%.60s\" (expected %s)", key, s, expected);
    }
    return i;
}

bool vc_int(struct vctx *c, const json_t *obj, const char *key, long long min, long long max,
            unsigned flags, long long *out)
{
    const json_t *v = vc_member(c, obj, key, VT_INT, flags);
    long long x;
    if (!v)
        return false;
    x = json_integer_value(v);
    if (x < min || x > max) {
        if (min == 0 && x < 0)
            vc_error(c, key, "%lld is negative", x);
        else if (max == LLONG_MAX)
            vc_error(c, key, "%lld is out of range (at least %lld)", x, min);
        else
            vc_error(c, key, "%lld is out of range (%lld..%lld)", x, min, max);
        return false;
    }
    if (out)
        *out = x;
    return true;
}

bool vc_bool(struct vctx *c, const json_t *obj, const char *key, unsigned flags, bool *out)
{
    const json_t *v = vc_member(c, obj, key, VT_BOOL, flags);
    if (v && out)
        *out = json_is_true(v);
    return v != NULL;
}

bool vc_hex(struct vctx *c, const json_t *obj, const char *key, unsigned flags)
{
    const char *s = vc_string(c, obj, key, flags);
    size_t digits;
    if (!s)
        return false;
    digits = strlen(s) >= 2 ? strspn(s + 2, "0123456789abcdefABCDEF") : 0;
    if (strncmp(s, "0x", 2) != 0 || digits == 0 || digits > 16 || s[2 + digits] != '\0') {
        vc_error(c, key, "\"%.40s\" is not a 64-bit hex identifier (\"0x\" and 1..16 hex digits)",
                 s);
        return false;
    }
    return true;
}

void vc_string_array(struct vctx *c, const json_t *obj, const char *key, unsigned flags)
{
    const json_t *a = vc_member(c, obj, key, VT_ARRAY, flags);
    size_t i, mark;
    if (!a)
        return;
    mark = jpath_push_key(&c->path, key);
    for (i = 0; i < json_array_size(a); i++) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_string(v)) {
            size_t m = jpath_push_index(&c->path, i);
            vc_error(c, NULL, "expected a string, found %s", jget_type_word(v));
            jpath_pop(&c->path, m);
        }
    }
    jpath_pop(&c->path, mark);
}

const json_t *vc_enter(struct vctx *c, const json_t *obj, const char *key, unsigned flags,
                       size_t *mark)
{
    const json_t *v = vc_member(c, obj, key, VT_OBJECT, flags);
    *mark = c->path.len;
    if (v)
        jpath_push_key(&c->path, key);
    return v;
}

void vc_leave(struct vctx *c, size_t mark) { jpath_pop(&c->path, mark); }

const json_t *vc_point(struct vctx *c, const json_t *array, const char *section, size_t i)
{
    const json_t *p = c->points ? c->points->at(c->points->ctx, c->exp_index, section, i) : NULL;
    return p ? p : json_array_get(array, i);
}
