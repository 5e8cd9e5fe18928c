/* The tables and GUIDs of efilib.h, and the pool behind core/lib/mem.h. */
#include <efilib.h>

#include "core/lib/mem.h"

EFI_SYSTEM_TABLE *ST;
EFI_BOOT_SERVICES *BS;
EFI_RUNTIME_SERVICES *RT;

EFI_GUID LoadedImageProtocol = { 0x5b1b31a1, 0x9562, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
EFI_GUID FileSystemProtocol = { 0x964e5b22, 0x6459, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
EFI_GUID GenericFileInfo = { 0x09576e92, 0x6d3f, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };

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
