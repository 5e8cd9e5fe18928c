/* An experiment's plan (core/run/plan.h) in the report: JSON `plan`, and a text line when reduced. */
#ifndef TLBSCOPE_CORE_PLAN_REPORT_H
#define TLBSCOPE_CORE_PLAN_REPORT_H

#include "core/run/plan.h"

struct json_writer;
struct strbuf;

/* null when the experiment was not planned */
void plan_write_json(struct json_writer *w, const struct plan_summary *s);
/* Nothing unless the plan reduced the experiment (or could not fit it). */
void plan_write_text(struct strbuf *sb, const char *id, const struct plan_summary *s);

/*
 * experiments[].status_detail: what a measured experiment whose grid its
 * plan cut says beside its status ("reduced: 5 of 22 page counts"); no key
 * when the plan kept every row, column and variant.
 */
void plan_write_status_detail(struct json_writer *w, const struct plan_summary *s);

#endif
