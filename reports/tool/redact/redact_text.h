/* `redact` in the report's free text: see redact_text.c. */
#ifndef TLBSCOPE_REPORT_REDACT_TEXT_H
#define TLBSCOPE_REPORT_REDACT_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/run/redact.h"

/* The string literal at text[*pos] (its opening quote): *pos moves past its closing one. */
bool redact_scan_string(const char *text, size_t len, size_t *pos);
/* The key literal text[start, end) (quotes included) is `want` (n bytes) once decoded. */
bool redact_key_equals(const char *text, size_t start, size_t end, const char *want, size_t n);

struct redact_span {
    size_t start, end; /* a JSON string literal, quotes included */
};

/*
 * The spans of the strings at the free-text paths in `text` (valid JSON,
 * read from `start`), in order, in a malloc'd array. False when the text
 * cannot be followed or memory runs out.
 */
bool redact_text_spans(const char *text, size_t len, size_t start, struct redact_span **spans,
                       size_t *nspans);
/*
 * The string literal [start, end) with the values of `pairs` as their tokens,
 * as a JSON literal (malloc'd), or NULL when nothing changes.
 */
char *redact_text_span(const struct redact_pairs *pairs, const char *text, size_t start,
                       size_t end);

#endif
