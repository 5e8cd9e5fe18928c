/* UEFI implementations of the services core/ needs (memory, time, console). */
#ifndef TLBSCOPE_EFI_PLATFORM_H
#define TLBSCOPE_EFI_PLATFORM_H

#include "efi/efi_util.h"

void platform_init_memory(void);
/* Pages below 4 GiB are not required; returns NULL on failure. */
void *platform_alloc_pages(size_t pages);
void platform_free_pages(void *p, size_t pages);
/* Pages that end below `limit` (AllocateMaxAddress); NULL when there are none. */
void *platform_alloc_pages_below(size_t pages, uint64_t limit);
/* Exactly the pages at `phys` (AllocateAddress): false when the firmware uses them. */
bool platform_alloc_pages_at(uint64_t phys, size_t pages);


#endif
