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

#endif
