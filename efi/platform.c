#include "efi/platform.h"

#include "asm/cpu.h"
#include "core/lib/mem.h"
#include "efi/random.h"

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

void *platform_alloc_pages_below(size_t pages, uint64_t limit)
{
    EFI_PHYSICAL_ADDRESS addr = limit - 1;
    if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, EfiLoaderData, pages,
                                    &addr)))
        return NULL;
    return (void *)(uintptr_t)addr;
}

bool platform_alloc_pages_at(uint64_t phys, size_t pages)
{
    EFI_PHYSICAL_ADDRESS addr = phys;
    return !EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAddress, EfiLoaderData,
                                        pages, &addr)) &&
           addr == phys;
}

void platform_free_pages(void *p, size_t pages)
{
    if (p)
        uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p, pages);
}

/* RDRAND (CPUID.01H:ECX[30]); a few retries, as Intel recommends for an empty queue. */
/* efi/random.h for x86: RDRAND where CPUID.1:ECX[30] says so, retried as Intel advises */
bool arch_random64(uint64_t *v)
{
    uint32_t regs[4];
    unsigned i;
    cpuid_raw(1, 0, regs);
    if (!(regs[2] & (1u << 30)))
        return false;
    for (i = 0; i < 10; i++) {
        uint8_t ok;
        __asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
        if (ok)
            return true;
    }
    return false;
}

uint64_t arch_cycles(void)
{
    return rdtsc_raw();
}
