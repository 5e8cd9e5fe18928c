/* The x86 run's recommendations (core/run/recommend.h) in the JSON report and the text summary. */
#include "core/report/report_recommend.h"
#include "core/report/recommend_json.h"
#include "core/run/recommend.h"

void report_json_recommendations(struct json_writer *w, const struct run *r)
{
    struct recommendations recs;
    recommend_compute(r, &recs);
    report_write_recommendations(w, &recs);
}

void report_text_recommendations(const struct run *r, struct strbuf *sb)
{
    struct recommendations recs;
    recommend_compute(r, &recs);
    report_text_recommendation_list(&recs, r->tsc_hz, sb);
}
