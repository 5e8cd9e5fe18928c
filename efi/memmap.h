/*
 * The tool's page tables: an identity map of everything the UEFI memory map
 * describes (large pages where a whole 2 MiB / 1 GiB block has one cache
 * class), the local APIC page, and the test region (core/machine/testmem.h).
 */
#ifndef TLBSCOPE_EFI_MEMMAP_H
#define TLBSCOPE_EFI_MEMMAP_H

#include "asm/paging.h"
#include "core/run/run.h"
#include "core/machine/testmem.h"

struct tool_tables {
    struct pt_ctx pt;
    struct testmem mem;
    uint32_t ranges;        /* merged memory-map ranges mapped */
    uint64_t mapped_bytes;
};

/* Builds everything at firmware TPL (it allocates). False: see run->errors. */
bool memmap_build_tables(struct run *r, struct tool_tables *t, uint64_t xapic_base);

#endif
