/*
 * Finds SMBIOS and ACPI through the UEFI configuration table (UEFI 2.10,
 * 4.6) and decodes them with the core/ parsers, which host tests run on
 * recorded server tables. Everything malformed ends up in `warnings`.
 */
#include "efi/fwtables.h"
#include "efi/efi_util.h"

#include "core/firmware/acpi.h"
#include "core/lib/mem.h"
#include "core/firmware/smbios.h"

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

/*
 * Boot services run identity-mapped (UEFI 2.10, 2.3.4: "memory ... is
 * identity mapped"), so a physical address is the pointer. Only an address
 * range that wraps, or address 0, is refused.
 */
static const void *identity_map(void *ctx, uint64_t phys, size_t len)
{
    (void)ctx;
    if (!phys || phys + len < phys)
        return NULL;
    return (const void *)(uintptr_t)phys;
}

static void *config_table(EFI_GUID *guid)
{
    void *p = NULL;
    if (EFI_ERROR(LibGetSystemConfigurationTable(guid, &p)))
        return NULL;
    return p;
}

/* SMBIOS3 (64-bit entry point) first: it can describe tables above 4 GiB and SMBIOS 3.x. */
static void collect_smbios(struct smbios_info *s, struct msg_list *warnings)
{
    void *ep3 = config_table(&SMBIOS3TableGuid);
    void *ep2 = config_table(&SMBIOSTableGuid);
    struct smbios_info legacy;
    if (ep3 && smbios_read((uintptr_t)ep3, identity_map, NULL, s, warnings))
        return;
    if (!ep2) {
        if (!ep3)
            msg_add(warnings, "smbios", "no SMBIOS entry point in the UEFI configuration table");
        return;
    }
    /* the 64-bit one is missing or broken: the 32-bit one may still be good */
    if (smbios_read((uintptr_t)ep2, identity_map, NULL, &legacy, warnings) || !s->present)
        *s = legacy;
}

static void collect_acpi(struct firmware_info *fw, struct msg_list *warnings)
{
    struct acpi_tables tables;
    void *rsdp = config_table(&acpi20_guid);
    if (!rsdp)
        rsdp = config_table(&acpi10_guid);
    if (!rsdp) {
        msg_add(warnings, "acpi", "no ACPI RSDP in the UEFI configuration table");
        return;
    }
    if (!acpi_find_tables((uintptr_t)rsdp, identity_map, NULL, &tables, warnings))
        return;
    fw->numa = mem_alloc(sizeof(*fw->numa));
    if (fw->numa && !acpi_numa_map_init(fw->numa, ACPI_NUMA_MAX_CPUS)) {
        mem_free(fw->numa);
        fw->numa = NULL;
    }
    if (!fw->numa)
        msg_add(warnings, "acpi", "no memory for the NUMA map; NUMA nodes unknown");
    acpi_fill_info(&tables, &fw->acpi, fw->numa, warnings);
    /* ACPI tables stay in reclaim/NVS memory: the own INIT-SIPI bring-up reads the MADT later */
    fw->acpi.madt = tables.madt.data;
    fw->acpi.madt_length = tables.madt.length;
    /* keep the map only when it says something: NULL means "no SRAT" to its users */
    if (fw->numa && !fw->acpi.has_srat) {
        acpi_numa_map_release(fw->numa);
        mem_free(fw->numa);
        fw->numa = NULL;
    }
}

void fwtables_collect(struct firmware_info *fw, struct msg_list *warnings)
{
    collect_smbios(&fw->smbios, warnings);
    collect_acpi(fw, warnings);
}

void fwtables_release(struct firmware_info *fw)
{
    if (!fw->numa)
        return;
    acpi_numa_map_release(fw->numa);
    mem_free(fw->numa);
    fw->numa = NULL;
}
