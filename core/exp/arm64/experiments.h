/* The aarch64 experiments (contract A of issue 27), one per file, in run order. */
#ifndef TLBSCOPE_CORE_EXP_ARM64_EXPERIMENTS_H
#define TLBSCOPE_CORE_EXP_ARM64_EXPERIMENTS_H

#include "core/exp/arm64/arm64_run.h"

void exp_ipi_roundtrip(struct arm64_run *run);
void exp_ipi_broadcast(struct arm64_run *run);
void exp_stale_control(struct arm64_run *run);
void exp_tlbi_broadcast_vs_ipi(struct arm64_run *run);
void exp_tlbi_range(struct arm64_run *run);
void exp_tlbi_concurrent(struct arm64_run *run);
void exp_flush_ceiling(struct arm64_run *run);

#endif
