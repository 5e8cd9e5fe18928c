/* The app's pages from the firmware, remembered and given back: see pages.h. */
#include "efi/arm64/pages.h"

#include <efi.h>
#include <efilib.h>

#include "core/lib/mem.h"

/* more than pt_build ever asks for (a handful, and two tables for each MMIO range it maps
 * itself): a further request is refused, never leaked */
#define MAX_ALLOCS 48

static struct {
    uint64_t addr, pages;
} allocs[MAX_ALLOCS];
static unsigned nallocs;

uint64_t pages_alloc(uint64_t n)
{
    EFI_PHYSICAL_ADDRESS a = 0;
    if (nallocs == MAX_ALLOCS)
        return 0;
    if (EFI_ERROR(BS->AllocatePages(AllocateAnyPages, EfiLoaderData, n, &a)))
        return 0;
    mem_zero((void *)a, n * 4096);
    allocs[nallocs].addr = a;
    allocs[nallocs++].pages = n;
    return a;
}

void pages_give_back(bool keep, uint32_t *freed, uint32_t *kept)
{
    unsigned i;
    *freed = *kept = 0;
    for (i = 0; i < nallocs; i++) {
        if (keep || EFI_ERROR(BS->FreePages(allocs[i].addr, allocs[i].pages)))
            *kept += (uint32_t)allocs[i].pages;
        else
            *freed += (uint32_t)allocs[i].pages;
    }
    nallocs = 0;
}
