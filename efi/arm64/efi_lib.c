/* The tables and GUIDs of efilib.h, and the pool behind core/lib/mem.h. */
#include <efilib.h>

#include "asm/sysreg.h"
#include "asm/timer.h"
#include "core/lib/mem.h"
#include "efi/clock.h"
#include "efi/random.h"

EFI_SYSTEM_TABLE *ST;
EFI_BOOT_SERVICES *BS;
EFI_RUNTIME_SERVICES *RT;

EFI_GUID LoadedImageProtocol = { 0x5b1b31a1, 0x9562, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
EFI_GUID FileSystemProtocol = { 0x964e5b22, 0x6459, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
EFI_GUID DevicePathProtocol = { 0x09576e91, 0x6d3f, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
EFI_GUID PxeBaseCodeProtocol = { 0x03c4e603, 0xac28, 0x11d3, { 0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };
EFI_GUID GenericFileInfo = { 0x09576e92, 0x6d3f, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
EFI_GUID EfiGlobalVariable = { 0x8be4df61, 0x93ca, 0x11d2, { 0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c } };

static void *pool_alloc(size_t n)
{
    void *p = 0;
    return EFI_ERROR(BS->AllocatePool(EfiLoaderData, n, &p)) ? 0 : p;
}

static void pool_free(void *p)
{
    BS->FreePool(p);
}

static const struct mem_ops efi_pool = { pool_alloc, pool_free };

void InitializeLib(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    (void)image;
    ST = systab;
    BS = systab->BootServices;
    RT = systab->RuntimeServices;
    mem_set_ops(&efi_pool);
}

/* efi/clock.h: the generic timer's virtual counter (CNTVCT_EL0), at CNTFRQ_EL0 */
uint64_t clock_ms(void)
{
    return ticks_to_ms(ticks());
}

/*
 * efi/random.h: RNDR (FEAT_RNG, ID_AA64ISAR0_EL1.RNDR bits [63:60] = 1), read as
 * S3_3_C2_C4_0; NZCV says whether it gave a number (Z set: none this time), so
 * a few tries, as for x86's RDRAND.
 */
bool arch_random64(uint64_t *v)
{
    unsigned i;
    if (((read_sysreg(ID_AA64ISAR0_EL1) >> 60) & 0xf) == 0)
        return false;
    for (i = 0; i < 10; i++) {
        uint64_t ok;
        __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %1, ne" : "=r"(*v), "=r"(ok) : : "cc");
        if (ok)
            return true;
    }
    return false;
}

uint64_t arch_cycles(void)
{
    return ticks();
}
