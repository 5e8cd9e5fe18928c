/* The conditions of an experiment (core/run/conditions.h) in the JSON report and the text summary. */
#ifndef TLBSCOPE_CORE_CONDITIONS_REPORT_H
#define TLBSCOPE_CORE_CONDITIONS_REPORT_H

#include "core/lib/json.h"
#include "core/run/record.h"
#include "core/lib/strbuf.h"

/* Writes the value of the "conditions" key: an object, or null when none were recorded. */
void conditions_write_json(struct json_writer *w, const struct exp_conditions *c);
/* One "Conditions" line for the experiment's text section. */
void conditions_write_text(const struct exp_conditions *c, uint64_t tsc_hz, struct strbuf *sb);

#endif
