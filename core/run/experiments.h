/* The experiment table (core/run/experiments.c) and its entries, one file each. */
#ifndef TLBSCOPE_CORE_EXPERIMENTS_H
#define TLBSCOPE_CORE_EXPERIMENTS_H

#include "core/run/runner.h"

extern const struct experiment exp_ipi_roundtrip;
extern const struct experiment exp_ipi_broadcast;
extern const struct experiment exp_stale_control;
extern const struct experiment exp_shootdown_seq_vs_conc;
extern const struct experiment exp_shootdown_lazy;
extern const struct experiment exp_pti;
extern const struct experiment exp_invlpgb;
extern const struct experiment exp_flush_ceiling;
extern const struct experiment exp_shootdown_contention;
extern const struct experiment exp_ipi_target_state;

#endif
