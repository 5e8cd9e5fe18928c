#include "efi/platform.h"

#include "core/mem.h"

static void *pool_alloc(size_t size)
{
    void *p = NULL;
    if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePool, 3, EfiLoaderData, size, &p)))
        return NULL;
    return p;
}

static void pool_free(void *p) { uefi_call_wrapper(BS->FreePool, 1, p); }

static const struct mem_ops efi_mem_ops = { pool_alloc, pool_free };

void platform_init_memory(void) { mem_set_ops(&efi_mem_ops); }

void *platform_alloc_pages(size_t pages)
{
    EFI_PHYSICAL_ADDRESS addr = 0;
    if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData, pages,
                                    &addr)))
        return NULL;
    return (void *)(uintptr_t)addr;
}

void platform_free_pages(void *p, size_t pages)
{
    if (p)
        uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p, pages);
}
