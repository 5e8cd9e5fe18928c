/*
 * Result model, after XTF: every check ends in one of four results and the
 * most severe one wins.
 *
 *   SUCCESS < SKIP < ERROR < FAILURE
 *
 * SKIP    the check could not apply here (feature absent, one CPU), with a reason.
 * ERROR   the tool or its environment broke (a CPU hung in the tool's own
 *         protocol, firmware refused a service, a time budget ran out).
 * FAILURE the hardware or the protocol under test misbehaved (a stale TLB
 *         entry was read after a shootdown that reported success).
 *
 * FAILURE outranks ERROR because it is the finding the tool exists to report.
 */
#ifndef TLBSCOPE_CORE_RESULT_H
#define TLBSCOPE_CORE_RESULT_H

#include <stdbool.h>

enum result {
    RESULT_SUCCESS = 0,
    RESULT_SKIP = 1,
    RESULT_ERROR = 2,
    RESULT_FAILURE = 3,
};

enum result result_worst(enum result a, enum result b);
const char *result_name(enum result r);
/* Parses "SUCCESS"/"SKIP"/"ERROR"/"FAILURE"; returns false for anything else. */
bool result_parse(const char *s, enum result *out);
/* The console line prefix for one check: "PASS", "SKIP", "ERROR", "FAIL". */
const char *result_line_prefix(enum result r);

#endif
