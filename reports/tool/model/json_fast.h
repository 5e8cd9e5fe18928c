/*
 * A fast path for reading a report: a strict JSON parser for the plain JSON
 * tlbscope writes (ASCII, the simple escapes, integers of up to 18 digits)
 * that builds the same jansson document json_loadb would, about three times
 * faster (a 100 K-point report: issue 13, finding 5).
 *
 * It never reports an error itself: on anything it does not handle or that is
 * not valid JSON (a \u escape, a byte >= 0x80, a long number, a duplicate key,
 * deep nesting, a syntax error) it declines, and load.c parses the bytes again
 * with json_loadb, whose verdict and error message (line, column, truncated,
 * depth, duplicates) stand. So what it accepts must be exactly what jansson
 * accepts, giving the same values in the same member order: tests/fuzz
 * (fuzz_report) and tests/host/test_report_load.c check that against jansson.
 */
#ifndef TLBSCOPE_REPORT_JSON_FAST_H
#define TLBSCOPE_REPORT_JSON_FAST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Deeper documents are left to jansson (reports nest about 6 levels). */
#define JSON_FAST_MAX_DEPTH 64

/*
 * The document in `p` (len bytes; a top-level object or array), as
 * json_loadb(p, len, JSON_REJECT_DUPLICATES, ...) reads it; NULL when it
 * declines (also when out of memory). *controls: some string or key holds a
 * control character (from \b \f \n \r \t, or a DEL byte); when false,
 * sanitize_json has nothing to escape in the document.
 */
json_t *json_fast_parse(const char *p, size_t len, bool *controls);

#endif
