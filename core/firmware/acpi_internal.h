/* Shared by the core/firmware/acpi*.c files only: messages and the entry walker. */
#ifndef TLBSCOPE_CORE_ACPI_INTERNAL_H
#define TLBSCOPE_CORE_ACPI_INTERNAL_H

#include "core/firmware/acpi.h"

/* msg_add() that accepts a NULL list; `where` is always "acpi". */
void acpi_msg(struct msg_list *msgs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Called for each entry; `entry` has `length` readable bytes (>= 2). */
typedef void (*acpi_entry_fn)(void *ctx, const uint8_t *entry, uint8_t type, uint8_t length,
                              uint32_t offset);

/*
 * Walks the type/length entries that follow a table's fixed part (MADT
 * 5.2.12, SRAT 5.2.16): each starts with a type byte and a length byte that
 * includes both. Stops with a message at an entry shorter than 2 bytes
 * (which would never advance) or one running past the table end.
 * `table` must have passed acpi_check_header() for `length` bytes.
 */
bool acpi_walk_entries(const uint8_t *table, uint32_t length, uint32_t first, const char *name,
                       acpi_entry_fn fn, void *ctx, struct msg_list *msgs);

/* acpi_check_header() plus a message naming the table when it fails. */
bool acpi_header_ok(const void *table, size_t len, const char *signature, uint32_t min_length,
                    struct msg_list *msgs);

#endif
