/* The report's `method` object (core/report/method_report.c), for report_json.c. */
#ifndef TLBSCOPE_CORE_METHOD_REPORT_H
#define TLBSCOPE_CORE_METHOD_REPORT_H

#include "core/lib/json.h"
#include "core/run/run.h"

/* The key "method" and its object. */
void method_report_write(struct json_writer *w, const struct run *r);

#endif
