/* Serialises a run: the JSON report (reports/SCHEMA.md) and its text summary. */
#ifndef TLBSCOPE_CORE_REPORT_H
#define TLBSCOPE_CORE_REPORT_H

#include "core/run/run.h"
#include "core/lib/strbuf.h"

/* Returns false when the JSON could not be completed (out of memory). */
bool report_write_json(const struct run *r, struct strbuf *out);
void report_write_text(const struct run *r, struct strbuf *out);
/* The summary's Upload line for run->upload as it is now (the console after the upload). */
void report_write_upload(const struct run *r, struct strbuf *out);
/* The verdict line (core/run/verdict.h), without a line end: the summary's and the console's last. */
void report_write_verdict(const struct run *r, struct strbuf *out);
/* room for the verdict line with its not-applicable ids */
#define REPORT_VERDICT_LEN 256

#endif
