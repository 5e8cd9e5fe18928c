/*
 * The verifier's per-CPU counts (core/machine/shootdown_verify.c counts them in each CPU's
 * own block while it verifies) moved into an experiment's record. Apart from
 * the protocols because the record is the run's: the machine layer counts,
 * the run layer keeps the results.
 */
#ifndef TLBSCOPE_CORE_VERIFY_COLLECT_H
#define TLBSCOPE_CORE_VERIFY_COLLECT_H

#include "core/run/record.h"
#include "core/machine/shootdown.h"

/* Adds every CPU's verification counts to the record (and resets them). */
void shootdown_collect(struct shootdown *sd, struct experiment_record *rec);
/* The same from the CPUs alone (no CPU may be verifying meanwhile). */
void verify_collect(struct smp *s, struct experiment_record *rec);

#endif
