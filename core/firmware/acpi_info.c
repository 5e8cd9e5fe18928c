/* From the tables found to the report's acpi_info and the NUMA map. */
#include "core/firmware/acpi_internal.h"
#include "core/lib/mem.h"

struct srat_check {
    const struct acpi_numa_map *numa;
    uint32_t missing;
    uint32_t first_missing;
};

static void check_in_srat(void *ctx, const struct acpi_madt_cpu *cpu)
{
    struct srat_check *c = ctx;
    if (!cpu->enabled || acpi_numa_node_of(c->numa, cpu->apic_id) >= 0)
        return;
    if (c->missing++ == 0)
        c->first_missing = cpu->apic_id;
}

static void fill_pm_timer(const struct acpi_table *fadt, struct acpi_info *info,
                          struct msg_list *msgs)
{
    struct acpi_fadt_info f;
    if (!fadt->data || !acpi_fadt_parse(fadt->data, fadt->length, &f, msgs))
        return;
    info->pm_timer_port = f.pm_timer_port;
    info->pm_timer_32bit = f.pm_timer_32bit;
    info->has_fadt = true;
    info->fadt_revision = f.revision;
    info->fadt_flags = f.flags;
    info->p_lvl2_lat = f.p_lvl2_lat;
    info->p_lvl3_lat = f.p_lvl3_lat;
}

/* DMAR (Intel VT-d spec, 8.1): flags at offset 37, after the header and the host address width. */
#define DMAR_FLAGS_OFFSET 37
static void fill_remapping(const struct acpi_tables *t, struct acpi_info *info)
{
    if (t->dmar.data && t->dmar.length > DMAR_FLAGS_OFFSET) {
        info->has_dmar = true;
        info->dmar_flags = ((const uint8_t *)t->dmar.data)[DMAR_FLAGS_OFFSET];
    }
    info->has_ivrs = t->ivrs.data != NULL;
}

static void fill_numa(const struct acpi_tables *t, struct acpi_info *info,
                      struct acpi_numa_map *numa, struct msg_list *msgs)
{
    uint32_t i;
    if (t->srat.data) {
        if (acpi_numa_map_add_srat(numa, t->srat.data, t->srat.length, msgs)) {
            info->has_srat = true;
        } else {
            /* half a SRAT would put CPUs in the wrong nodes silently: use none of it */
            acpi_msg(msgs, "SRAT not used: NUMA nodes unknown");
            numa->count = 0;
            numa->domains = 0;
        }
    }
    info->numa_nodes = numa->domains;
    if (t->slit.data && acpi_numa_map_add_slit(numa, t->slit.data, t->slit.length, msgs)) {
        info->has_slit = true;
        for (i = 0; i < numa->count; i++) {
            if (numa->cpus[i].domain >= numa->localities) {
                acpi_msg(msgs, "SLIT has %u localities but the SRAT puts APIC ID %u in "
                         "proximity domain %u; no distance for it", numa->localities,
                         numa->cpus[i].apic_id, numa->cpus[i].domain);
                break;
            }
        }
    }
}

void acpi_fill_info(const struct acpi_tables *t, struct acpi_info *info, struct acpi_numa_map *numa,
                    struct msg_list *msgs)
{
    struct acpi_numa_map local;
    struct acpi_madt_summary madt;
    bool have_map;
    info->present = true;
    info->revision = t->rsdp_revision;
    str_copy(info->oem_id, sizeof(info->oem_id), t->oem_id);
    str_copy(info->oem_table_id, sizeof(info->oem_table_id), t->oem_table_id);
    fill_pm_timer(&t->fadt, info, msgs);
    fill_remapping(t, info);

    /* numa_nodes needs the map even when the caller keeps none */
    if (!numa) {
        numa = &local;
        have_map = acpi_numa_map_init(&local, ACPI_NUMA_MAX_CPUS);
    } else {
        have_map = numa->cpus != NULL;
    }
    if (have_map)
        fill_numa(t, info, numa, msgs);

    if (t->madt.data) {
        struct srat_check chk = { numa, 0, 0 };
        bool ok = acpi_madt_parse(t->madt.data, t->madt.length, &madt,
                                  info->has_srat ? check_in_srat : NULL, &chk, msgs);
        /* a malformed entry still leaves the CPUs listed before it */
        info->has_madt = ok || madt.entries > 0;
        info->madt_cpus_enabled = madt.cpus_enabled;
        if (chk.missing)
            acpi_msg(msgs, "%u enabled MADT CPUs (first APIC ID %u) have no SRAT entry: their "
                     "NUMA node is unknown", chk.missing, chk.first_missing);
    }
    if (numa == &local)
        acpi_numa_map_release(&local);
}
