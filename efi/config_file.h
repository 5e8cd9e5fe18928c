/*
 * Where a run's key=value configuration comes from, for both apps:
 * \tlbscope\tlbscope.cfg on the boot volume, or on a network boot the
 * tlbscope.cfg beside the binary on the boot server, then the load options
 * (the UEFI shell's command line). The text goes to core/run/config.c's
 * parser (config_read_sources); x86's efi/args.c and aarch64's
 * efi/arm64/config_a64.c each finalize it their way.
 */
#ifndef TLBSCOPE_EFI_CONFIG_FILE_H
#define TLBSCOPE_EFI_CONFIG_FILE_H

#include "core/lib/msglist.h"
#include "core/run/config.h"
#include "efi/efi_util.h"
#include "efi/netboot.h"
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
/*
 * A network boot has no file system to read: tlbscope.cfg next to the binary on the boot
 * server (efi/netboot.h), parsed into cfg when it came, and checked against config_sha256=
 * of the load options `args_text` when they pin it (core/run/config_pin.h: a pinned file
 * that differs, or is missing, is an error and not used). net->config_source and
 * net->config_sha256 say what came. True when the file was used.
 */
bool config_from_boot_server(struct netboot *nb, const char *args_text, struct config *cfg,
                             struct net_info *net, struct msg_list *errors,
                             struct msg_list *warnings);

/*
 * Every source of a run's configuration, in order, into cfg (from config_defaults(); not yet
 * finalized): the boot server's tlbscope.cfg on a network boot, else the stick's, then the
 * load options (their text in `args`, which win); net gets how the machine booted and where
 * the file came from. A config_sha256= that can check nothing here is a warning. True when
 * a file was read.
 */
bool config_read_sources(EFI_HANDLE image, struct volume *v, struct netboot *nb, struct config *cfg,
                         char *args, size_t args_cap, struct net_info *net,
                         struct msg_list *errors, struct msg_list *warnings);

#endif
