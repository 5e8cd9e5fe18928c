/*
 * The CPU table of the tool's own INIT-SIPI bring-up, read from the MADT
 * (ACPI 6.5, 5.2.12): what the firmware's MP services would have listed had
 * they worked. The order follows the table, as firmware numbers processors.
 */
#include "core/firmware/acpi.h"
#include "core/machine/cpu_table.h"
#include "core/lib/mem.h"
#include "core/lib/msglist.h"
#include "core/mutant.h"

struct madt_fill {
    struct cpu_table *t;
    uint32_t cap;
    uint32_t duplicates, dropped;
};

static bool listed(const struct cpu_table *t, uint32_t apic_id)
{
    uint32_t i;
    for (i = 0; i < t->count; i++)
        if (t->cpus[i].apic_id == apic_id)
            return true;
    return false;
}

static void add_entry(void *ctx, const struct acpi_madt_cpu *cpu)
{
    struct madt_fill *f = ctx;
    struct cpu_info *c;
    if (!cpu->enabled && !MUTANT(madt_takes_disabled))
        return;
    if (listed(f->t, cpu->apic_id)) {
        /* the BSP's own entry, or firmware listing one CPU as LAPIC and x2APIC */
        f->duplicates++;
        return;
    }
    if (f->t->count >= f->cap) {
        f->dropped++;
        return;
    }
    c = &f->t->cpus[f->t->count];
    mem_zero(c, sizeof(*c));
    c->index = f->t->count++;
    c->apic_id = cpu->apic_id;
    c->numa_node = -1;
    c->state = CPU_OK;
}

uint32_t cpu_table_from_madt(struct cpu_table *t, const void *madt, size_t len,
                             uint32_t bsp_apic_id, uint32_t cap, struct msg_list *msgs)
{
    struct acpi_madt_summary sum;
    struct madt_fill f = { t, cap, 0, 0 };
    t->count = 0;
    t->cpus = cap ? mem_zalloc((size_t)cap * sizeof(*t->cpus)) : NULL;
    if (!t->cpus)
        return 0;
    t->cpus[0].index = 0;
    t->cpus[0].apic_id = bsp_apic_id;
    t->cpus[0].bsp = true;
    t->cpus[0].numa_node = -1;
    t->cpus[0].state = CPU_OK;
    t->count = 1;
    acpi_madt_parse(madt, len, &sum, add_entry, &f, msgs);
    if (f.dropped)
        msg_add(msgs, "mp", "the MADT lists %u more enabled CPUs than the %u the tool handles; "
                "they are not started", f.dropped, cap);
    return t->count;
}
