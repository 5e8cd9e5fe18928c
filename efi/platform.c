#include "efi/platform.h"

#include "asm/cpu.h"
#include "core/lib/mem.h"
#include "core/lib/sha256.h"

static EFI_GUID rng_guid = EFI_RNG_PROTOCOL_GUID;

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
static bool rdrand64(uint64_t *v)
{
    unsigned i;
    for (i = 0; i < 10; i++) {
        uint8_t ok;
        __asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
        if (ok)
            return true;
    }
    return false;
}

bool platform_random(uint8_t *out, size_t len)
{
    struct sha256_ctx c;
    uint8_t buf[64], digest[SHA256_DIGEST_LEN];
    EFI_RNG_PROTOCOL *rng = NULL;
    uint32_t regs[4];
    bool strong = false;
    unsigned i;
    sha256_init(&c);
    if (!EFI_ERROR(LibLocateProtocol(&rng_guid, (void **)&rng)) && rng &&
        !EFI_ERROR(uefi_call_wrapper(rng->GetRNG, 4, rng, NULL, sizeof(buf), buf))) {
        sha256_update(&c, buf, sizeof(buf));
        strong = true;
    }
    cpuid_raw(1, 0, regs);
    if (regs[2] & (1u << 30)) {
        for (i = 0; i < 8; i++) {
            uint64_t v;
            if (!rdrand64(&v))
                break;
            sha256_update(&c, &v, sizeof(v));
        }
        strong |= i == 8;
    }
    /* the low bits of the TSC around short firmware stalls wander */
    for (i = 0; i < 256; i++) {
        uint64_t t = rdtsc_raw();
        sha256_update(&c, &t, sizeof(t));
        if ((i & 15) == 0)
            uefi_call_wrapper(BS->Stall, 1, 1);
    }
    sha256_final(&c, digest);
    for (i = 0; i < len && i < sizeof(digest); i++)
        out[i] = digest[i];
    mem_zero(buf, sizeof(buf));
    mem_zero(digest, sizeof(digest));
    return strong;
}
