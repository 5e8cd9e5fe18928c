/* Serialises a run: the JSON report (reports/SCHEMA.md) and its text summary. */
#ifndef TLBSCOPE_CORE_REPORT_H
#define TLBSCOPE_CORE_REPORT_H

#include "core/run.h"
#include "core/strbuf.h"

/* Returns false when the JSON could not be completed (out of memory). */
bool report_write_json(const struct run *r, struct strbuf *out);
void report_write_text(const struct run *r, struct strbuf *out);

#endif
