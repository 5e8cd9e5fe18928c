/*
 * The part of gnu-efi's library the shared UEFI glue uses, for the aarch64
 * build (see efi.h beside this file): the tables InitializeLib() keeps, and
 * the protocol GUIDs under gnu-efi's names. efi/arm64/efi_lib.c defines them.
 */
#ifndef TLBSCOPE_EFI_ARM64_EFILIB_H
#define TLBSCOPE_EFI_ARM64_EFILIB_H

#include <efi.h>

extern EFI_SYSTEM_TABLE *ST;
extern EFI_BOOT_SERVICES *BS;
extern EFI_RUNTIME_SERVICES *RT;
/* 9.1 EFI_LOADED_IMAGE_PROTOCOL_GUID, 13.4 EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID, 13.5.16 EFI_FILE_INFO_ID */
extern EFI_GUID LoadedImageProtocol, FileSystemProtocol, GenericFileInfo;
/* 10.2 EFI_DEVICE_PATH_PROTOCOL_GUID, E.4 EFI_PXE_BASE_CODE_PROTOCOL_GUID */
extern EFI_GUID DevicePathProtocol, PxeBaseCodeProtocol;
/* 3.3 EFI_GLOBAL_VARIABLE: the vendor GUID of SecureBoot, SetupMode and the others */
extern EFI_GUID EfiGlobalVariable;

/* Keeps the tables, and gives core/lib/mem.h the boot services' pool. */
void InitializeLib(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#endif
