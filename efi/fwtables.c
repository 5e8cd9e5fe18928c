#include "efi/fwtables.h"
#include "efi/efi_util.h"

#include "core/mem.h"

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

/* RSDP: "RSD PTR " signature, OEM id at offset 9, revision at offset 15 (ACPI 6.5, 5.2.5.3). */
static void collect_acpi(struct acpi_info *a)
{
    void *rsdp = NULL;
    const uint8_t *p;
    if (EFI_ERROR(LibGetSystemConfigurationTable(&acpi20_guid, &rsdp)) &&
        EFI_ERROR(LibGetSystemConfigurationTable(&acpi10_guid, &rsdp)))
        return;
    p = rsdp;
    if (!p || mem_cmp(p, "RSD PTR ", 8) != 0)
        return;
    a->present = true;
    a->revision = p[15];
    mem_copy(a->oem_id, p + 9, 6);
    a->oem_id[6] = 0;
}

void fwtables_collect(struct firmware_info *fw, struct msg_list *warnings)
{
    (void)warnings;
    collect_acpi(&fw->acpi);
}
