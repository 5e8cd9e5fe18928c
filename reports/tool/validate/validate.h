/*
 * The schema check behind `validate` (reports/SCHEMA.md, version 1): every
 * field the writer emits, its type, range and vocabulary, and the
 * invariants between fields (cpu_count == len(cpus), min <= p50 <= max,
 * the run result at least as severe as each experiment's). Keys this tool
 * does not know are accepted: later writers of version 1 may add some.
 */
#ifndef TLBSCOPE_REPORT_VALIDATE_H
#define TLBSCOPE_REPORT_VALIDATE_H

#include <jansson.h>
#include <stddef.h>

#include "reports/tool/validate/diag.h"

/* `root` is a document that load_*() accepted. Returns the number of errors. */
size_t validate_report(const json_t *root, struct diag_list *out);

/*
 * Where the validator reads points when the document holds only their
 * places: import reads a large report with the points of each experiment
 * left in the file (fleet/split.h) and `root`'s results and summary arrays
 * holding one null per point, so their sizes read as in the file. `at`
 * returns point i of experiments[exp].results or .summary, valid until the
 * next call, or NULL where the document holds the array itself.
 */
struct vpoints {
    const json_t *(*at)(void *ctx, size_t exp, const char *section, size_t i);
    void *ctx;
};
/* validate_report over such a document. */
size_t validate_report_points(const json_t *root, const struct vpoints *points,
                              struct diag_list *out);

#endif
