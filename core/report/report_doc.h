/*
 * The report's skeleton, one for every architecture (reports/SCHEMA.md): the
 * top-level keys in their order, the parts both write alike (schema, version,
 * architecture, generator, result, verdict, the experiments through
 * experiment_json.c), and a callback for each part that is the
 * architecture's own: x86's report_json.c and aarch64's report_arm64.c fill
 * one `struct report_doc` each and call report_doc_write().
 */
#ifndef TLBSCOPE_CORE_REPORT_DOC_H
#define TLBSCOPE_CORE_REPORT_DOC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/lib/json.h"
#include "core/lib/strbuf.h"
#include "core/report/report_common.h"
#include "core/run/record.h"
#include "core/run/result.h"
#include "core/run/verdict.h"

/* A part of the report that one architecture writes its own way; ctx is report_doc.ctx. */
typedef void (*report_part_fn)(struct json_writer *w, const void *ctx);

struct report_doc {
    const char *architecture;     /* "x86_64", "aarch64" */
    enum result result;
    const struct verdict *verdict;
    report_part_fn write_head;    /* "simulated", "simulation" and what else precedes "run" */
    report_part_fn write_run;     /* "run" */
    report_part_fn write_machine; /* "firmware", "cpu", "topology", "method": where hardware differs */
    report_part_fn write_recommendations; /* "recommendations" */
    const struct experiment_record *experiments; /* those that ran are written */
    uint32_t experiment_count;
    const char *unit;             /* the clock of the experiments' ticks */
    report_show_fn show;          /* free text as shown (redaction), and its context */
    const void *show_ctx;
    const void *ctx;              /* the run, for the callbacks */
};

/* The whole JSON report into out; false when it did not fit or came out malformed. */
bool report_doc_write(const struct report_doc *d, struct strbuf *out);

#endif
