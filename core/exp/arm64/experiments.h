/*
 * The aarch64 experiments, one per file, each measuring into the record the
 * loop both apps run gives it (core/run/exp_loop.h: its points reserved, its
 * status SUCCESS until set; experiments.c ends it).
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_EXPERIMENTS_H
#define TLBSCOPE_CORE_EXP_ARM64_EXPERIMENTS_H

#include "core/run/run_arm64.h"

void exp_ipi_roundtrip(struct arm64_run *run, struct experiment_record *e);
void exp_ipi_broadcast(struct arm64_run *run, struct experiment_record *e);
void exp_stale_control(struct arm64_run *run, struct experiment_record *e);
void exp_tlbi_broadcast_vs_ipi(struct arm64_run *run, struct experiment_record *e);
void exp_tlbi_range(struct arm64_run *run, struct experiment_record *e);
void exp_tlbi_concurrent(struct arm64_run *run, struct experiment_record *e);
void exp_flush_ceiling(struct arm64_run *run, struct experiment_record *e);
void exp_pti_double_invalidation(struct arm64_run *run, struct experiment_record *e);

/* The experiments experiments= selects (all without it) on core/run's loop, into run->exps:
 * one record per table entry, in the table's order. */
void a64_run_experiments(struct arm64_run *run);
/* A CPU that stopped answering: recorded hung (or faulted, if our vector
 * parked it) in the topology, no longer used, and the run partial. */
void a64_cpu_lost(struct arm64_run *run, unsigned cpu, const char *where);
/* topology state of percpu[] CPUs after the run: parked ones become faulted */
void a64_topology_settle(struct arm64_run *run);
/* The end of the run (handback.c): every secondary's GIC state given back and the CPU
 * turned off with PSCI CPU_OFF, AFFINITY_INFO asked until OFF; those that stay on are
 * named. Into run->handback; after a64_topology_settle, before the report. */
void a64_hand_back_cpus(struct arm64_run *run);

#endif
