/*
 * `show`'s summary of flush_ceiling: one wrapped line per curve (kind,
 * targets, working set and form, the full-flush mode), its crossover p*
 * with the 95% interval, the confidence, and the p25-p75 band, flagged when
 * p* lies outside it. The band is where the two curves' p25-p75 ranges
 * overlap; since issue 20 the confidence comes from p*'s interval instead,
 * so a "high" p* may sit outside a band drawn elsewhere: the line says so
 * rather than show the two side by side unexplained (issue 23, item 6).
 */
#ifndef TLBSCOPE_REPORT_SHOW_CEILING_H
#define TLBSCOPE_REPORT_SHOW_CEILING_H

#include <stdio.h>

#include "reports/tool/model/model.h"

#define CEILING_EXPERIMENT "flush_ceiling"

void show_ceiling_summary(const struct m_experiment *e, FILE *out);

#endif
