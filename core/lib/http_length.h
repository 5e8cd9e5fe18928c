/*
 * The Content-Length of an HTTP answer, read strictly (RFC 9110 8.6, RFC
 * 9112 6.3): the body of a GET (the boot server's tlbscope.cfg) is complete
 * only when exactly that many bytes came, so the length must be exactly one
 * header of decimal digits (blanks around them allowed), within the caller's
 * bound. Anything else (no digits, a sign, a second header even with the
 * same value, a number past the bound or past 64 bits) makes the answer's
 * framing invalid: the body must not be used. efi/http_client.c feeds the
 * firmware's parsed headers here one by one; the host tests and
 * tests/fuzz/fuzz_http_length.c hold it to these rules.
 */
#ifndef TLBSCOPE_CORE_LIB_HTTP_LENGTH_H
#define TLBSCOPE_CORE_LIB_HTTP_LENGTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum http_length_state { HTTP_LENGTH_ABSENT = 0, HTTP_LENGTH_VALID, HTTP_LENGTH_INVALID };

struct http_length {
    enum http_length_state state;
    uint64_t bytes;      /* HTTP_LENGTH_VALID: the length */
    uint64_t max;        /* the largest length taken */
    const char *why;     /* HTTP_LENGTH_INVALID: what was wrong (a constant string) */
};

void http_length_init(struct http_length *l, uint64_t max);
/* One header of the answer (NUL-terminated name and value); other names are ignored. */
void http_length_header(struct http_length *l, const char *name, const char *value);

#endif
