/*
 * The run's key=value arguments: \tlbscope\tlbscope.cfg on the boot volume
 * or, with no file system there (a network boot), tlbscope.cfg next to the
 * binary on the boot server (efi/netboot.h); then the command line.
 */
#ifndef TLBSCOPE_EFI_ARGS_H
#define TLBSCOPE_EFI_ARGS_H

#include "core/run/run.h"
#include "efi/config_file.h"
#include "efi/netboot.h"
#include "efi/volume.h"

void args_load(struct run *r, EFI_HANDLE image, struct volume *v, struct netboot *nb);

#endif
