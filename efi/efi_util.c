#include "efi/efi_util.h"

const char *efi_status_name(EFI_STATUS st)
{
    switch (st) {
    case EFI_SUCCESS: return "EFI_SUCCESS";
    case EFI_LOAD_ERROR: return "EFI_LOAD_ERROR";
    case EFI_INVALID_PARAMETER: return "EFI_INVALID_PARAMETER";
    case EFI_UNSUPPORTED: return "EFI_UNSUPPORTED";
    case EFI_BAD_BUFFER_SIZE: return "EFI_BAD_BUFFER_SIZE";
    case EFI_BUFFER_TOO_SMALL: return "EFI_BUFFER_TOO_SMALL";
    case EFI_NOT_READY: return "EFI_NOT_READY";
    case EFI_DEVICE_ERROR: return "EFI_DEVICE_ERROR";
    case EFI_WRITE_PROTECTED: return "EFI_WRITE_PROTECTED";
    case EFI_OUT_OF_RESOURCES: return "EFI_OUT_OF_RESOURCES";
    case EFI_VOLUME_CORRUPTED: return "EFI_VOLUME_CORRUPTED";
    case EFI_VOLUME_FULL: return "EFI_VOLUME_FULL";
    case EFI_NO_MEDIA: return "EFI_NO_MEDIA";
    case EFI_MEDIA_CHANGED: return "EFI_MEDIA_CHANGED";
    case EFI_NOT_FOUND: return "EFI_NOT_FOUND";
    case EFI_ACCESS_DENIED: return "EFI_ACCESS_DENIED";
    case EFI_NOT_STARTED: return "EFI_NOT_STARTED";
    case EFI_ALREADY_STARTED: return "EFI_ALREADY_STARTED";
    case EFI_ABORTED: return "EFI_ABORTED";
    case EFI_TIMEOUT: return "EFI_TIMEOUT";
    case EFI_SECURITY_VIOLATION: return "EFI_SECURITY_VIOLATION";
    default: return "EFI error";
    }
}

void ascii_to_ucs2(CHAR16 *dst, size_t cap, const char *src)
{
    size_t i = 0;
    if (!cap)
        return;
    for (; i + 1 < cap && src[i]; i++)
        dst[i] = (CHAR16)(unsigned char)src[i];
    dst[i] = 0;
}

void ucs2_to_ascii(char *dst, size_t cap, const CHAR16 *src, size_t max_chars)
{
    size_t i = 0;
    if (!cap)
        return;
    for (; i + 1 < cap && i < max_chars && src[i]; i++)
        dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
    dst[i] = 0;
}
