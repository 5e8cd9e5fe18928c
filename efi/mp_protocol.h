/*
 * EFI_MP_SERVICES_PROTOCOL (UEFI PI specification, volume 2, "MP Services
 * Protocol"), declared here because gnu-efi 3.0.15 lacks it. Our own type
 * names keep it from clashing with gnu-efi 4, which declares it too.
 *
 * ABI: Debian's libefi is built without GNU_EFI_USE_MS_ABI, so EFIAPI does
 * not imply the Microsoft calling convention. Every member below and every
 * procedure the firmware calls back (the AP procedure) must carry ms_abi
 * explicitly, or arguments land in the wrong registers
 * (../shared/reference/platform-notes.md: GetNumberOfProcessors returned
 * swapped counts, StartupAllAPs hung).
 */
#ifndef TLBSCOPE_EFI_MP_PROTOCOL_H
#define TLBSCOPE_EFI_MP_PROTOCOL_H

#include "efi/efi_util.h" /* MSABI */

#define TLBSCOPE_MP_SERVICES_GUID                                                                  \
    { 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

#define MP_PROCESSOR_AS_BSP 0x00000001u
#define MP_PROCESSOR_ENABLED 0x00000002u
#define MP_PROCESSOR_HEALTHY 0x00000004u

struct mp_cpu_location {
    UINT32 Package;
    UINT32 Core;
    UINT32 Thread;
};

/* PI 1.7 extended location, filled only on request; reserved here so a
 * firmware that writes it anyway does not overrun our buffer. */
struct mp_cpu_location2 {
    UINT32 Package, Module, Tile, Die, Core, Thread;
};

struct mp_processor_info {
    UINT64 ProcessorId; /* the APIC ID */
    UINT32 StatusFlag;
    struct mp_cpu_location Location;
    struct mp_cpu_location2 ExtendedInformation;
};

typedef VOID(MSABI *mp_ap_procedure)(VOID *argument);

struct mp_services;
struct mp_services {
    EFI_STATUS(MSABI *GetNumberOfProcessors)(struct mp_services *self, UINTN *count,
                                             UINTN *enabled);
    EFI_STATUS(MSABI *GetProcessorInfo)(struct mp_services *self, UINTN number,
                                        struct mp_processor_info *info);
    EFI_STATUS(MSABI *StartupAllAPs)(struct mp_services *self, mp_ap_procedure procedure,
                                     BOOLEAN single_thread, EFI_EVENT wait_event,
                                     UINTN timeout_us, VOID *argument, UINTN **failed_cpus);
    EFI_STATUS(MSABI *StartupThisAP)(struct mp_services *self, mp_ap_procedure procedure,
                                     UINTN number, EFI_EVENT wait_event, UINTN timeout_us,
                                     VOID *argument, BOOLEAN *finished);
    EFI_STATUS(MSABI *SwitchBSP)(struct mp_services *self, UINTN number, BOOLEAN enable_old);
    EFI_STATUS(MSABI *EnableDisableAP)(struct mp_services *self, UINTN number, BOOLEAN enable,
                                       UINT32 *health);
    EFI_STATUS(MSABI *WhoAmI)(struct mp_services *self, UINTN *number);
};

#endif
