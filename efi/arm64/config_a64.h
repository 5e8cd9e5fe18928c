/*
 * The aarch64 app's configuration: the same \tlbscope\tlbscope.cfg and load
 * options (the UEFI shell's command line) as the x86 app, read by the same
 * glue (efi/config_file.h) and parsed by the same parser (core/run/config.c),
 * so a stick's one file configures both. What the app does with the keys is
 * core/exp/arm64/a64_config.h's.
 */
#ifndef TLBSCOPE_EFI_ARM64_CONFIG_A64_H
#define TLBSCOPE_EFI_ARM64_CONFIG_A64_H

#include "core/run/run_arm64.h"
#include "efi/netboot.h"
#include "efi/volume.h"

/* Reads the file (the boot volume's, or on a network boot the boot server's, with
 * config_sha256= as on x86) and the load options, and sets run's configuration
 * (a64_config_finish), its args, config_file and net for the report. Problems
 * become run warnings or errors. */
void a64_config_load(EFI_HANDLE image, struct volume *vol, struct netboot *nb, struct arm64_run *run);

#endif
