/*
 * Milliseconds since some fixed point, for the waits of the UEFI glue both
 * apps share (the upload's deadline): each app's own clock, the TSC on x86
 * (efi/timebase.c, calibrated by then), the generic timer's counter on
 * aarch64 (efi/arm64/efi_lib.c).
 */
#ifndef TLBSCOPE_EFI_CLOCK_H
#define TLBSCOPE_EFI_CLOCK_H

#include <stdint.h>

uint64_t clock_ms(void);

#endif
