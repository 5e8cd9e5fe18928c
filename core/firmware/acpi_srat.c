/* SRAT (which proximity domain each CPU and memory range is in) and SLIT (distances). */
#include "core/firmware/acpi_internal.h"
#include "core/lib/bytes.h"
#include "core/lib/mem.h"

#define SRAT_ENTRIES 48 /* header, u32 reserved (1), u64 reserved: ACPI 6.5 5.2.16 Table 5.74 */

/* Processor Local APIC/SAPIC Affinity, Table 5.75: domain[7:0] @2, APIC ID @3, flags @4,
 * SAPIC EID @8, domain[31:8] @9 (3 bytes), clock domain @12 */
#define CPU_AFF_LEN 16
/* Memory Affinity, Table 5.77: domain u32 @2, base @8, length @16, flags @28 */
#define MEM_AFF_LEN 40
/* Processor Local x2APIC Affinity, Table 5.79: domain u32 @4, x2APIC ID @8, flags @12 */
#define X2APIC_AFF_LEN 24
/* GICC Affinity, Table 5.80: domain u32 @2, ACPI Processor UID u32 @6, flags @10, clock
 * domain @14 (an aarch64 CPU, named as the MADT's GICC names it) */
#define GICC_AFF_LEN 18

#define AFF_ENABLED (1u << 0)
#define MEM_HOT_PLUGGABLE (1u << 1)
#define MEM_NON_VOLATILE (1u << 2)

/*
 * In SRAT revision 1 (ACPI 2.0) the proximity domain was 8 bits: the upper
 * bytes of the type 0 entry and of the type 1 domain field were reserved and
 * may hold anything. Linux (drivers/acpi/numa) masks them the same way.
 */
#define SRAT_REV_32BIT_DOMAINS 2

#define SLIT_LOCALITIES 36 /* u64 Number of System Localities, 5.2.17 Table 5.81 */
#define SLIT_MATRIX 44

struct srat_walk {
    struct acpi_srat_summary *sum;
    acpi_srat_fn fn;
    void *ctx;
    struct msg_list *msgs;
    uint32_t short_entries;
};

static void srat_entry(void *vctx, const uint8_t *e, uint8_t type, uint8_t len, uint32_t off)
{
    static const uint8_t min_len[4] = { CPU_AFF_LEN, MEM_AFF_LEN, X2APIC_AFF_LEN, GICC_AFF_LEN };
    struct srat_walk *w = vctx;
    struct acpi_srat_summary *s = w->sum;
    bool wide = s->revision >= SRAT_REV_32BIT_DOMAINS;
    struct acpi_srat_entry d;
    uint32_t flags;
    s->entries++;
    if (type < ACPI_SRAT_TYPES)
        s->by_type[type]++;
    else
        s->other_types++;
    if (type > ACPI_SRAT_GICC_AFFINITY)
        return; /* ITS, generic initiator...: not about CPUs */
    if (len < min_len[type]) {
        if (w->short_entries++ == 0)
            acpi_msg(w->msgs, "SRAT: type %u entry at offset %u is only %u bytes (needs %u); "
                     "skipped", type, off, len, min_len[type]);
        return;
    }
    mem_zero(&d, sizeof(d));
    d.type = type;
    switch (type) {
    case ACPI_SRAT_CPU_AFFINITY:
        d.domain = e[2];
        if (wide)
            d.domain |= (uint32_t)e[9] << 8 | (uint32_t)e[10] << 16 | (uint32_t)e[11] << 24;
        d.apic_id = e[3];
        flags = le32_at(e + 4);
        break;
    case ACPI_SRAT_MEMORY_AFFINITY:
        d.domain = le32_at(e + 2);
        if (!wide)
            d.domain &= 0xff;
        d.base = le64_at(e + 8);
        d.length = le64_at(e + 16);
        flags = le32_at(e + 28);
        d.hot_pluggable = (flags & MEM_HOT_PLUGGABLE) != 0;
        d.non_volatile = (flags & MEM_NON_VOLATILE) != 0;
        break;
    case ACPI_SRAT_GICC_AFFINITY:
        d.domain = le32_at(e + 2);
        d.uid = le32_at(e + 6);
        flags = le32_at(e + 10);
        break;
    default:
        d.domain = le32_at(e + 4);
        d.apic_id = le32_at(e + 8);
        flags = le32_at(e + 12);
        break;
    }
    d.enabled = (flags & AFF_ENABLED) != 0;
    if (d.enabled) {
        if (type == ACPI_SRAT_MEMORY_AFFINITY)
            s->memory_enabled++;
        else
            s->cpus_enabled++;
    }
    if (w->fn)
        w->fn(w->ctx, &d);
}

bool acpi_srat_parse(const void *srat, size_t len, struct acpi_srat_summary *out, acpi_srat_fn fn,
                     void *ctx, struct msg_list *msgs)
{
    const uint8_t *t = srat;
    struct srat_walk w;
    mem_zero(out, sizeof(*out));
    if (!acpi_header_ok(srat, len, "SRAT", SRAT_ENTRIES, msgs))
        return false;
    out->revision = t[8];
    mem_zero(&w, sizeof(w));
    w.sum = out;
    w.fn = fn;
    w.ctx = ctx;
    w.msgs = msgs;
    return acpi_walk_entries(t, acpi_table_length(srat), SRAT_ENTRIES, "SRAT", srat_entry, &w,
                             msgs) &&
           w.short_entries == 0;
}

bool acpi_slit_parse(const void *slit, size_t len, struct acpi_slit *out, struct msg_list *msgs)
{
    const uint8_t *t = slit;
    uint64_t n;
    uint32_t tlen;
    mem_zero(out, sizeof(*out));
    if (!acpi_header_ok(slit, len, "SLIT", SLIT_MATRIX, msgs))
        return false;
    tlen = acpi_table_length(slit);
    n = le64_at(t + SLIT_LOCALITIES);
    /* n * n must fit in the table; checking n first keeps n * n from overflowing */
    if (n == 0 || n > 0xffff || n * n > tlen - SLIT_MATRIX) {
        acpi_msg(msgs, "SLIT: %llu localities need %llu matrix bytes but the table has %u; "
                 "ignored", (unsigned long long)n,
                 n > 0xffff ? 0ull : (unsigned long long)(n * n), tlen - SLIT_MATRIX);
        return false;
    }
    out->localities = n;
    out->matrix = t + SLIT_MATRIX;
    return true;
}

uint8_t acpi_slit_distance(const struct acpi_slit *s, uint64_t from, uint64_t to)
{
    if (!s->matrix || from >= s->localities || to >= s->localities)
        return 0;
    return s->matrix[from * s->localities + to];
}
