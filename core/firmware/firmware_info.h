/*
 * Facts about the machine's firmware, filled by efi/ (and, in host tests,
 * by fixtures). Plain data, no UEFI types: core/ writes it into the report.
 */
#ifndef TLBSCOPE_CORE_FIRMWARE_INFO_H
#define TLBSCOPE_CORE_FIRMWARE_INFO_H

#include <stdbool.h>
#include <stdint.h>

#define FW_STR 64
#define FW_MAX_SOCKETS 8

enum secure_boot_state { SB_UNKNOWN = 0, SB_DISABLED, SB_ENABLED, SB_SETUP_MODE };

struct smbios_processor {
    char socket[FW_STR];
    char version[FW_STR];
    char manufacturer[FW_STR];
    uint32_t max_speed_mhz;
    uint32_t core_count;
    uint32_t thread_count;
    uint8_t id[8]; /* CPUID leaf 1 EAX then EDX, little-endian */
    bool populated; /* Status bit 6: a processor sits in the socket */
};

struct smbios_info {
    bool present;
    uint8_t major, minor;
    bool entry_point_64; /* SMBIOS3 entry point found */
    char bios_vendor[FW_STR], bios_version[FW_STR], bios_date[FW_STR];
    char sys_manufacturer[FW_STR], sys_product[FW_STR], sys_version[FW_STR], sys_serial[FW_STR];
    bool has_uuid;
    uint8_t uuid[16];
    char board_manufacturer[FW_STR], board_product[FW_STR], board_version[FW_STR];
    uint32_t socket_count; /* type 4 structures seen; the first FW_MAX_SOCKETS are kept */
    struct smbios_processor sockets[FW_MAX_SOCKETS];
    uint32_t structures;   /* structures walked, End-of-Table included */
};

struct acpi_info {
    bool present;
    uint8_t revision; /* RSDP revision */
    char oem_id[7];
    char oem_table_id[9]; /* of the XSDT/RSDT */
    bool has_madt, has_srat, has_slit;
    uint32_t madt_cpus_enabled; /* enabled LAPIC + x2APIC entries */
    const uint8_t *madt;        /* the table itself (firmware memory), for the own bring-up */
    uint32_t madt_length;
    uint32_t numa_nodes;        /* distinct proximity domains with enabled CPUs */
    uint32_t pm_timer_port;     /* FADT PM timer I/O port, 0 if none */
    bool pm_timer_32bit;
    uint16_t p_lvl2_lat;        /* FADT C2 latency (us; > 100: no C2), 0 without a FADT */
    uint16_t p_lvl3_lat;        /* FADT C3 latency (us; > 1000: no C3) */
    /* what decides Linux's IPI mode (core/machine/linux_apic.h, issue 21) */
    bool has_fadt;
    uint8_t fadt_revision;
    uint32_t fadt_flags;
    bool has_dmar, has_ivrs;
    uint8_t dmar_flags;         /* DMAR offset 37: bit 0 INTR_REMAP, bit 1 X2APIC_OPT_OUT */
};

struct acpi_numa_map; /* core/firmware/acpi.h */

struct rtc_time {
    uint16_t year;
    uint8_t month, day, hour, minute, second;
    bool valid;
};

struct firmware_info {
    char vendor[FW_STR];
    uint32_t revision;
    uint32_t uefi_revision; /* (major << 16) | minor */
    enum secure_boot_state secure_boot;
    struct rtc_time start_time;
    bool rtc_plausible;
    struct smbios_info smbios;
    struct acpi_info acpi;
    /* APIC ID -> NUMA node (SRAT) and node distances (SLIT); NULL when the
     * firmware has no usable SRAT. Look up with acpi_numa_node_of(). */
    struct acpi_numa_map *numa;
};

const char *secure_boot_name(enum secure_boot_state s);
/* A clock reading before 2024 or after 2099 is taken as an unset RTC. */
bool rtc_looks_plausible(const struct rtc_time *t);

#endif
