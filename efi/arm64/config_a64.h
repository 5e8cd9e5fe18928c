/*
 * The aarch64 app's configuration: the same \tlbscope\tlbscope.cfg and load
 * options (the UEFI shell's command line) as the x86 app, parsed by the same
 * parser (core/run/config.c), so a stick's one file configures both. The
 * app honours profile, samples, budget_s, run_budget_s, order_seed,
 * timeout_ms, experiments and exit; every other key is parsed and checked as on x86, and named in a warning
 * when given, because it means nothing to this app.
 */
#ifndef TLBSCOPE_EFI_ARM64_CONFIG_A64_H
#define TLBSCOPE_EFI_ARM64_CONFIG_A64_H

#include "core/run/run_arm64.h"
#include "efi/arm64/uefi.h"

/* Reads the file (when the boot volume has one) and the load options, and
 * sets run's samples, warmup, timeout_ms, selection, profile and exit, and
 * its args / config_file for the report. Problems become run warnings. */
void a64_config_load(efi_boot_services *bs, efi_handle image, struct arm64_run *run);

#endif
