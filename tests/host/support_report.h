/* Host test support: the app's report writer (core/report/report.h) run on a struct run. */
#ifndef TLBSCOPE_TESTS_SUPPORT_REPORT_H
#define TLBSCOPE_TESTS_SUPPORT_REPORT_H

#include <jansson.h>

struct run;

/* The JSON report of `r`, parsed; fails the test when it does not parse. Unless `text`
 * is NULL, *text is a copy of the JSON as written (free it). */
json_t *support_report_json(const struct run *r, char **text);
/* The text summary of `r` (free it). */
char *support_report_text(const struct run *r);

#endif
