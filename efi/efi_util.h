/* Helpers shared by the efi/ files: the only code that includes <efi.h>. */
#ifndef TLBSCOPE_EFI_UTIL_H
#define TLBSCOPE_EFI_UTIL_H

#include <efi.h>
#include <efilib.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Human-readable name of an EFI_STATUS, e.g. "EFI_WRITE_PROTECTED". */
const char *efi_status_name(EFI_STATUS st);
/* ASCII to UCS-2 (cap in CHAR16 units, always terminated). */
void ascii_to_ucs2(CHAR16 *dst, size_t cap, const char *src);
/* UCS-2 to ASCII; characters above 0x7e become '?'. */
void ucs2_to_ascii(char *dst, size_t cap, const CHAR16 *src, size_t max_chars);

#endif
