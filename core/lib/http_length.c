/* The strict Content-Length reader: see http_length.h. */
#include "core/lib/http_length.h"
#include "core/mutant.h"

static bool is_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        if (x != *b)
            return false;
    }
    return *a == *b;
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

void http_length_init(struct http_length *l, uint64_t max)
{
    l->state = HTTP_LENGTH_ABSENT;
    l->bytes = 0;
    l->max = max;
    l->why = 0;
}

static void invalid(struct http_length *l, const char *why)
{
    l->state = HTTP_LENGTH_INVALID;
    l->why = why;
}

void http_length_header(struct http_length *l, const char *name, const char *value)
{
    uint64_t n = 0;
    const char *p = value;
    if (!name || !is_name(name, "content-length") || l->state == HTTP_LENGTH_INVALID)
        return;
    if (MUTANT(http_length_lenient)) {
        /* the reading before issue 35: digits while there are any, on from the last header */
        for (; p && *p >= '0' && *p <= '9'; p++)
            l->bytes = l->bytes * 10 + (uint64_t)(*p - '0');
        l->state = HTTP_LENGTH_VALID;
        return;
    }
    /* two lengths, even equal ones, are two framings of one body: RFC 9112 6.3 rejects it */
    if (l->state == HTTP_LENGTH_VALID) {
        invalid(l, "more than one Content-Length header");
        return;
    }
    if (!p) {
        invalid(l, "an empty Content-Length");
        return;
    }
    while (is_blank(*p))
        p++;
    if (!(*p >= '0' && *p <= '9')) {
        invalid(l, *p ? "a Content-Length that is not a decimal number"
                      : "an empty Content-Length");
        return;
    }
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64_t digit = (uint64_t)(*p - '0');
        /* checked before it grows: past the bound is an error, never a wrap to a small number */
        if (n > l->max / 10 || (n == l->max / 10 && digit > l->max % 10)) {
            invalid(l, "a Content-Length larger than the answer may be");
            return;
        }
        n = n * 10 + digit;
    }
    while (is_blank(*p))
        p++;
    if (*p) {
        invalid(l, "a Content-Length that is not a decimal number");
        return;
    }
    l->state = HTTP_LENGTH_VALID;
    l->bytes = n;
}
