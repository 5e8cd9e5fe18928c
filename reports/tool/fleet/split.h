/*
 * A report read for import in bounded memory. A jansson document takes about
 * twelve times its file's size (a 50 MB report of 185,000 points: 600 MB),
 * and nearly all of a large report is points. So the points of every
 * experiment (experiments[i].results and .summary) stay byte ranges of the
 * file, each parsed when asked for and dropped at the next; the rest is
 * parsed whole into "the skeleton": the report with each of those arrays
 * holding one null per point, so their sizes (and emptiness) read as in the
 * file (validate.h's struct vpoints reads the points through split_point).
 *
 * Parsing the skeleton and each point alone accepts exactly what parsing the
 * file whole accepts, with the same values: the arrays are cut only where a
 * scan of the file finds plain JSON separators between their elements, and
 * anything the scan does not follow (nesting deeper than the fast parser's
 * limit, an escaped key, bad syntax) leaves the array, or the whole file,
 * to the ordinary parser. An error is always the ordinary parser's message
 * over the whole file (its line and column).
 */
#ifndef TLBSCOPE_FLEET_SPLIT_H
#define TLBSCOPE_FLEET_SPLIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reports/tool/model/load.h"

/* One points array left in the file: its elements' byte ranges, [start, end). */
struct split_array {
    size_t exp;
    int section; /* 0 results, 1 summary */
    size_t first, count; /* into split_report.ranges */
};

struct split_report {
    const char *bytes;
    size_t len;
    json_t *skeleton; /* a reference held; NULL until split_load succeeds */
    struct split_array *arrays; /* by exp, then section */
    size_t narrays;
    uint32_t *ranges; /* 2 per point: start, end (a report is at most LOAD_MAX_BYTES) */
    size_t npoints;   /* in every array left in the file */
    json_t *current;  /* the point split_point parsed last */
    size_t fetched;   /* points parsed so far (import's progress) */
    bool bad_point;   /* a point did not parse: split_load_error says why */
};

/*
 * Reads `bytes` (len, NUL-terminated; kept by the caller until split_free):
 * out->skeleton and the arrays, with lr as load_buffer leaves it (status,
 * message, schema_version; lr->root the skeleton, a reference of its own).
 */
void split_load(const char *bytes, size_t len, struct split_report *out,
                struct load_result *lr);
/* Point i of experiments[exp]'s section ("results", "summary"), valid until the next call;
 * NULL where the skeleton holds that array itself; json null when the point does not parse. */
const json_t *split_point(struct split_report *s, size_t exp, const char *section, size_t i);
/* After bad_point: the ordinary parser's verdict on the whole file, in lr. */
void split_load_error(const struct split_report *s, struct load_result *lr);
void split_free(struct split_report *s);

#endif
