/* Helpers shared by the efi/ files: the only code that includes <efi.h>. */
#ifndef TLBSCOPE_EFI_UTIL_H
#define TLBSCOPE_EFI_UTIL_H

#include <efi.h>
#include <efilib.h>

/*
 * What the firmware calls, and what it gives us to call, uses the UEFI calling
 * convention: on x86 the Microsoft ABI, which Debian's libefi (built without
 * GNU_EFI_USE_MS_ABI) does not put on the protocols it does not declare, so
 * tlbscope's own protocol definitions carry it explicitly; AAPCS64 on aarch64,
 * where efi/arm64/include/efi.h defines it empty.
 */
#ifndef MSABI
#define MSABI __attribute__((ms_abi))
#endif

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
