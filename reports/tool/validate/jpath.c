#include "reports/tool/validate/jpath.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void jpath_init(struct jpath *p)
{
    p->buf[0] = '\0';
    p->len = 0;
}

static bool plain_identifier(const char *key)
{
    const char *c;
    if (!key[0] || (key[0] >= '0' && key[0] <= '9'))
        return false;
    for (c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_'))
            return false;
    return true;
}

/* Appends the key in path syntax; long or odd keys from a corrupt file are shortened. */
static void append_key(char *buf, size_t cap, size_t len, const char *key)
{
    if (len >= cap)
        return;
    if (plain_identifier(key)) {
        snprintf(buf + len, cap - len, "%s%.64s", len ? "." : "", key);
        return;
    }
    {
        char safe[68];
        size_t i, n = 0;
        for (i = 0; key[i] && n < 64; i++) {
            unsigned char ch = (unsigned char)key[i];
            safe[n++] = (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\') ? '?' : (char)ch;
        }
        safe[n] = '\0';
        snprintf(buf + len, cap - len, "[\"%s%s\"]", safe, key[i] ? "..." : "");
    }
}

size_t jpath_push_key(struct jpath *p, const char *key)
{
    size_t mark = p->len;
    append_key(p->buf, sizeof(p->buf), p->len, key);
    p->len = strlen(p->buf);
    return mark;
}

size_t jpath_push_index(struct jpath *p, size_t index)
{
    size_t mark = p->len;
    if (p->len < sizeof(p->buf)) {
        snprintf(p->buf + p->len, sizeof(p->buf) - p->len, "[%zu]", index);
        p->len = strlen(p->buf);
    }
    return mark;
}

void jpath_pop(struct jpath *p, size_t mark)
{
    if (mark < sizeof(p->buf)) {
        p->len = mark;
        p->buf[mark] = '\0';
    }
}

const char *jpath_child(const struct jpath *p, const char *key, char *buf, size_t cap)
{
    if (!cap)
        return "";
    snprintf(buf, cap, "%s", p->buf);
    append_key(buf, cap, strlen(buf), key);
    return buf;
}
