/* Text views of shootdown_contention and ipi_target_state, and each experiment's conditions. */
#ifndef TLBSCOPE_CORE_REPORT_VIEWS_CONTENTION_H
#define TLBSCOPE_CORE_REPORT_VIEWS_CONTENTION_H

#include "core/run/run.h"
#include "core/lib/strbuf.h"

/* Contention as latency and throughput per number of initiators m. */
void view_contention(const struct run *r, const struct experiment_record *e, struct strbuf *sb);
/* Target states as a small table: round trip and the target's lost time. */
void view_target_state(const struct run *r, const struct experiment_record *e, struct strbuf *sb);

#endif
