/*
 * Targets busy during a shootdown window: each runs loads and stores to lines
 * of its own until the BSP stops it, so the DSB that completes a broadcast
 * TLBI has accesses in flight on it to wait for (a CPU in WFI has none, and
 * Linux's targets are as often running the process as idle).
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_BUSY_TARGETS_H
#define TLBSCOPE_CORE_EXP_ARM64_BUSY_TARGETS_H

#include <stdbool.h>

#include "core/run/run_arm64.h"

/* targets[0..k) start their loops; false when one did not start within the timeout (then lost) */
bool a64_busy_start(struct arm64_run *run, const unsigned *targets, unsigned k);
/* they stop and acknowledge (a target not stopping within the timeout is lost); false then */
bool a64_busy_stop(struct arm64_run *run, const unsigned *targets, unsigned k);

#endif
