/* The aarch64 experiments (contract A of issue 27), one per file, in run order. */
#ifndef TLBSCOPE_CORE_EXP_ARM64_EXPERIMENTS_H
#define TLBSCOPE_CORE_EXP_ARM64_EXPERIMENTS_H

#include "core/run/run_arm64.h"

void exp_ipi_roundtrip(struct arm64_run *run);
void exp_ipi_broadcast(struct arm64_run *run);
void exp_stale_control(struct arm64_run *run);
void exp_tlbi_broadcast_vs_ipi(struct arm64_run *run);
void exp_tlbi_range(struct arm64_run *run);
void exp_tlbi_concurrent(struct arm64_run *run);
void exp_flush_ceiling(struct arm64_run *run);
void exp_pti_double_invalidation(struct arm64_run *run);

/* The experiments in run order (those run->selected names, or all); each appends its record
 * to run->exps. */
void a64_run_experiments(struct arm64_run *run);
/* an aarch64 experiment id */
bool a64_experiment_known(const char *id);
/* A CPU that stopped answering: recorded hung (or faulted, if our vector
 * parked it) in the topology, no longer used, and the run partial. */
void a64_cpu_lost(struct arm64_run *run, unsigned cpu, const char *where);
/* topology state of percpu[] CPUs after the run: parked ones become faulted */
void a64_topology_settle(struct arm64_run *run);

#endif
