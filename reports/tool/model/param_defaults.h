/*
 * Parameters that later tool versions added to an experiment's points, and
 * the value each stands for in a report written before it (reports/SCHEMA.md,
 * "Parameters older reports lack"). compare aligns points by their
 * parameters: without these defaults a report that has `flush` and one that
 * predates it share no point at all (issue 23, item 1).
 *
 * A default is filled in only where it is needed: in a report whose points
 * of that experiment all lack the key while another report's have it. The
 * experiment then lists the key in `defaulted`, and the views say so.
 */
#ifndef TLBSCOPE_REPORT_PARAM_DEFAULTS_H
#define TLBSCOPE_REPORT_PARAM_DEFAULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/model/model.h"

/* What a defaulted key stood for in the older report, for the views' notes. */
const char *param_default_meaning(const char *experiment, const char *key);

/*
 * Fills the documented default of each added parameter into the points of
 * every report whose experiment lacks it, where another report of `all`
 * has it. Returns false when out of memory (the reports stay usable).
 */
bool param_defaults_align(struct m_report *const *all, size_t n);

#endif
