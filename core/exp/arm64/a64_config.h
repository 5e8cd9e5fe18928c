/*
 * The aarch64 app's configuration, from text to the run: the same parser as
 * the x86 app (core/run/config.c) over the file's text and the load options'
 * key=value text, wherever they came from (the UEFI app reads them from the
 * boot volume or the boot server and its load options: efi/arm64/config_a64.c; tlbscope-sim's
 * aarch64 driver from its command line: sim/arm64/app.c).
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_A64_CONFIG_H
#define TLBSCOPE_CORE_EXP_ARM64_A64_CONFIG_H

#include <stddef.h>

#include "core/run/run_arm64.h"

/* file: tlbscope.cfg's text (NULL: none), run->args: the key=value text ("" none).
 * Sets run's samples, budgets, warmup, timeout_ms, order_seed, selection,
 * profile and exit; problems become run warnings. run->start_ticks seeds
 * order_seed when it is not given. */
void a64_config_apply(struct arm64_run *run, const char *file, size_t file_len);
/* After every source was parsed into run->cfg (config_defaults() first; the UEFI app's
 * sources in x86's order: the boot server's or the stick's file, then the load options):
 * the same as a64_config_apply()'s end. */
void a64_config_finish(struct arm64_run *run);

#endif
