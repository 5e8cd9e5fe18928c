/*
 * Where a run's key=value configuration comes from on a boot volume, for
 * both apps: \tlbscope\tlbscope.cfg, then the load options (the UEFI shell's
 * command line). The text goes to core/run/config.c's parser: x86's
 * efi/args.c (which also knows the boot server's file of a network boot),
 * aarch64's efi/arm64/config_a64.c.
 */
#ifndef TLBSCOPE_EFI_CONFIG_FILE_H
#define TLBSCOPE_EFI_CONFIG_FILE_H

#include "core/lib/msglist.h"
#include "efi/efi_util.h"
#include "efi/volume.h"

#define CONFIG_FILE "\\tlbscope\\tlbscope.cfg"
#define CONFIG_FILE_MAX (64 * 1024)

/*
 * The load options as key=value text ("" without). The UEFI shell passes the
 * whole command line as UCS-2 LoadOptions, program name first; the boot
 * manager may pass binary optional data instead, which is ignored.
 */
void config_load_options(EFI_HANDLE image, char *out, size_t cap);
/*
 * tlbscope.cfg from the volume into a mem_alloc buffer (*data, NUL-terminated,
 * the caller frees it). False when there is none; a file too big or not
 * readable is also a warning, named, and the defaults stand.
 */
bool config_file_read(struct volume *v, char **data, size_t *len, struct msg_list *warnings);

#endif
