/*
 * The boot volume (the loaded image's device, through its Simple File System
 * protocol): where the reports go, as on x86 (efi/report_out.c):
 * \tlbscope\reports\NAME.json and NAME.txt, and the run counter in
 * \tlbscope\counter. Paths are ASCII with backslashes.
 */
#ifndef TLBSCOPE_EFI_ARM64_VOLUME_H
#define TLBSCOPE_EFI_ARM64_VOLUME_H

#include <stdbool.h>
#include <stddef.h>

#include "efi/arm64/uefi.h"

/* false when the image's device has no file system */
bool vol_open(efi_boot_services *bs, efi_handle image);
bool vol_exists(const char *path);
efi_status vol_mkdir(const char *path);
/* creates or truncates path and writes len bytes */
efi_status vol_write(const char *path, const void *data, size_t len);
/* reads up to cap-1 bytes into buf (NUL-terminated); 0 when absent */
size_t vol_read(const char *path, char *buf, size_t cap);

#endif
