/*
 * What an older report did not record. Some parameters and metrics came
 * with later versions of an experiment; a report written before them lacks
 * them on every point. `show` names what is missing, and what it would have
 * said, instead of showing the points as if nothing were (the views never
 * fill in a value for them).
 */
#ifndef TLBSCOPE_REPORT_UNRECORDED_H
#define TLBSCOPE_REPORT_UNRECORDED_H

#include <stdio.h>

#include "reports/tool/model/model.h"

/* One line per field the experiment's points all lack ("  not recorded: ..."). */
void unrecorded_show(const struct m_experiment *e, FILE *out);

#endif
