/*
 * The Secure Boot state, read with RuntimeServices->GetVariable: not about the
 * ISA, so both apps build it (efi/shared.mk), the aarch64 one against its own
 * UEFI definitions.
 */
#include "efi/secure_boot.h"
#include "efi/efi_util.h"

#include "core/mutant.h"

static bool read_u8_var(const CHAR16 *name, UINT8 *out)
{
    UINTN size = sizeof(*out);
    UINT32 attrs = 0;
    return !EFI_ERROR(uefi_call_wrapper(RT->GetVariable, 5, (CHAR16 *)name, &EfiGlobalVariable,
                                        &attrs, &size, out)) &&
           size == 1;
}

enum secure_boot_state efi_secure_boot_state(void)
{
    UINT8 sb = 0, setup = 0;
    bool have_setup = read_u8_var(L"SetupMode", &setup);
    if (!read_u8_var(L"SecureBoot", &sb))
        /* firmware without Secure Boot support does not define the variable */
        return have_setup ? (setup ? SB_SETUP_MODE : SB_DISABLED) : SB_DISABLED;
    if (sb)
        return SB_ENABLED;
    return (have_setup && setup) ? SB_SETUP_MODE : SB_DISABLED;
}
