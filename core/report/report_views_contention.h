/* Text views of what other CPUs lose (shootdown_contention, ipi_target_state, invlpgb_range's busy rows). */
#ifndef TLBSCOPE_CORE_REPORT_VIEWS_CONTENTION_H
#define TLBSCOPE_CORE_REPORT_VIEWS_CONTENTION_H

#include "core/run/run.h"
#include "core/lib/strbuf.h"

/* Contention as latency and throughput per number of initiators m. */
void view_contention(const struct run *r, const struct experiment_record *e, struct strbuf *sb);
/* Target states as a small table: round trip and the target's lost time. */
void view_target_state(const struct run *r, const struct experiment_record *e, struct strbuf *sb);

/*
 * invlpgb_range beyond the initiator: the busy_ws rows (the IPI targets'
 * lost time summed over them, INVLPGB's bystanders'), and the crossover per
 * placement, naming the one the recommendation reads.
 */
void view_invlpgb_other_cpus(const struct run *r, const struct experiment_record *e,
                             struct strbuf *sb);

#endif
