/*
 * SMBIOS: entry points (2.x "_SM_"/"_DMI_" and 3.x "_SM3_"), the structure
 * table walk, and decoding of types 0, 1, 2 and 4 into struct smbios_info.
 *
 * Freestanding and bounded: every function takes (pointer, length); the
 * walk checks each structure's formatted length and the double-NUL end of
 * its string set against the table length, and stops after the entry
 * point's structure count (2.x) or at type 127. Malformed data yields a
 * message in `msgs` (which may be NULL), never a read past the buffer.
 *
 * Reference: DMTF DSP0134 (SMBIOS Reference Specification) 3.x; section
 * numbers are cited at each layout.
 */
#ifndef TLBSCOPE_CORE_SMBIOS_H
#define TLBSCOPE_CORE_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/firmware/firmware_info.h"
#include "core/lib/msglist.h"

#define SMBIOS2_EP_LEN 0x1f       /* 5.2.1 Table 1 */
#define SMBIOS3_EP_LEN 0x18       /* 5.2.2 Table 2 */
#define SMBIOS_MAX_TABLE_LEN (4u << 20) /* sanity bound on a 3.x "maximum size" */
#define SMBIOS_MAX_STRUCTURES 65535

/* Returns a readable view of [phys, phys + len), or NULL (same shape as acpi_map_fn). */
typedef const void *(*smbios_map_fn)(void *ctx, uint64_t phys, size_t len);

struct smbios_entry {
    bool is_64;              /* "_SM3_" */
    uint8_t major, minor, docrev;
    uint64_t table_phys;
    uint32_t table_len;      /* 2.x: exact length; 3.x: maximum size */
    uint32_t max_structures; /* 2.x: Number of SMBIOS Structures; 3.x: 0 (not given) */
};

/* Validates an entry point held in `avail` bytes (anchor, length, checksums). */
bool smbios_parse_entry_point(const void *ep, size_t avail, struct smbios_entry *out,
                              struct msg_list *msgs);

/* One structure (6.1.2): a formatted area of `length` bytes, then its strings. */
struct smbios_struct {
    uint8_t type;
    uint8_t length;          /* of the formatted area, >= 4 */
    uint16_t handle;
    const uint8_t *data;     /* the formatted area, header included */
    const char *strings;     /* the string set, ending in a double NUL inside the table */
    uint32_t strings_len;    /* including both terminating NULs */
    uint32_t offset;         /* within the table, for messages */
};

/* Return false to stop the walk early. */
typedef bool (*smbios_struct_fn)(void *ctx, const struct smbios_struct *s);

/*
 * Calls `fn` for each structure, up to `max_structures` (0: no limit but
 * the length) or the end-of-table structure (type 127, which is passed to
 * `fn` too). Returns false with a message when a structure is malformed;
 * the ones before it have been passed.
 */
bool smbios_walk(const void *table, size_t len, uint32_t max_structures, smbios_struct_fn fn,
                 void *ctx, struct msg_list *msgs);

/* Number of strings in the set. */
uint32_t smbios_string_count(const struct smbios_struct *s);
/* String `index` (1-based) of the set; NULL for 0 ("none") or beyond the set. */
const char *smbios_string(const struct smbios_struct *s, uint8_t index);

/* Decodes types 0, 1, 2 and 4 of a structure table into `out` (first of each type wins; every
 * type 4 is a socket). Sets out->present. Returns false when the walk hit malformed data. */
bool smbios_decode_table(const void *table, size_t len, const struct smbios_entry *ep,
                         struct smbios_info *out, struct msg_list *msgs);

/* The entry point at `ep_phys`, parsed into *ep_out, and its structure table mapped through
 * `map`; NULL (with the reason in msgs) when either cannot be read or is malformed. */
const void *smbios_map_table(uint64_t ep_phys, smbios_map_fn map, void *ctx,
                             struct smbios_entry *ep_out, struct msg_list *msgs);

/* Entry point at `ep_phys` -> table -> `out`, through `map` (core/firmware/smbios_decode.c). */
bool smbios_read(uint64_t ep_phys, smbios_map_fn map, void *ctx, struct smbios_info *out,
                 struct msg_list *msgs);

#endif
