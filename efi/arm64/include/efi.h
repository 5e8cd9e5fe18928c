/*
 * The UEFI definitions the aarch64 app uses, written from the UEFI 2.10
 * specification (4 "EFI System Table", 7 "Services - Boot Services", 8
 * "Services - Runtime Services", 9.1 "EFI Loaded Image Protocol", 12.4
 * "Simple Text Output Protocol", 13.4 "Simple File System Protocol", 13.5
 * "File Protocol"), with the specification's names, which are also
 * gnu-efi's. That is the point: the aarch64 build finds this file as <efi.h>
 * (its include path has efi/arm64/include where the x86 build has gnu-efi's
 * headers), so the UEFI glue that is not about the ISA (efi/efi_util.h and
 * the files that include it: the volume, the console, the report files, the
 * configuration file) compiles unchanged for both apps.
 *
 * Only the layout matters: every member before the last one called must be
 * present so the offsets are right (a slot never called is a void pointer).
 * This file lets the aarch64 build need no gnu-efi sysroot at all.
 *
 * AArch64 calling convention (UEFI 2.10, 2.3.6): AAPCS64, x18 reserved. The
 * Windows/ARM64 target clang builds us for uses the same register convention
 * and also keeps x18 free, so EFIAPI is empty here and uefi_call_wrapper (on
 * x86 gnu-efi's bridge to the Microsoft ABI) is a plain call.
 */
#ifndef TLBSCOPE_EFI_ARM64_EFI_H
#define TLBSCOPE_EFI_ARM64_EFI_H

#include <stddef.h>
#include <stdint.h>

typedef void VOID;
typedef char CHAR8;
typedef uint8_t UINT8;
typedef uint16_t UINT16;
typedef uint32_t UINT32;
typedef uint64_t UINT64;
typedef int16_t INT16;
typedef uint64_t UINTN;
typedef uint16_t CHAR16;
typedef uint8_t BOOLEAN;
typedef UINTN EFI_STATUS;
typedef UINTN EFI_TPL;
typedef UINT64 EFI_PHYSICAL_ADDRESS;
typedef void *EFI_HANDLE;
typedef void *EFI_EVENT;

#define TRUE 1
#define FALSE 0
/* gnu-efi's x86 bridge to the Microsoft ABI (efi/net_protocols.h): AAPCS64 here, no attribute */
#define MSABI

#define uefi_call_wrapper(func, nargs, ...) (func)(__VA_ARGS__)

/* Appendix D, "Status Codes": errors have the top bit set, warnings do not */
#define EFI_ERROR_BIT (1ull << 63)
#define EFIERR(n) (EFI_ERROR_BIT | (n))
#define EFI_ERROR(s) (((UINT64)(s) & EFI_ERROR_BIT) != 0)
#define EFI_SUCCESS 0
#define EFI_LOAD_ERROR EFIERR(1)
#define EFI_INVALID_PARAMETER EFIERR(2)
#define EFI_UNSUPPORTED EFIERR(3)
#define EFI_BAD_BUFFER_SIZE EFIERR(4)
#define EFI_BUFFER_TOO_SMALL EFIERR(5)
#define EFI_NOT_READY EFIERR(6)
#define EFI_DEVICE_ERROR EFIERR(7)
#define EFI_WRITE_PROTECTED EFIERR(8)
#define EFI_OUT_OF_RESOURCES EFIERR(9)
#define EFI_VOLUME_CORRUPTED EFIERR(10)
#define EFI_VOLUME_FULL EFIERR(11)
#define EFI_NO_MEDIA EFIERR(12)
#define EFI_MEDIA_CHANGED EFIERR(13)
#define EFI_NOT_FOUND EFIERR(14)
#define EFI_ACCESS_DENIED EFIERR(15)
#define EFI_TIMEOUT EFIERR(18)
#define EFI_NOT_STARTED EFIERR(19)
#define EFI_ALREADY_STARTED EFIERR(20)
#define EFI_ABORTED EFIERR(21)
#define EFI_SECURITY_VIOLATION EFIERR(26)
#define EFI_WARN_DELETE_FAILURE 2

#define TPL_CALLBACK 8
#define TPL_HIGH_LEVEL 31

/* 7.1 CreateEvent's types, SetTimer's EFI_TIMER_DELAY */
#define EVT_TIMER 0x80000000u
#define EVT_NOTIFY_SIGNAL 0x00000200u
#define TimerRelative 2

/* 7.3 EFI_LOCATE_SEARCH_TYPE */
#define AllHandles 0
#define ByProtocol 2

/* EFI_ALLOCATE_TYPE and EFI_MEMORY_TYPE (7.2): the values used */
#define AllocateAnyPages 0
#define EfiLoaderData 2

typedef struct {
    UINT32 Data1;
    UINT16 Data2;
    UINT16 Data3;
    UINT8 Data4[8];
} EFI_GUID;

typedef struct {
    UINT64 Signature;
    UINT32 Revision;
    UINT32 HeaderSize;
    UINT32 CRC32;
    UINT32 Reserved;
} EFI_TABLE_HEADER;

typedef struct {
    UINT16 Year;
    UINT8 Month, Day, Hour, Minute, Second, Pad1;
    UINT32 Nanosecond;
    INT16 TimeZone;
    UINT8 Daylight, Pad2;
} EFI_TIME;

typedef void *EFI_UNUSED_SLOT; /* a service never called: only its slot matters */

/* 3.4 and appendix: the network address types (efi/http_client.c) */
typedef struct {
    UINT8 Addr[4];
} EFI_IPv4_ADDRESS;
typedef struct {
    UINT8 Addr[32];
} EFI_MAC_ADDRESS;

/* 24.1 EFI_SIMPLE_NETWORK_PROTOCOL_GUID: only its GUID (the NICs the HTTP stack binds to) */
#define EFI_SIMPLE_NETWORK_PROTOCOL_GUID                                                           \
    { 0xa19832b9, 0xac25, 0x11d3, { 0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } }

/* 12.4 */
typedef struct _SIMPLE_TEXT_OUTPUT_INTERFACE SIMPLE_TEXT_OUTPUT_INTERFACE;
struct _SIMPLE_TEXT_OUTPUT_INTERFACE {
    EFI_STATUS (*Reset)(SIMPLE_TEXT_OUTPUT_INTERFACE *self, BOOLEAN extended);
    EFI_STATUS (*OutputString)(SIMPLE_TEXT_OUTPUT_INTERFACE *self, CHAR16 *s);
};

/* 7 */
typedef struct {
    EFI_TABLE_HEADER Hdr;
    EFI_TPL (*RaiseTPL)(EFI_TPL new_tpl);
    void (*RestoreTPL)(EFI_TPL old_tpl);
    EFI_STATUS (*AllocatePages)(UINT32 type, UINT32 mem_type, UINTN pages, EFI_PHYSICAL_ADDRESS *addr);
    EFI_STATUS (*FreePages)(EFI_PHYSICAL_ADDRESS addr, UINTN pages);
    EFI_UNUSED_SLOT GetMemoryMap;
    EFI_STATUS (*AllocatePool)(UINT32 mem_type, UINTN size, void **buf);
    EFI_STATUS (*FreePool)(void *buf);
    EFI_STATUS (*CreateEvent)(UINT32 type, EFI_TPL tpl, void (*notify)(EFI_EVENT ev, void *ctx), void *ctx,
                              EFI_EVENT *ev);
    EFI_STATUS (*SetTimer)(EFI_EVENT ev, UINT32 type, UINT64 trigger_100ns);
    EFI_UNUSED_SLOT WaitForEvent, SignalEvent;
    EFI_STATUS (*CloseEvent)(EFI_EVENT ev);
    EFI_STATUS (*CheckEvent)(EFI_EVENT ev);
    EFI_UNUSED_SLOT InstallProtocolInterface, ReinstallProtocolInterface, UninstallProtocolInterface;
    EFI_STATUS (*HandleProtocol)(EFI_HANDLE h, EFI_GUID *protocol, void **iface);
    EFI_UNUSED_SLOT Reserved, RegisterProtocolNotify, LocateHandle;
    EFI_STATUS (*LocateDevicePath)(EFI_GUID *protocol, void *path, EFI_HANDLE *device);
    EFI_UNUSED_SLOT InstallConfigurationTable;
    EFI_UNUSED_SLOT LoadImage, StartImage, Exit, UnloadImage, ExitBootServices;
    EFI_UNUSED_SLOT GetNextMonotonicCount;
    EFI_STATUS (*Stall)(UINTN microseconds);
    EFI_STATUS (*SetWatchdogTimer)(UINTN timeout, UINT64 code, UINTN size, CHAR16 *data);
    EFI_STATUS (*ConnectController)(EFI_HANDLE controller, EFI_HANDLE *drivers, void *remaining_path,
                                    BOOLEAN recursive);
    EFI_UNUSED_SLOT DisconnectController;
    EFI_UNUSED_SLOT OpenProtocol, CloseProtocol, OpenProtocolInformation;
    EFI_UNUSED_SLOT ProtocolsPerHandle;
    EFI_STATUS (*LocateHandleBuffer)(UINT32 search, EFI_GUID *protocol, void *key, UINTN *count,
                                     EFI_HANDLE **buffer);
} EFI_BOOT_SERVICES;

/* 4.5, the services of 8 in the table's order, up to GetVariable (8.2.1): the
 * SecureBoot and SetupMode variables (efi/secure_boot.c) */
typedef struct {
    EFI_TABLE_HEADER Hdr;
    EFI_STATUS (*GetTime)(EFI_TIME *time, void *capabilities);
    EFI_UNUSED_SLOT SetTime, GetWakeupTime, SetWakeupTime;
    EFI_UNUSED_SLOT SetVirtualAddressMap, ConvertPointer;
    EFI_STATUS (*GetVariable)(CHAR16 *name, EFI_GUID *vendor, UINT32 *attrs, UINTN *size, void *data);
} EFI_RUNTIME_SERVICES;

typedef struct {
    EFI_GUID VendorGuid;
    void *VendorTable;
} EFI_CONFIGURATION_TABLE;

/* 4.3 */
typedef struct {
    EFI_TABLE_HEADER Hdr;
    CHAR16 *FirmwareVendor;
    UINT32 FirmwareRevision;
    EFI_HANDLE ConsoleInHandle;
    void *ConIn;
    EFI_HANDLE ConsoleOutHandle;
    SIMPLE_TEXT_OUTPUT_INTERFACE *ConOut;
    EFI_HANDLE StandardErrorHandle;
    SIMPLE_TEXT_OUTPUT_INTERFACE *StdErr;
    EFI_RUNTIME_SERVICES *RuntimeServices;
    EFI_BOOT_SERVICES *BootServices;
    UINTN NumberOfTableEntries;
    EFI_CONFIGURATION_TABLE *ConfigurationTable;
} EFI_SYSTEM_TABLE;

/* 9.1, up to LoadOptions: the volume the image came from, and the load
 * options (the UEFI shell's command line as UCS-2) */
typedef struct {
    UINT32 Revision;
    EFI_HANDLE ParentHandle;
    EFI_SYSTEM_TABLE *SystemTable;
    EFI_HANDLE DeviceHandle;
    void *FilePath;
    void *Reserved;
    UINT32 LoadOptionsSize;
    void *LoadOptions;
} EFI_LOADED_IMAGE;

/* 13.5 */
#define EFI_FILE_MODE_READ 0x1ull
#define EFI_FILE_MODE_WRITE 0x2ull
#define EFI_FILE_MODE_CREATE 0x8000000000000000ull
#define EFI_FILE_DIRECTORY 0x10ull

typedef struct _EFI_FILE_HANDLE *EFI_FILE_HANDLE;
struct _EFI_FILE_HANDLE {
    UINT64 Revision;
    EFI_STATUS (*Open)(EFI_FILE_HANDLE self, EFI_FILE_HANDLE *out, CHAR16 *name, UINT64 mode, UINT64 attrs);
    EFI_STATUS (*Close)(EFI_FILE_HANDLE self);
    EFI_STATUS (*Delete)(EFI_FILE_HANDLE self);
    EFI_STATUS (*Read)(EFI_FILE_HANDLE self, UINTN *size, void *buf);
    EFI_STATUS (*Write)(EFI_FILE_HANDLE self, UINTN *size, void *buf);
    EFI_STATUS (*GetPosition)(EFI_FILE_HANDLE self, UINT64 *pos);
    EFI_STATUS (*SetPosition)(EFI_FILE_HANDLE self, UINT64 pos);
    EFI_STATUS (*GetInfo)(EFI_FILE_HANDLE self, EFI_GUID *type, UINTN *size, void *buf);
    EFI_STATUS (*SetInfo)(EFI_FILE_HANDLE self, EFI_GUID *type, UINTN size, void *buf);
    EFI_STATUS (*Flush)(EFI_FILE_HANDLE self);
};

/* 13.5.16 EFI_FILE_INFO */
typedef struct {
    UINT64 Size;
    UINT64 FileSize;
    UINT64 PhysicalSize;
    EFI_TIME CreateTime;
    EFI_TIME LastAccessTime;
    EFI_TIME ModificationTime;
    UINT64 Attribute;
    CHAR16 FileName[1];
} EFI_FILE_INFO;
#define SIZE_OF_EFI_FILE_INFO offsetof(EFI_FILE_INFO, FileName)

/* 13.4 */
typedef struct _EFI_FILE_IO_INTERFACE EFI_FILE_IO_INTERFACE;
struct _EFI_FILE_IO_INTERFACE {
    UINT64 Revision;
    EFI_STATUS (*OpenVolume)(EFI_FILE_IO_INTERFACE *self, EFI_FILE_HANDLE *root);
};

#include "efi/arm64/include/efi_net.h"

#endif
