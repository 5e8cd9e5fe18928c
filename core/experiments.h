/* The experiment table (core/experiments.c) and its entries, one file each. */
#ifndef TLBSCOPE_CORE_EXPERIMENTS_H
#define TLBSCOPE_CORE_EXPERIMENTS_H

#include "core/runner.h"

extern const struct experiment exp_ipi_roundtrip;
extern const struct experiment exp_ipi_broadcast;

#endif
