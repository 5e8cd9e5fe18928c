/*
 * Parameters that name a CPU by its number: ipi_target_state's `target` is
 * "the CPU the IPIs went to", which one machine's tlbscope picks as CPU 1 and
 * another's (skipping an SMT sibling of the initiator) as CPU 2. The number
 * is where the role landed, not what was measured, so compare matches such a
 * parameter as a role (issue 31, item 1), the way `targets` already is:
 *
 * - where every report's points of the experiment name one CPU only, the key
 *   is left out of the alignment (the points match by state, hint, window);
 * - where a report names several, each CPU becomes its rank among the run's
 *   ("#1" the lowest numbered), so the first target meets the first target.
 *
 * Only where the reports disagree: reports that name the same CPUs keep the
 * key and its values, as before. The experiment records what was done
 * (m_experiment.cpu_role) so the views can say so.
 */
#ifndef TLBSCOPE_REPORT_CPU_ROLES_H
#define TLBSCOPE_REPORT_CPU_ROLES_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/model/model.h"

/* Is `key` of `experiment` a parameter that names a CPU? */
bool cpu_role_param(const char *experiment, const char *key);

/*
 * Rewrites the CPU-naming parameters of every report's points as roles where
 * the reports' values differ. False when out of memory (the reports stay usable).
 */
bool cpu_roles_align(struct m_report *const *all, size_t n);

/* "target names a CPU, matched as a role: the one each report used (A: CPU 1; B: CPU 2)", or "". */
const char *cpu_role_text(const struct m_experiment *const *exp, struct m_report *const *reports,
                          size_t n, char *buf, size_t cap);

#endif
