/*
 * libFuzzer target for the Content-Length reader (core/lib/http_length.c).
 *
 * Input: the header lines of an HTTP answer ("Name: value", one per line;
 * the first byte picks the bound). Each name and value is copied into a
 * buffer of exactly its length plus the NUL, so a read past it is caught
 * (ASan). The verdict is checked against an independent reading of the same
 * lines: VALID only when exactly one header is named Content-Length (any
 * case), its value is decimal digits with optional blanks around them and
 * at most the bound, and then the length is that number.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/lib/http_length.h"

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond))                                                                           \
            __builtin_trap();                                                                  \
    } while (0)

static char *copy(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* The reference: digits with blanks around, as a number when it fits below 2^64 */
static int reference(const char *v, uint64_t max, uint64_t *out)
{
    size_t i = 0, start, end;
    unsigned __int128 n = 0;
    while (v[i] == ' ' || v[i] == '\t')
        i++;
    start = i;
    while (v[i] >= '0' && v[i] <= '9') {
        n = n * 10 + (unsigned)(v[i] - '0');
        if (n > (unsigned __int128)max)
            n = (unsigned __int128)max + 1; /* stays past the bound, never wraps */
        i++;
    }
    end = i;
    while (v[i] == ' ' || v[i] == '\t')
        i++;
    if (end == start || v[i] || n > max)
        return 0;
    *out = (uint64_t)n;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t bounds[] = { 0, 1, 100, 65536, 4294967295u, UINT64_MAX };
    struct http_length l;
    uint64_t max, want = 0;
    size_t pos = 1, named = 0;
    int valid_value = 0;
    if (!size)
        return 0;
    max = bounds[data[0] % (sizeof(bounds) / sizeof(bounds[0]))];
    http_length_init(&l, max);
    while (pos < size) {
        size_t end = pos, colon;
        char *name, *value;
        while (end < size && data[end] != '\n')
            end++;
        for (colon = pos; colon < end && data[colon] != ':'; colon++)
            ;
        name = copy(data + pos, colon - pos);
        value = colon < end ? copy(data + colon + 1, end - colon - 1) : NULL;
        /* a NUL inside the line ends the C strings early: the reference reads them the same way */
        if (strcasecmp(name, "content-length") == 0) {
            named++;
            valid_value = value && reference(value, max, &want);
        }
        http_length_header(&l, name, value);
        free(name);
        free(value);
        pos = end + 1;
    }
    if (named == 0) {
        CHECK(l.state == HTTP_LENGTH_ABSENT);
    } else if (named == 1 && valid_value) {
        CHECK(l.state == HTTP_LENGTH_VALID);
        CHECK(l.bytes == want && l.bytes <= max);
    } else {
        CHECK(l.state == HTTP_LENGTH_INVALID);
        CHECK(l.why != NULL);
    }
    return 0;
}
