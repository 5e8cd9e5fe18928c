/* The firmware's Secure Boot state, for both apps' firmware section. */
#ifndef TLBSCOPE_EFI_SECURE_BOOT_H
#define TLBSCOPE_EFI_SECURE_BOOT_H

#include "core/firmware/firmware_info.h"

/* From the SecureBoot and SetupMode global variables (UEFI 2.10, 3.3). */
enum secure_boot_state efi_secure_boot_state(void);

#endif
