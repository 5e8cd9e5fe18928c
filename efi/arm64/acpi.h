/*
 * What the aarch64 app reads from the firmware's tables (ACPI 6.5, SMBIOS
 * 3.x): the MADT's GIC structures (GICC, GICD, GICR), the FADT's
 * ARM_BOOT_ARCH flags ("Arm Architecture Boot Flags"), the SPCR's UART base
 * (Microsoft "Serial Port Console Redirection Table"), the OEM ID, and the
 * SMBIOS system manufacturer and product (type 1), which name an emulator
 * where aarch64 has no CPUID hypervisor bit.
 */
#ifndef TLBSCOPE_EFI_ARM64_ACPI_H
#define TLBSCOPE_EFI_ARM64_ACPI_H

#include <stdbool.h>
#include <stdint.h>

#include "efi/efi_util.h"

#include "asm/gic_redist.h"
#include "asm/percpu.h"

#define ACPI_MAX_CPUS MAX_CPUS /* GICC entries kept; more are counted in ncpus_dropped */

/* FADT ARM_BOOT_ARCH (ACPI 6.5, "Arm Architecture Boot Flags") */
#define ARM_BOOT_PSCI_COMPLIANT (1u << 0)
#define ARM_BOOT_PSCI_USE_HVC (1u << 1)

struct acpi_gicc {
    uint32_t uid;
    uint32_t flags;
    uint64_t mpidr;
    uint64_t gicr_base; /* 0 when the MADT describes redistributors with GICR entries */
    uint64_t gicc_base; /* "Physical Base Address": the GICv2 CPU interface */
};

struct fw_tables {
    bool have_rsdp, have_madt, have_fadt;
    char oem_id[7];
    unsigned ncpus, ncpus_dropped; /* GICC entries kept, and those beyond ACPI_MAX_CPUS */
    struct acpi_gicc cpu[ACPI_MAX_CPUS];
    uint64_t gicd_base;
    unsigned gic_version;
    unsigned ngicr, ngicr_dropped; /* GICR discovery ranges kept (one per socket or die), and beyond */
    struct gic_redist_range gicr[GIC_MAX_REDIST_RANGES];
    uint16_t arm_boot_flags;
    uint64_t uart_base; /* SPCR, 0 if absent */
    const uint8_t *pptt; /* the PPTT as the XSDT lists it, NULL if absent (core/firmware/acpi_pptt.c reads it) */
    const uint8_t *srat; /* the SRAT, NULL if absent (core/run/topo_run_arm64.c: the CPUs' NUMA nodes) */
    bool have_smbios;
    char sm_manufacturer[64], sm_product[64]; /* "" when absent */
};

void fw_tables_read(EFI_SYSTEM_TABLE *st, struct fw_tables *out);

#endif
