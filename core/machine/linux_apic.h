/*
 * Which IPI mode Linux (x86-64, 6.x) would run this machine in (issue 21),
 * from what it reads at boot, so a report says whether the tool's physical
 * or cluster-mode points are the ones Linux pays:
 *
 *   x2APIC on, when the CPU has it (CPUID.1:ECX[21]) and interrupt
 *   remapping can run in x2APIC mode (enable_IR_x2apic(): an Intel DMAR
 *   with INTR_REMAP and without X2APIC_OPT_OUT, or an AMD IVRS); without
 *   remapping Linux turns x2APIC off (try_to_enable_x2apic(), even when the
 *   firmware handed over in x2APIC with APIC IDs below 255), except in a
 *   guest whose hypervisor it knows to offer x2APIC (KVM): x2APIC physical.
 *   x2APIC: x2apic_phys when the FADT (revision >= 2) sets
 *   FORCE_APIC_PHYSICAL_DESTINATION_MODE (flags bit 19, x2apic_fadt_phys()),
 *   else x2apic_cluster (x2apic_cluster.c): one logical write per cluster.
 *   xAPIC: physflat (apic_flat_64.c; in recent kernels the only 64-bit xAPIC
 *   mode: the logical "flat" mode older kernels used up to 8 CPUs is gone).
 *
 * Pure: tests/host/test_linux_apic.c.
 */
#ifndef TLBSCOPE_CORE_LINUX_APIC_H
#define TLBSCOPE_CORE_LINUX_APIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FADT_APIC_PHYSICAL (1u << 19) /* ACPI 6.5, 5.2.9 Table 5.10 */
#define DMAR_INTR_REMAP (1u << 0)     /* Intel VT-d, 8.1 */
#define DMAR_X2APIC_OPT_OUT (1u << 1)

struct linux_apic_inputs {
    bool cpu_x2apic;        /* CPUID.1:ECX[21] */
    bool firmware_x2apic;   /* IA32_APIC_BASE.EXTD at entry */
    bool hypervisor_kvm;    /* a hypervisor whose x2APIC Linux trusts without remapping */
    bool has_fadt;
    uint8_t fadt_revision;
    uint32_t fadt_flags;
    bool has_dmar, has_ivrs;
    uint8_t dmar_flags;
    uint32_t cpus;          /* possible CPUs (the firmware's count) */
};

/* "x2apic_cluster", "x2apic_phys" or "physflat"; why into reason. */
const char *linux_apic_mode(const struct linux_apic_inputs *in, char *reason, size_t cap);

#endif
