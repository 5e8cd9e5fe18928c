#include "reports/tool/model/sanitize.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of a control character starting at s (1 or 2), or 0 when s is not one. */
static size_t control_len(const unsigned char *s)
{
    if (s[0] < 0x20 || s[0] == 0x7f)
        return 1;
    if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) /* UTF-8 of U+0080..U+009F */
        return 2;
    return 0;
}

static bool has_control(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++)
        if (control_len(p))
            return true;
    return false;
}

char *sanitize_text(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t extra = 0, i, n;
    char *out, *o;
    if (!s)
        return NULL;
    for (i = 0; p[i]; i += n ? n : 1) {
        n = control_len(p + i);
        extra += n ? 6 : 0;
    }
    if (!extra || !(out = malloc(i + extra + 1)))
        return NULL;
    for (o = out, i = 0; p[i]; i += n ? n : 1) {
        n = control_len(p + i);
        if (n == 1)
            o += sprintf(o, "\\x%02x", p[i]);
        else if (n == 2)
            o += sprintf(o, "\\u%04x", p[i + 1]);
        else
            *o++ = (char)p[i];
    }
    *o = '\0';
    return out;
}

void sanitize_fputs(const char *s, FILE *out)
{
    char *e = sanitize_text(s);
    fputs(e ? e : s ? s : "", out);
    free(e);
}

bool sanitize_json(json_t *root)
{
    size_t i;
    if (json_is_string(root)) {
        char *e;
        if (!has_control(json_string_value(root)))
            return true;
        e = sanitize_text(json_string_value(root));
        bool ok = !e || json_string_set(root, e) == 0;
        free(e);
        return ok;
    }
    if (json_is_array(root)) {
        json_t *v;
        json_array_foreach(root, i, v)
            if (!sanitize_json(v))
                return false;
        return true;
    }
    if (json_is_object(root)) {
        const char *key;
        json_t *v, *tmp;
        void *it;
        size_t n = json_object_size(root), k = 0;
        char **bad;
        bool clean = true;
        /* the common case, no key to escape, without the snapshot (100 K points: 600 K objects) */
        json_object_foreach(root, key, v)
            if (!(clean = !has_control(key)))
                break;
        if (clean) {
            json_object_foreach(root, key, v)
                if (!sanitize_json(v))
                    return false;
            return true;
        }
        /* keys first: a renamed member is added at the end, so walk a snapshot of the keys */
        bad = calloc(n ? n : 1, sizeof(*bad));
        if (!bad)
            return false;
        json_object_foreach_safe(root, it, key, tmp) {
            (void)tmp;
            char *e = sanitize_text(key);
            if (e)
                bad[k++] = strdup(key);
            free(e);
        }
        for (i = 0; i < k; i++) {
            char *e = bad[i] ? sanitize_text(bad[i]) : NULL;
            if (e && (v = json_object_get(root, bad[i]))) {
                json_object_set(root, e, v);
                json_object_del(root, bad[i]);
            }
            free(e);
            free(bad[i]);
        }
        free(bad);
        json_object_foreach(root, key, v)
            if (!sanitize_json(v))
                return false;
    }
    return true;
}
