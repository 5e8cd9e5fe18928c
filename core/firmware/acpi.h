/*
 * ACPI table parsers: RSDP -> XSDT/RSDT walk, FADT (PM timer), MADT (CPUs
 * and their APIC IDs), SRAT (CPU -> proximity domain), SLIT (distances).
 *
 * Everything here works on byte buffers and is freestanding. Every parser
 * takes (pointer, length), checks the header's signature, Length and
 * checksum against that length before reading anything else, and bounds
 * every entry by the table end: a malformed table yields a message in
 * `msgs` (which may be NULL) and a false return, never a read past the
 * buffer. Tables are located through a caller-supplied map callback, so the
 * same walk runs on UEFI (physical == virtual) and in host tests (fake map).
 *
 * References: ACPI 6.5 specification, section numbers cited at each layout.
 */
#ifndef TLBSCOPE_CORE_ACPI_H
#define TLBSCOPE_CORE_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/firmware/firmware_info.h"
#include "core/lib/msglist.h"

#define ACPI_HEADER_LEN 36                 /* ACPI 6.5, 5.2.6, Table 5.4 */
#define ACPI_MAX_TABLE_LEN (16u << 20)      /* sanity bound on a header's Length */
#define ACPI_ROOT_MAX_ENTRIES 1024          /* XSDT/RSDT entries looked at */

/* Returns a readable view of [phys, phys + len), or NULL when it cannot. */
typedef const void *(*acpi_map_fn)(void *ctx, uint64_t phys, size_t len);

/* ---- the common header ---- */

enum acpi_check {
    ACPI_OK = 0,
    ACPI_TOO_SHORT,      /* fewer than 36 bytes available */
    ACPI_BAD_SIGNATURE,
    ACPI_BAD_LENGTH,     /* Length < 36, > the bytes available, or absurd */
    ACPI_BAD_CHECKSUM,   /* the Length bytes do not sum to 0 mod 256 */
};

/* Validates the header of a table held in `avail` bytes; `signature` (4
 * characters) may be NULL to accept any. */
enum acpi_check acpi_check_header(const void *table, size_t avail, const char *signature);
const char *acpi_check_text(enum acpi_check c);
/* Header Length (call only after acpi_check_header() returned ACPI_OK). */
uint32_t acpi_table_length(const void *table);

/* ---- RSDP -> XSDT/RSDT ---- */

struct acpi_table {
    const uint8_t *data; /* NULL when not found; checksum and length verified */
    uint32_t length;
    uint64_t phys;
};

struct acpi_tables {
    uint8_t rsdp_revision;  /* 0: ACPI 1.0 (RSDT only); 2 or more: XSDT */
    bool xsdt;              /* the XSDT was walked (else the RSDT) */
    char rsdp_oem_id[7];
    char oem_id[7];         /* of the XSDT/RSDT, printable */
    char oem_table_id[9];
    uint32_t root_entries;
    struct acpi_table fadt, madt, srat, slit;
    struct acpi_table dmar, ivrs; /* interrupt remapping: Intel VT-d, AMD IOMMU (issue 21) */
};

/*
 * Validates the RSDP at `rsdp_phys` (ACPI 6.5, 5.2.5.3: checksum of the
 * first 20 bytes, extended checksum of Length bytes for revision >= 2),
 * walks the XSDT (or the RSDT for ACPI 1.0, or when the XSDT is unusable)
 * and records FACP, APIC, SRAT and SLIT. A table with a bad header is
 * reported and left out. Returns false when no root table could be used.
 */
bool acpi_find_tables(uint64_t rsdp_phys, acpi_map_fn map, void *ctx, struct acpi_tables *out,
                      struct msg_list *msgs);

/* ---- FADT (signature "FACP", ACPI 6.5, 5.2.9) ---- */

struct acpi_fadt_info {
    uint8_t revision;
    uint32_t flags;          /* offset 112 */
    bool hw_reduced;         /* flags bit 20 HW_REDUCED_ACPI: no PM timer */
    uint32_t pm_timer_port;  /* I/O port of the PM timer, 0 if none */
    bool pm_timer_32bit;     /* flags bit 8 TMR_VAL_EXT */
    bool pm_timer_from_x;    /* port taken from X_PM_TMR_BLK */
    uint16_t p_lvl2_lat;     /* offset 96: C2 exit latency in us; > 100: no C2 */
    uint16_t p_lvl3_lat;     /* offset 98: C3 exit latency in us; > 1000: no C3 */
};

bool acpi_fadt_parse(const void *fadt, size_t len, struct acpi_fadt_info *out,
                     struct msg_list *msgs);

/* ---- MADT (signature "APIC", ACPI 6.5, 5.2.12) ---- */

#define ACPI_MADT_LOCAL_APIC 0   /* 5.2.12.2 */
#define ACPI_MADT_LOCAL_X2APIC 9 /* 5.2.12.12 */
#define ACPI_MADT_TYPES 32       /* types counted one by one; higher ones in other_types */

struct acpi_madt_cpu {
    uint8_t type;         /* ACPI_MADT_LOCAL_APIC or ACPI_MADT_LOCAL_X2APIC */
    uint32_t apic_id;
    uint32_t uid;         /* ACPI Processor UID */
    bool enabled;         /* flags bit 0 */
    bool online_capable;  /* flags bit 1 (MADT revision 5+, ACPI 6.3); else false */
};

typedef void (*acpi_madt_cpu_fn)(void *ctx, const struct acpi_madt_cpu *cpu);

struct acpi_madt_summary {
    uint8_t revision;
    uint32_t local_apic_address; /* offset 36 */
    uint32_t flags;              /* offset 40, bit 0 PCAT_COMPAT */
    uint32_t entries;
    uint32_t by_type[ACPI_MADT_TYPES];
    uint32_t other_types;
    uint32_t cpus_enabled;        /* enabled type 0 + type 9 entries */
    uint32_t cpus_online_capable; /* disabled now, may be brought online */
    uint32_t cpus_disabled;       /* neither */
    bool has_first_cpu;
    uint32_t first_cpu_apic_id;   /* first enabled CPU entry: the boot processor (5.2.12.2) */
};

/* Walks every entry; calls `fn` (may be NULL) for each type 0 and type 9
 * entry. Returns false (with a message) for a bad header or entry; entries
 * before the bad one have been reported. */
bool acpi_madt_parse(const void *madt, size_t len, struct acpi_madt_summary *out,
                     acpi_madt_cpu_fn fn, void *ctx, struct msg_list *msgs);
/* Collects the APIC IDs of CPU entries (only enabled ones when
 * `enabled_only`) in table order into ids[0..cap); returns how many there
 * are, which may exceed cap. A bad header gives 0; entries before a
 * malformed entry are still collected (and the problem reported). */
uint32_t acpi_madt_apic_ids(const void *madt, size_t len, bool enabled_only, uint32_t *ids,
                            uint32_t cap, struct msg_list *msgs);

/* ---- SRAT (ACPI 6.5, 5.2.16) ---- */

#define ACPI_SRAT_CPU_AFFINITY 0    /* Processor Local APIC/SAPIC Affinity, 5.2.16.1 */
#define ACPI_SRAT_MEMORY_AFFINITY 1 /* 5.2.16.2 */
#define ACPI_SRAT_X2APIC_AFFINITY 2 /* Processor Local x2APIC Affinity, 5.2.16.3 */
#define ACPI_SRAT_GICC_AFFINITY 3   /* GICC Affinity (aarch64), 5.2.16.4 */
#define ACPI_SRAT_TYPES 8

struct acpi_srat_entry {
    uint8_t type;
    bool enabled;          /* flags bit 0 */
    uint32_t domain;       /* proximity domain */
    uint32_t apic_id;      /* types 0 and 2 */
    uint32_t uid;          /* type 3: the ACPI Processor UID (the MADT GICC's) */
    uint64_t base, length; /* type 1 */
    bool hot_pluggable, non_volatile; /* type 1 flags bits 1 and 2 */
};

typedef void (*acpi_srat_fn)(void *ctx, const struct acpi_srat_entry *e);

struct acpi_srat_summary {
    uint8_t revision;
    uint32_t entries;
    uint32_t by_type[ACPI_SRAT_TYPES];
    uint32_t other_types;
    uint32_t cpus_enabled;   /* enabled type 0, 2 and 3 entries */
    uint32_t memory_enabled; /* enabled type 1 entries */
};

/* Calls `fn` (may be NULL) for every type 0, 1, 2 and 3 entry, enabled or not. */
bool acpi_srat_parse(const void *srat, size_t len, struct acpi_srat_summary *out, acpi_srat_fn fn,
                     void *ctx, struct msg_list *msgs);

/* ---- SLIT (ACPI 6.5, 5.2.17) ---- */

struct acpi_slit {
    uint64_t localities;
    const uint8_t *matrix; /* localities x localities, row-major, inside the table */
};

bool acpi_slit_parse(const void *slit, size_t len, struct acpi_slit *out, struct msg_list *msgs);
/* Relative distance from locality `from` to `to` (10 = local); 0 when out of range. */
uint8_t acpi_slit_distance(const struct acpi_slit *s, uint64_t from, uint64_t to);

/* ---- NUMA map: APIC ID -> proximity domain, for building the CPU table ---- */

#define ACPI_NUMA_MAX_CPUS 4096       /* same bound as CPU_MAX */
#define ACPI_NUMA_MAX_LOCALITIES 256  /* SLIT copied only up to this size */

struct acpi_numa_cpu {
    uint32_t apic_id;
    uint32_t domain;
};

struct acpi_numa_map {
    uint32_t count;              /* entries in cpus[] */
    uint32_t capacity;
    uint32_t dropped;            /* enabled SRAT CPU entries that did not fit */
    uint32_t duplicates;         /* APIC IDs listed twice (the first entry wins) */
    struct acpi_numa_cpu *cpus;  /* sorted by apic_id; mem_alloc'd */
    uint32_t domains;            /* distinct proximity domains in cpus[] */
    uint32_t localities;         /* SLIT size, 0 without a usable SLIT */
    uint8_t *distance;           /* localities^2 bytes, row-major; mem_alloc'd */
};

/* Allocates room for `capacity` CPUs (at most ACPI_NUMA_MAX_CPUS). */
bool acpi_numa_map_init(struct acpi_numa_map *m, uint32_t capacity);
void acpi_numa_map_release(struct acpi_numa_map *m);
/* Records every enabled type 0 and type 2 SRAT entry. */
bool acpi_numa_map_add_srat(struct acpi_numa_map *m, const void *srat, size_t len,
                            struct msg_list *msgs);
/* Copies the SLIT (up to ACPI_NUMA_MAX_LOCALITIES localities). */
bool acpi_numa_map_add_slit(struct acpi_numa_map *m, const void *slit, size_t len,
                            struct msg_list *msgs);
/* Proximity domain of an APIC ID; -1 when the SRAT does not list it (or
 * no map, or a domain above INT32_MAX). */
int32_t acpi_numa_node_of(const struct acpi_numa_map *m, uint32_t apic_id);
/* SLIT distance between two proximity domains; 0 when unknown. */
uint32_t acpi_numa_distance(const struct acpi_numa_map *m, uint32_t from, uint32_t to);

/* ---- everything at once, for firmware_info ---- */

/*
 * Fills `info` from the tables found (present, revision, OEM ids, table
 * flags, madt_cpus_enabled, numa_nodes, PM timer) and, when `numa` is not
 * NULL and already initialised, the NUMA map. Problems go to `msgs`.
 */
void acpi_fill_info(const struct acpi_tables *t, struct acpi_info *info, struct acpi_numa_map *numa,
                    struct msg_list *msgs);

#endif
