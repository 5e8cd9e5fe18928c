/*
 * method.protocol_steps in the report and the text summary: where the tool's
 * own IPI round trip and 1-page shootdown spend their time (core/exp/protocol_steps.h).
 */
#ifndef TLBSCOPE_CORE_REPORT_PROTOCOL_REPORT_H
#define TLBSCOPE_CORE_REPORT_PROTOCOL_REPORT_H

#include "core/lib/json.h"
#include "core/lib/strbuf.h"
#include "core/run/run.h"

/* The member `protocol_steps` of the open `method` object; nothing when none was measured. */
void protocol_report_json(struct json_writer *w, const struct run *r);
/* "Protocol" lines of the text summary's header; nothing when none was measured. */
void protocol_report_text(struct strbuf *sb, const struct run *r);

#endif
