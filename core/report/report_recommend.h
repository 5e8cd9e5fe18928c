/* The recommendations section (core/run/recommend.h) in the JSON report and the text summary. */
#ifndef TLBSCOPE_CORE_REPORT_RECOMMEND_H
#define TLBSCOPE_CORE_REPORT_RECOMMEND_H

#include "core/lib/json.h"
#include "core/run/run.h"
#include "core/lib/strbuf.h"

void report_json_recommendations(struct json_writer *w, const struct run *r);
/* "What this machine suggests": one line per entry. */
void report_text_recommendations(const struct run *r, struct strbuf *sb);

#endif
