/*
 * What the app runs on: a machine itself, a virtual machine on real CPUs
 * (a hypervisor, timings the hardware's plus its traps), or an emulator
 * (TCG: timings of the host's translated code, no hardware's at all), from
 * the evidence the architecture has. aarch64 has no CPUID hypervisor bit:
 *   - the SMCCC vendor-specific hypervisor service's UID (function
 *     0x8600FF01, SMCCC 1.1 and later, over HVC): KVM answers with its own
 *     (Linux's ARM_SMCCC_VENDOR_HYP_UID_KVM), another hypervisor with another;
 *   - PSCI through HVC while the app runs at EL1: something at EL2 serves it
 *     (firmware on a machine uses SMC, to EL3);
 *   - the firmware's tables naming QEMU (SMBIOS manufacturer "QEMU", ACPI
 *     OEM ID "BOCHS "): QEMU without a hypervisor's UID is TCG.
 * Pure: the app gathers the evidence (efi/arm64/), this decides.
 */
#ifndef TLBSCOPE_CORE_RUN_PLATFORM_KIND_H
#define TLBSCOPE_CORE_RUN_PLATFORM_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum platform_kind { PLATFORM_BARE_METAL, PLATFORM_VIRTUALISED, PLATFORM_EMULATED };

struct platform_evidence {
    unsigned el;                 /* the app's exception level */
    bool psci_hvc;               /* PSCI through HVC */
    bool hyp_uid_asked;          /* SMCCC 1.1 over HVC at EL1: the vendor hypervisor UID was asked */
    bool hyp_uid_answered;       /* ... and a UID came back (not NOT_SUPPORTED) */
    uint32_t hyp_uid[4];         /* w0..w3 as returned */
    const char *sm_manufacturer; /* SMBIOS type 1, "" without */
    const char *acpi_oem_id;     /* 6 characters, "" without */
};

struct platform_verdict {
    enum platform_kind kind;
    const char *hypervisor; /* "KVM", "QEMU", "unnamed", or NULL on a machine */
    char evidence[200];     /* what decided, for the report */
};

void platform_classify(const struct platform_evidence *ev, struct platform_verdict *out);
/* "bare_metal", "virtualised", "emulated" */
const char *platform_kind_name(enum platform_kind kind);

#endif
