/*
 * Reading firmware tables byte by byte: little-endian fields at any
 * alignment, the 8-bit checksum ACPI and SMBIOS share, and copying
 * fixed-width identifier fields into printable C strings.
 *
 * Callers check the bounds before reading; these helpers never do.
 */
#ifndef TLBSCOPE_CORE_BYTES_H
#define TLBSCOPE_CORE_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t le16_at(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

static inline uint32_t le32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t le64_at(const uint8_t *p)
{
    return (uint64_t)le32_at(p) | ((uint64_t)le32_at(p + 4) << 32);
}

/* Sum of `len` bytes modulo 256: 0 for a valid ACPI or SMBIOS checksum. */
uint8_t byte_sum8(const void *data, size_t len);

/*
 * Copies a fixed-width text field (an ACPI OEM ID, a DMI string) into `dst`
 * as printable ASCII: NULs and other control or non-ASCII bytes become a
 * space, then leading and trailing spaces are dropped. `dst` always ends
 * up terminated; `cap` includes the terminator.
 */
void copy_printable(char *dst, size_t cap, const uint8_t *src, size_t n);

#endif
