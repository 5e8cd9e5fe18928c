/* A recommendations list in the JSON report and the text summary (recommend_json.c). */
#ifndef TLBSCOPE_CORE_REPORT_RECOMMEND_JSON_H
#define TLBSCOPE_CORE_REPORT_RECOMMEND_JSON_H

#include <stdint.h>

#include "core/lib/json.h"
#include "core/lib/strbuf.h"
#include "core/run/recommendation.h"

/* "recommendations": {environment, note, entries} */
void report_write_recommendations(struct json_writer *w, const struct recommendations *recs);
/* "What this machine suggests": one line per entry, the verdicts' tick counts as time at hz. */
void report_text_recommendation_list(const struct recommendations *recs, uint64_t hz,
                                     struct strbuf *sb);

#endif
