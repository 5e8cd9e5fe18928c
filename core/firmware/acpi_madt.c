/* MADT: the processors the firmware reports, with their APIC IDs (ACPI 6.5, 5.2.12). */
#include "core/firmware/acpi_internal.h"
#include "core/lib/bytes.h"
#include "core/lib/mem.h"

#define MADT_LAPIC_ADDRESS 36 /* u32 Local Interrupt Controller Address, Table 5.19 */
#define MADT_FLAGS 40         /* u32, bit 0 PCAT_COMPAT */
#define MADT_ENTRIES 44       /* Interrupt Controller Structure[] */

/* Processor Local APIC, Table 5.22: UID u8 @2, APIC ID u8 @3, Flags u32 @4 */
#define LAPIC_LEN 8
/* Processor Local x2APIC, Table 5.40: reserved @2, x2APIC ID u32 @4, Flags u32 @8, UID u32 @12 */
#define X2APIC_LEN 16

/* Local APIC Flags, Table 5.23 */
#define CPU_ENABLED (1u << 0)
#define CPU_ONLINE_CAPABLE (1u << 1) /* defined from MADT revision 5 (ACPI 6.3) on */
#define MADT_REV_ONLINE_CAPABLE 5

struct madt_walk {
    struct acpi_madt_summary *sum;
    acpi_madt_cpu_fn fn;
    void *ctx;
    struct msg_list *msgs;
    uint32_t short_entries;
};

static void madt_entry(void *vctx, const uint8_t *e, uint8_t type, uint8_t len, uint32_t off)
{
    struct madt_walk *w = vctx;
    struct acpi_madt_summary *s = w->sum;
    struct acpi_madt_cpu cpu;
    uint32_t flags;
    s->entries++;
    if (type < ACPI_MADT_TYPES)
        s->by_type[type]++;
    else
        s->other_types++;
    if (type != ACPI_MADT_LOCAL_APIC && type != ACPI_MADT_LOCAL_X2APIC)
        return;
    if (len < (type == ACPI_MADT_LOCAL_APIC ? LAPIC_LEN : X2APIC_LEN)) {
        if (w->short_entries++ == 0)
            acpi_msg(w->msgs, "APIC: CPU entry (type %u) at offset %u is only %u bytes; skipped",
                     type, off, len);
        return;
    }
    mem_zero(&cpu, sizeof(cpu));
    cpu.type = type;
    if (type == ACPI_MADT_LOCAL_APIC) {
        cpu.uid = e[2];
        cpu.apic_id = e[3];
        flags = le32_at(e + 4);
    } else {
        cpu.apic_id = le32_at(e + 4);
        flags = le32_at(e + 8);
        cpu.uid = le32_at(e + 12);
    }
    cpu.enabled = (flags & CPU_ENABLED) != 0;
    /* Before revision 5 bit 1 is reserved; with Enabled set it must be zero anyway. */
    cpu.online_capable =
        !cpu.enabled && s->revision >= MADT_REV_ONLINE_CAPABLE && (flags & CPU_ONLINE_CAPABLE);
    if (cpu.enabled) {
        s->cpus_enabled++;
        if (!s->has_first_cpu) {
            s->has_first_cpu = true;
            s->first_cpu_apic_id = cpu.apic_id;
        }
    } else if (cpu.online_capable) {
        s->cpus_online_capable++;
    } else {
        s->cpus_disabled++;
    }
    if (w->fn)
        w->fn(w->ctx, &cpu);
}

bool acpi_madt_parse(const void *madt, size_t len, struct acpi_madt_summary *out,
                     acpi_madt_cpu_fn fn, void *ctx, struct msg_list *msgs)
{
    const uint8_t *t = madt;
    struct madt_walk w;
    mem_zero(out, sizeof(*out));
    if (!acpi_header_ok(madt, len, "APIC", MADT_ENTRIES, msgs))
        return false;
    out->revision = t[8];
    out->local_apic_address = le32_at(t + MADT_LAPIC_ADDRESS);
    out->flags = le32_at(t + MADT_FLAGS);
    mem_zero(&w, sizeof(w));
    w.sum = out;
    w.fn = fn;
    w.ctx = ctx;
    w.msgs = msgs;
    return acpi_walk_entries(t, acpi_table_length(madt), MADT_ENTRIES, "APIC", madt_entry, &w,
                             msgs) &&
           w.short_entries == 0;
}

struct id_collect {
    bool enabled_only;
    uint32_t *ids;
    uint32_t cap, count;
};

static void collect_id(void *vctx, const struct acpi_madt_cpu *cpu)
{
    struct id_collect *c = vctx;
    if (c->enabled_only && !cpu->enabled)
        return;
    if (c->count < c->cap)
        c->ids[c->count] = cpu->apic_id;
    c->count++;
}

uint32_t acpi_madt_apic_ids(const void *madt, size_t len, bool enabled_only, uint32_t *ids,
                            uint32_t cap, struct msg_list *msgs)
{
    struct acpi_madt_summary sum;
    struct id_collect c = { enabled_only, ids, cap, 0 };
    acpi_madt_parse(madt, len, &sum, collect_id, &c, msgs);
    return c.count;
}
