/*
 * The BSP's console: UEFI ConOut while boot services are up (QEMU
 * -nographic sends it to the serial port). Secondaries never print here:
 * boot services are single-processor (asm/uart.h is theirs).
 */
#ifndef TLBSCOPE_EFI_ARM64_CONSOLE_H
#define TLBSCOPE_EFI_ARM64_CONSOLE_H

#include "efi/arm64/uefi.h"

void con_init(efi_text_out *con_out);
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* text of any length, e.g. the report summary */
void con_puts(const char *s);

#endif
