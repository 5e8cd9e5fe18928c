/*
 * ACPI parsers on the real MADT/SRAT/SLIT tables of four multi-socket
 * servers, plus synthetic RSDP/XSDT/RSDT/FADT around them and corrupted
 * copies of them.
 *
 * Data: ../shared/data/acpi (see its README for the expected values).
 * Three machines come from linuxhw/ACPI (linuxhw / hw-probe,
 * linux-hardware.org, CC BY 4.0): Supermicro X10DAi, Supermicro H8DGU,
 * Dell PowerEdge R820. The fourth (Supermicro "SMCI--MB") is from
 * kennethyzeng/HW-related-codes (no licence file; used as reference data).
 * The tests skip when the shared data folder is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/firmware/acpi.h"
#include "core/lib/mem.h"
#include "tests/host/support_data.h"
#include "tests/host/support_host.h"
#include "tests/host/support_msgs.h"

/* ---- helpers ---- */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static void fix_checksum(uint8_t *t)
{
    uint32_t len = (uint32_t)t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;
    uint8_t sum = 0;
    t[9] = 0;
    for (uint32_t i = 0; i < len; i++)
        sum = (uint8_t)(sum + t[i]);
    t[9] = (uint8_t)(0 - sum);
}

static void make_header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev, const char *oem,
                        const char *oem_table)
{
    memset(t, 0, ACPI_HEADER_LEN);
    memcpy(t, sig, 4);
    put32(t + 4, len);
    t[8] = rev;
    memcpy(t + 10, oem, 6);
    memcpy(t + 16, oem_table, 8);
    memcpy(t + 28, "TEST", 4);
}

/* Parses "0-9,16-25" into ids[]; returns the count. */
static uint32_t parse_ranges(const char *s, uint32_t *ids, uint32_t cap)
{
    uint32_t n = 0;
    while (*s) {
        char *end;
        unsigned long lo = strtoul(s, &end, 10), hi = lo;
        if (*end == '-')
            hi = strtoul(end + 1, &end, 10);
        for (unsigned long v = lo; v <= hi && n < cap; v++)
            ids[n++] = (uint32_t)v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static uint8_t *load_table(const char *machine, const char *kind, size_t *len)
{
    char rel[128];
    snprintf(rel, sizeof(rel), "acpi/%s-%s.bin", machine, kind);
    return shared_data_load(rel, len);
}

#define LOAD_TABLE(buf, len, machine, kind)                                                    \
    do {                                                                                       \
        char rel_[128];                                                                        \
        snprintf(rel_, sizeof(rel_), "acpi/%s-%s.bin", (machine), (kind));                     \
        LOAD_SHARED_DATA(buf, len, rel_);                                                   \
    } while (0)

/* ---- expected values, from ../shared/data/acpi/README.md ---- */

struct type_count {
    uint8_t type;
    uint32_t count;
};

struct domain_cpus {
    uint32_t domain;
    const char *apic_ids;
};

struct machine {
    const char *name;
    uint8_t madt_rev;
    uint32_t madt_len;
    struct type_count madt_types[6];
    uint32_t lapic_total, lapic_enabled;
    const char *enabled_ids, *disabled_ids;
    uint32_t first_apic_id;
    uint8_t srat_rev;
    uint32_t srat_len;
    uint32_t srat_t0, srat_t1, srat_t2, srat_cpus_enabled;
    struct domain_cpus domains[4];
    uint32_t mem_gib[5]; /* per proximity domain 0..4 */
    uint32_t numa_nodes;
    uint32_t localities;
    uint8_t slit[25];
};

static const struct machine machines[] = {
    { "supermicro-x10dai", 3, 660, { { 0, 40 }, { 1, 3 }, { 2, 2 }, { 4, 40 } }, 40, 40,
      "0-9,16-25,32-41,48-57", "", 0, 3, 4440, 192, 33, 0, 40,
      { { 0, "0-9,16-25" }, { 1, "32-41,48-57" } }, { 80, 80, 0, 0, 0 }, 2, 2,
      { 10, 21, 21, 10 } },
    { "supermicro-smci-2s", 4, 862, { { 0, 96 }, { 1, 1 }, { 2, 2 }, { 4, 1 }, { 0x0a, 1 } }, 96,
      96, "0-47,64-111", "", 0, 3, 12848, 256, 64, 256, 96,
      { { 0, "0-47" }, { 1, "64-111" } }, { 256, 240, 0, 0, 0 }, 2, 2, { 10, 20, 20, 10 } },
    { "supermicro-h8dgu", 1, 356, { { 0, 32 }, { 1, 2 }, { 2, 2 }, { 4, 2 } }, 32, 24,
      "16-27,32-43", "152-159", 16, 2, 592, 24, 4, 0, 24,
      { { 0, "16-21" }, { 1, "22-27" }, { 2, "38-43" }, { 3, "32-37" } }, { 36, 0, 0, 36, 0 }, 4,
      4, { 10, 16, 16, 16, 16, 10, 16, 16, 16, 16, 10, 16, 16, 16, 16, 10 } },
    { "dell-r820", 1, 898, { { 0, 96 }, { 1, 5 }, { 2, 2 }, { 4, 1 } }, 96, 80,
      "0-9,16-25,32-41,48-57,64-73,80-89,96-105,112-121", "208-223", 0, 1, 1984, 96, 10, 0, 80,
      { { 1, "0-9,16-25" }, { 2, "32-41,48-57" }, { 3, "64-73,80-89" }, { 4, "96-105,112-121" } },
      { 0, 17, 16, 16, 16 }, 4, 5,
      { 10, 20, 20, 20, 20, 20, 10, 20, 30, 20, 20, 20, 10, 20, 30, 20, 30, 20, 10, 20, 20, 20, 30,
        20, 10 } },
};

/* ---- MADT ---- */

struct cpu_log {
    uint32_t n;
    struct acpi_madt_cpu cpus[512];
};

static void log_cpu(void *ctx, const struct acpi_madt_cpu *cpu)
{
    struct cpu_log *l = ctx;
    if (l->n < 512)
        l->cpus[l->n++] = *cpu;
}

static void check_madt(const struct machine *m)
{
    static struct cpu_log log;
    struct acpi_madt_summary s;
    struct msg_list msgs = { .count = 0 };
    uint32_t want[256], got[256], nwant, ngot, ndis, i, total_types = 0;
    size_t len;
    uint8_t *t;
    LOAD_TABLE(t, len, m->name, "apic");
    assert_int_equal(len, m->madt_len);
    assert_int_equal(acpi_check_header(t, len, "APIC"), ACPI_OK);
    log.n = 0;
    assert_true(acpi_madt_parse(t, len, &s, log_cpu, &log, &msgs));
    if (msgs.count)
        msgs_print(&msgs);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(s.revision, m->madt_rev);
    assert_int_equal(s.local_apic_address, 0xfee00000u);
    assert_int_equal(s.flags & 1, 1); /* PCAT_COMPAT */
    for (i = 0; i < 6 && m->madt_types[i].count; i++) {
        assert_int_equal(s.by_type[m->madt_types[i].type], m->madt_types[i].count);
        total_types += m->madt_types[i].count;
    }
    assert_int_equal(s.entries, total_types);
    assert_int_equal(s.by_type[ACPI_MADT_LOCAL_X2APIC], 0);
    assert_int_equal(s.cpus_enabled, m->lapic_enabled);
    assert_int_equal(s.cpus_enabled + s.cpus_disabled + s.cpus_online_capable, m->lapic_total);
    assert_int_equal(s.cpus_online_capable, 0); /* all these MADTs predate revision 5 */
    assert_true(s.has_first_cpu);
    assert_int_equal(s.first_cpu_apic_id, m->first_apic_id);
    assert_int_equal(log.n, m->lapic_total);

    nwant = parse_ranges(m->enabled_ids, want, 256);
    ngot = acpi_madt_apic_ids(t, len, true, got, 256, NULL);
    assert_int_equal(ngot, nwant);
    /* the firmware lists these in ascending order except h8dgu, so compare as sets */
    for (i = 0; i < nwant; i++) {
        uint32_t j;
        bool found = false;
        for (j = 0; j < ngot; j++)
            found |= got[j] == want[i];
        if (!found)
            fail_msg("%s: enabled APIC ID %u missing from the MADT decode", m->name, want[i]);
    }
    ndis = parse_ranges(m->disabled_ids, want, 256);
    for (i = 0; i < ndis; i++) {
        uint32_t j;
        bool found_disabled = false;
        for (j = 0; j < log.n; j++)
            if (log.cpus[j].apic_id == want[i] && !log.cpus[j].enabled)
                found_disabled = true;
        assert_true(found_disabled);
    }
    /* every CPU entry is type 0 here; UIDs are one byte */
    for (i = 0; i < log.n; i++)
        assert_int_equal(log.cpus[i].type, ACPI_MADT_LOCAL_APIC);
    /* with all IDs asked for, the count includes disabled ones; a small array only takes the first */
    assert_int_equal(acpi_madt_apic_ids(t, len, false, got, 3, NULL), m->lapic_total);
    free(t);
}

static void test_madt_x10dai(void **state) { (void)state; check_madt(&machines[0]); }
static void test_madt_smci(void **state) { (void)state; check_madt(&machines[1]); }
static void test_madt_h8dgu(void **state) { (void)state; check_madt(&machines[2]); }
static void test_madt_r820(void **state) { (void)state; check_madt(&machines[3]); }

/* ---- SRAT + SLIT + NUMA map ---- */

struct mem_sum {
    uint64_t bytes[8];
    uint32_t disabled_type2;
};

static void sum_memory(void *ctx, const struct acpi_srat_entry *e)
{
    struct mem_sum *m = ctx;
    if (e->type == ACPI_SRAT_MEMORY_AFFINITY && e->enabled && e->domain < 8)
        m->bytes[e->domain] += e->length;
    if (e->type == ACPI_SRAT_X2APIC_AFFINITY && !e->enabled)
        m->disabled_type2++;
}

static void check_srat_slit(const struct machine *m)
{
    struct acpi_srat_summary s;
    struct acpi_slit slit;
    struct acpi_numa_map map;
    struct mem_sum mem;
    struct msg_list msgs = { .count = 0 };
    uint32_t ids[256], n, i, d;
    size_t len, slen;
    uint8_t *t, *sl;
    LOAD_TABLE(t, len, m->name, "srat");
    LOAD_TABLE(sl, slen, m->name, "slit");
    assert_int_equal(len, m->srat_len);
    memset(&mem, 0, sizeof(mem));
    assert_true(acpi_srat_parse(t, len, &s, sum_memory, &mem, &msgs));
    assert_int_equal(s.revision, m->srat_rev);
    assert_int_equal(s.by_type[0], m->srat_t0);
    assert_int_equal(s.by_type[1], m->srat_t1);
    assert_int_equal(s.by_type[2], m->srat_t2);
    assert_int_equal(s.cpus_enabled, m->srat_cpus_enabled);
    assert_int_equal(mem.disabled_type2, m->srat_t2); /* smci-2s: all 256 type-2 entries disabled */
    for (d = 0; d < 5; d++) /* rounded to GiB: h8dgu domain 0 lacks the 384 KiB below 1 MiB */
        assert_int_equal((mem.bytes[d] + (1ull << 29)) >> 30, m->mem_gib[d]);

    assert_true(acpi_numa_map_init(&map, ACPI_NUMA_MAX_CPUS));
    assert_true(acpi_numa_map_add_srat(&map, t, len, &msgs));
    assert_int_equal(map.count, m->srat_cpus_enabled);
    assert_int_equal(map.domains, m->numa_nodes);
    assert_int_equal(map.dropped, 0);
    for (i = 0; i < 4 && m->domains[i].apic_ids; i++) {
        uint32_t k;
        n = parse_ranges(m->domains[i].apic_ids, ids, 256);
        for (k = 0; k < n; k++)
            assert_int_equal(acpi_numa_node_of(&map, ids[k]), (int32_t)m->domains[i].domain);
    }
    /* IDs the SRAT lists only as disabled, or not at all */
    assert_int_equal(acpi_numa_node_of(&map, 255), -1);
    assert_int_equal(acpi_numa_node_of(NULL, 0), -1);
    assert_int_equal(acpi_numa_node_of(&map, 0xffffffffu), -1);

    assert_true(acpi_slit_parse(sl, slen, &slit, &msgs));
    assert_int_equal(slit.localities, m->localities);
    for (i = 0; i < m->localities; i++)
        for (d = 0; d < m->localities; d++)
            assert_int_equal(acpi_slit_distance(&slit, i, d), m->slit[i * m->localities + d]);
    assert_int_equal(acpi_slit_distance(&slit, m->localities, 0), 0);
    assert_int_equal(acpi_slit_distance(&slit, 0, m->localities), 0);
    assert_true(acpi_numa_map_add_slit(&map, sl, slen, &msgs));
    assert_int_equal(map.localities, m->localities);
    for (i = 0; i < m->localities; i++)
        for (d = 0; d < m->localities; d++)
            assert_int_equal(acpi_numa_distance(&map, i, d), m->slit[i * m->localities + d]);
    assert_int_equal(acpi_numa_distance(&map, 99, 0), 0);
    if (msgs.count)
        msgs_print(&msgs);
    assert_int_equal(msgs.count, 0);
    acpi_numa_map_release(&map);
    free(t);
    free(sl);
}

static void test_srat_x10dai(void **state) { (void)state; check_srat_slit(&machines[0]); }
static void test_srat_smci(void **state) { (void)state; check_srat_slit(&machines[1]); }
static void test_srat_h8dgu(void **state) { (void)state; check_srat_slit(&machines[2]); }
static void test_srat_r820(void **state) { (void)state; check_srat_slit(&machines[3]); }

/* h8dgu: domain 2 holds higher APIC IDs than domain 3; domains 1 and 2 have CPUs, no memory */
static void test_h8dgu_domain_order(void **state)
{
    struct acpi_numa_map map;
    size_t len;
    uint8_t *t;
    (void)state;
    LOAD_TABLE(t, len, "supermicro-h8dgu", "srat");
    assert_true(acpi_numa_map_init(&map, 64));
    assert_true(acpi_numa_map_add_srat(&map, t, len, NULL));
    assert_int_equal(acpi_numa_node_of(&map, 16), 0); /* the BSP */
    assert_int_equal(acpi_numa_node_of(&map, 32), 3);
    assert_int_equal(acpi_numa_node_of(&map, 43), 2);
    assert_int_equal(acpi_numa_node_of(&map, 152), -1); /* disabled in the MADT, absent here */
    /* sorted by APIC ID whatever the table order */
    for (uint32_t i = 1; i < map.count; i++)
        assert_true(map.cpus[i - 1].apic_id < map.cpus[i].apic_id);
    acpi_numa_map_release(&map);
    free(t);
}

/* A small map keeps the first entries and counts the rest as dropped. */
static void test_numa_map_capacity(void **state)
{
    struct acpi_numa_map map;
    struct msg_list msgs = { .count = 0 };
    size_t len;
    uint8_t *t;
    (void)state;
    LOAD_TABLE(t, len, "supermicro-smci-2s", "srat");
    assert_true(acpi_numa_map_init(&map, 10));
    assert_true(acpi_numa_map_add_srat(&map, t, len, &msgs));
    assert_int_equal(map.count, 10);
    assert_int_equal(map.dropped, 86);
    assert_true(msgs_contain(&msgs, "beyond the first 10"));
    acpi_numa_map_release(&map);
    /* capacity is clamped to the fixed bound */
    assert_true(acpi_numa_map_init(&map, 1u << 30));
    assert_int_equal(map.capacity, ACPI_NUMA_MAX_CPUS);
    acpi_numa_map_release(&map);
    free(t);
}

/* ---- synthetic RSDP / XSDT / RSDT / FADT around the real tables ---- */

struct region {
    uint64_t phys;
    uint8_t *data;
    size_t len;
};

struct fake_phys {
    struct region r[16];
    int n;
};

static const void *fake_map(void *ctx, uint64_t phys, size_t len)
{
    struct fake_phys *f = ctx;
    for (int i = 0; i < f->n; i++) {
        const struct region *r = &f->r[i];
        if (phys >= r->phys && phys - r->phys <= r->len && len <= r->len - (phys - r->phys))
            return r->data + (phys - r->phys);
    }
    return NULL;
}

static void add_region(struct fake_phys *f, uint64_t phys, uint8_t *data, size_t len)
{
    f->r[f->n].phys = phys;
    f->r[f->n].data = data;
    f->r[f->n].len = len;
    f->n++;
}

#define PHYS_RSDP 0xf0000ull
#define PHYS_RSDT 0x7ff00000ull
#define PHYS_XSDT 0x17ff00000ull /* above 4 GiB: only the XSDT can point there */
#define PHYS_FADT 0x7ff10000ull
#define PHYS_MADT 0x7ff20000ull
#define PHYS_SRAT 0x7ff30000ull
#define PHYS_SLIT 0x7ff40000ull
#define PHYS_DSDT 0x7ff50000ull

struct fixture {
    struct fake_phys phys;
    uint8_t rsdp[36];
    uint8_t xsdt[36 + 8 * 6];
    uint8_t rsdt[36 + 4 * 6];
    uint8_t fadt[276];
    uint8_t dsdt[36];
    uint8_t *madt, *srat, *slit;
    size_t madt_len, srat_len, slit_len;
};

static void build_fadt(uint8_t *f, uint32_t len, uint32_t legacy_port, uint8_t x_space,
                       uint64_t x_addr, uint32_t flags)
{
    make_header(f, "FACP", len, 6, "ALASKA", "A M I \0\0");
    put32(f + 76, legacy_port);
    f[91] = 4;
    put32(f + 112, flags);
    if (len >= 220) {
        f[208] = x_space;
        f[209] = 32;
        f[211] = 3; /* dword access */
        put64(f + 212, x_addr);
    }
    fix_checksum(f);
}

static void finish_rsdp(uint8_t *r)
{
    uint8_t s = 0;
    r[8] = 0;
    for (int i = 0; i < 20; i++)
        s = (uint8_t)(s + r[i]);
    r[8] = (uint8_t)(0 - s);
    r[32] = 0;
    s = 0;
    for (int i = 0; i < 36; i++)
        s = (uint8_t)(s + r[i]);
    r[32] = (uint8_t)(0 - s);
}

/* The X10DAi's tables behind an RSDP revision 2, an XSDT and an RSDT (both listing them all). */
static bool build_fixture(struct fixture *fx, const char *machine)
{
    const uint64_t tables[6] = { PHYS_FADT, PHYS_DSDT, PHYS_MADT, PHYS_SRAT, PHYS_SLIT, 0 };
    memset(fx, 0, sizeof(*fx));
    fx->madt = load_table(machine, "apic", &fx->madt_len);
    fx->srat = load_table(machine, "srat", &fx->srat_len);
    fx->slit = load_table(machine, "slit", &fx->slit_len);
    if (!fx->madt || !fx->srat || !fx->slit)
        return false;
    memcpy(fx->rsdp, "RSD PTR ", 8);
    memcpy(fx->rsdp + 9, "ALASKA", 6);
    fx->rsdp[15] = 2;
    put32(fx->rsdp + 16, (uint32_t)PHYS_RSDT);
    put32(fx->rsdp + 20, 36);
    put64(fx->rsdp + 24, PHYS_XSDT);
    finish_rsdp(fx->rsdp);
    make_header(fx->xsdt, "XSDT", sizeof(fx->xsdt), 1, "ALASKA", "A M I \0\0");
    make_header(fx->rsdt, "RSDT", sizeof(fx->rsdt), 1, "RSDTOE", "RSDTONLY");
    for (int i = 0; i < 6; i++) {
        put64(fx->xsdt + 36 + 8 * i, tables[i]); /* the last one is a null entry */
        put32(fx->rsdt + 36 + 4 * i, (uint32_t)tables[i]);
    }
    fix_checksum(fx->xsdt);
    fix_checksum(fx->rsdt);
    build_fadt(fx->fadt, sizeof(fx->fadt), 0x508, 1, 0x508, 1u << 8);
    make_header(fx->dsdt, "DSDT", sizeof(fx->dsdt), 2, "ALASKA", "A M I   ");
    fix_checksum(fx->dsdt);
    add_region(&fx->phys, PHYS_RSDP, fx->rsdp, sizeof(fx->rsdp));
    add_region(&fx->phys, PHYS_XSDT, fx->xsdt, sizeof(fx->xsdt));
    add_region(&fx->phys, PHYS_RSDT, fx->rsdt, sizeof(fx->rsdt));
    add_region(&fx->phys, PHYS_FADT, fx->fadt, sizeof(fx->fadt));
    add_region(&fx->phys, PHYS_DSDT, fx->dsdt, sizeof(fx->dsdt));
    add_region(&fx->phys, PHYS_MADT, fx->madt, fx->madt_len);
    add_region(&fx->phys, PHYS_SRAT, fx->srat, fx->srat_len);
    add_region(&fx->phys, PHYS_SLIT, fx->slit, fx->slit_len);
    return true;
}

static void free_fixture(struct fixture *fx)
{
    free(fx->madt);
    free(fx->srat);
    free(fx->slit);
}

#define LOAD_FIXTURE(fx, machine)                                                              \
    do {                                                                                       \
        if (!build_fixture((fx), (machine))) {                                                 \
            free_fixture(fx);                                                                  \
            SHARED_DATA_MISSING("acpi/%s-*.bin", (machine));                                   \
        }                                                                                      \
    } while (0)

static void test_find_tables_xsdt(void **state)
{
    static struct fixture fx;
    struct acpi_tables t;
    struct acpi_info info;
    struct acpi_numa_map map;
    struct msg_list msgs = { .count = 0 };
    (void)state;
    LOAD_FIXTURE(&fx, "supermicro-x10dai");
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_int_equal(t.rsdp_revision, 2);
    assert_true(t.xsdt);
    assert_string_equal(t.rsdp_oem_id, "ALASKA");
    assert_string_equal(t.oem_id, "ALASKA");
    assert_string_equal(t.oem_table_id, "A M I"); /* "A M I \0\0" kept printable */
    assert_int_equal(t.root_entries, 6);
    assert_int_equal(t.fadt.phys, PHYS_FADT);
    assert_int_equal(t.madt.length, 660);
    assert_int_equal(t.srat.length, 4440);
    assert_int_equal(t.slit.length, 48);

    memset(&info, 0, sizeof(info));
    assert_true(acpi_numa_map_init(&map, ACPI_NUMA_MAX_CPUS));
    acpi_fill_info(&t, &info, &map, &msgs);
    if (msgs.count)
        msgs_print(&msgs);
    assert_int_equal(msgs.count, 0);
    assert_true(info.present);
    assert_int_equal(info.revision, 2);
    assert_string_equal(info.oem_id, "ALASKA");
    assert_string_equal(info.oem_table_id, "A M I");
    assert_true(info.has_madt && info.has_srat && info.has_slit);
    assert_int_equal(info.madt_cpus_enabled, 40);
    assert_int_equal(info.numa_nodes, 2);
    assert_int_equal(info.pm_timer_port, 0x508);
    assert_true(info.pm_timer_32bit);
    assert_int_equal(acpi_numa_node_of(&map, 0), 0);
    assert_int_equal(acpi_numa_node_of(&map, 57), 1);
    assert_int_equal(acpi_numa_node_of(&map, 10), -1);
    assert_int_equal(acpi_numa_distance(&map, 0, 1), 21);
    acpi_numa_map_release(&map);

    /* without a caller map the node count is still filled */
    memset(&info, 0, sizeof(info));
    acpi_fill_info(&t, &info, NULL, &msgs);
    assert_int_equal(info.numa_nodes, 2);
    free_fixture(&fx);
}

/* A SRAT with a malformed entry is not used at all; the MADT still is. */
static void test_fill_info_bad_srat(void **state)
{
    static struct fixture fx;
    struct acpi_tables t;
    struct acpi_info info;
    struct acpi_numa_map map;
    struct msg_list msgs = { .count = 0 };
    (void)state;
    LOAD_FIXTURE(&fx, "dell-r820");
    fx.srat[48 + 16 * 10 + 1] = 0; /* zero-length entry after 10 CPUs */
    fix_checksum(fx.srat);
    fx.slit[44] = 11;              /* and an odd SLIT diagonal */
    fix_checksum(fx.slit);
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    memset(&info, 0, sizeof(info));
    assert_true(acpi_numa_map_init(&map, ACPI_NUMA_MAX_CPUS));
    acpi_fill_info(&t, &info, &map, &msgs);
    assert_true(msgs_contain(&msgs, "has length 0"));
    assert_true(msgs_contain(&msgs, "SRAT not used: NUMA nodes unknown"));
    assert_true(msgs_contain(&msgs, "distance 0 -> 0 is 11"));
    assert_false(info.has_srat);
    assert_int_equal(info.numa_nodes, 0);
    assert_int_equal(acpi_numa_node_of(&map, 0), -1);
    assert_true(info.has_madt);
    assert_int_equal(info.madt_cpus_enabled, 80);
    assert_true(info.has_slit);
    acpi_numa_map_release(&map);
    free_fixture(&fx);
}

/* r820: domains numbered 1-4, a 5-locality SLIT whose locality 0 is unused */
static void test_fill_info_r820(void **state)
{
    static struct fixture fx;
    struct acpi_tables t;
    struct acpi_info info;
    struct acpi_numa_map map;
    struct msg_list msgs = { .count = 0 };
    (void)state;
    LOAD_FIXTURE(&fx, "dell-r820");
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    memset(&info, 0, sizeof(info));
    assert_true(acpi_numa_map_init(&map, ACPI_NUMA_MAX_CPUS));
    acpi_fill_info(&t, &info, &map, &msgs);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(info.madt_cpus_enabled, 80);
    assert_int_equal(info.numa_nodes, 4);
    assert_int_equal(acpi_numa_node_of(&map, 0), 1);
    assert_int_equal(acpi_numa_node_of(&map, 121), 4);
    assert_int_equal(acpi_numa_node_of(&map, 208), -1);
    assert_int_equal(map.localities, 5);
    assert_int_equal(acpi_numa_distance(&map, 1, 3), 30);
    assert_int_equal(acpi_numa_distance(&map, 2, 2), 10);
    acpi_numa_map_release(&map);
    free_fixture(&fx);
}

static void test_rsdp_v1_uses_rsdt(void **state)
{
    static struct fixture fx;
    struct acpi_tables t;
    struct msg_list msgs = { .count = 0 };
    (void)state;
    LOAD_FIXTURE(&fx, "supermicro-h8dgu");
    fx.rsdp[15] = 0; /* ACPI 1.0: only the first 20 bytes exist */
    finish_rsdp(fx.rsdp);
    fx.phys.r[0].len = 20;
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_false(t.xsdt);
    assert_string_equal(t.oem_table_id, "RSDTONLY");
    assert_non_null(t.madt.data);
    assert_int_equal(msgs.count, 0);
    free_fixture(&fx);
}

static void test_rsdp_corruption(void **state)
{
    static struct fixture fx;
    struct acpi_tables t;
    struct msg_list msgs = { .count = 0 };
    (void)state;
    LOAD_FIXTURE(&fx, "supermicro-x10dai");

    /* extended checksum wrong: the XSDT is not trusted, the RSDT is used */
    fx.rsdp[32] ^= 0x55;
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_false(t.xsdt);
    assert_true(msgs_contain(&msgs, "extended checksum"));

    /* first checksum wrong: nothing is trusted */
    finish_rsdp(fx.rsdp);
    fx.rsdp[8] ^= 1;
    msgs.count = 0;
    assert_false(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_true(msgs_contain(&msgs, "RSDP checksum"));
    assert_null(t.madt.data);

    /* no signature */
    finish_rsdp(fx.rsdp);
    memcpy(fx.rsdp, "RSD PTX ", 8);
    msgs.count = 0;
    assert_false(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_true(msgs_contain(&msgs, "signature"));

    /* RSDP not mapped at all */
    msgs.count = 0;
    assert_false(acpi_find_tables(0x1234, fake_map, &fx.phys, &t, &msgs));
    assert_true(msgs_contain(&msgs, "cannot be read"));

    /* an absurd RSDP Length */
    memcpy(fx.rsdp, "RSD PTR ", 8);
    put32(fx.rsdp + 20, 0x7fffffff);
    finish_rsdp(fx.rsdp);
    msgs.count = 0;
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_false(t.xsdt);
    assert_true(msgs_contain(&msgs, "Length"));
    free_fixture(&fx);
}

static void test_root_corruption(void **state)
{
    static struct fixture fx;
    struct acpi_tables t;
    struct msg_list msgs = { .count = 0 };
    (void)state;
    LOAD_FIXTURE(&fx, "supermicro-x10dai");

    /* XSDT checksum wrong: falls back to the RSDT */
    fx.xsdt[40] ^= 1;
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_false(t.xsdt);
    assert_true(msgs_contain(&msgs, "XSDT 'XSDT'"));
    assert_non_null(t.srat.data);

    /* both roots broken: no tables */
    fx.rsdt[40] ^= 1;
    msgs.count = 0;
    assert_false(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_true(msgs_contain(&msgs, "no usable XSDT or RSDT"));
    fx.rsdt[40] ^= 1;
    fx.xsdt[40] ^= 1;

    /* a listed table with a bad checksum is left out, the others stay */
    fx.srat[100] ^= 0x80;
    msgs.count = 0;
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_null(t.srat.data);
    assert_non_null(t.madt.data);
    assert_true(msgs_contain(&msgs, "SRAT"));
    assert_true(msgs_contain(&msgs, "checksum"));
    fx.srat[100] ^= 0x80;

    /* a listed table that cannot be mapped, and one whose Length is absurd */
    put64(fx.xsdt + 36 + 8 * 5, 0xdead0000ull);
    put32(fx.slit + 4, 0xffffffffu);
    fix_checksum(fx.xsdt);
    msgs.count = 0;
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_true(msgs_contain(&msgs, "0xdead0000"));
    assert_true(msgs_contain(&msgs, "Length 4294967295 out of range"));
    assert_null(t.slit.data);

    /* XSDT Length larger than the memory behind it */
    put32(fx.xsdt + 4, 4096);
    msgs.count = 0;
    assert_true(acpi_find_tables(PHYS_RSDP, fake_map, &fx.phys, &t, &msgs));
    assert_false(t.xsdt);
    free_fixture(&fx);
}

/* ---- FADT variants ---- */

static void test_fadt_pm_timer(void **state)
{
    uint8_t f[276];
    struct acpi_fadt_info fi;
    struct msg_list msgs = { .count = 0 };
    (void)state;
    build_fadt(f, sizeof(f), 0x408, 1, 0x608, 1u << 8);
    assert_true(acpi_fadt_parse(f, sizeof(f), &fi, &msgs));
    assert_int_equal(fi.pm_timer_port, 0x608); /* the X_ field wins */
    assert_true(fi.pm_timer_from_x);
    assert_true(fi.pm_timer_32bit);

    build_fadt(f, sizeof(f), 0x408, 0, 0, 0); /* X_PM_TMR_BLK empty */
    assert_true(acpi_fadt_parse(f, sizeof(f), &fi, &msgs));
    assert_int_equal(fi.pm_timer_port, 0x408);
    assert_false(fi.pm_timer_from_x);
    assert_false(fi.pm_timer_32bit);

    build_fadt(f, sizeof(f), 0x408, 0, 0xfed00000ull, 0); /* X in memory space: legacy port */
    assert_true(acpi_fadt_parse(f, sizeof(f), &fi, &msgs));
    assert_int_equal(fi.pm_timer_port, 0x408);

    build_fadt(f, sizeof(f), 0, 0, 0xfed00000ull, 0); /* memory space only: no port */
    assert_true(acpi_fadt_parse(f, sizeof(f), &fi, &msgs));
    assert_int_equal(fi.pm_timer_port, 0);
    assert_true(msgs_contain(&msgs, "address space 0"));

    build_fadt(f, 116, 0x808, 0, 0, 1u << 8); /* ACPI 1.0 size */
    assert_true(acpi_fadt_parse(f, 116, &fi, &msgs));
    assert_int_equal(fi.pm_timer_port, 0x808);
    assert_true(fi.pm_timer_32bit);
    /* C2/C3 latencies (offsets 96, 98): 18 us, and 1001 (> 1000: no C3) as published */
    f[96] = 18;
    f[97] = 0;
    f[98] = 0xe9;
    f[99] = 0x03;
    fix_checksum(f);
    assert_true(acpi_fadt_parse(f, 116, &fi, &msgs));
    assert_int_equal(fi.p_lvl2_lat, 18);
    assert_int_equal(fi.p_lvl3_lat, 1001);

    build_fadt(f, sizeof(f), 0x408, 1, 0x608, 1u << 20); /* HW-reduced: no PM timer */
    assert_true(acpi_fadt_parse(f, sizeof(f), &fi, &msgs));
    assert_true(fi.hw_reduced);
    assert_int_equal(fi.pm_timer_port, 0);

    msgs.count = 0;
    build_fadt(f, 100, 0x408, 0, 0, 0); /* shorter than the 1.0 FADT */
    assert_false(acpi_fadt_parse(f, 100, &fi, &msgs));
    assert_true(msgs_contain(&msgs, "FACP: Length 100"));
    assert_int_equal(fi.pm_timer_port, 0);
}

/* ---- corruption of the real tables ---- */

static void test_header_checks(void **state)
{
    uint8_t t[64];
    (void)state;
    make_header(t, "APIC", 44, 1, "OEMOEM", "TABLE ID");
    fix_checksum(t);
    assert_int_equal(acpi_check_header(t, 44, "APIC"), ACPI_OK);
    assert_int_equal(acpi_check_header(t, 44, NULL), ACPI_OK);
    assert_int_equal(acpi_check_header(t, 35, "APIC"), ACPI_TOO_SHORT);
    assert_int_equal(acpi_check_header(NULL, 100, "APIC"), ACPI_TOO_SHORT);
    assert_int_equal(acpi_check_header(t, 44, "SRAT"), ACPI_BAD_SIGNATURE);
    assert_int_equal(acpi_check_header(t, 43, "APIC"), ACPI_BAD_LENGTH);
    put32(t + 4, 20);
    fix_checksum(t);
    assert_int_equal(acpi_check_header(t, 44, "APIC"), ACPI_BAD_LENGTH);
    put32(t + 4, 44);
    fix_checksum(t);
    t[20] ^= 1;
    assert_int_equal(acpi_check_header(t, 44, "APIC"), ACPI_BAD_CHECKSUM);
    assert_string_equal(acpi_check_text(ACPI_BAD_CHECKSUM), "checksum does not add up to 0");
}

static void test_madt_corruption(void **state)
{
    struct acpi_madt_summary s;
    struct msg_list msgs = { .count = 0 };
    uint32_t ids[64];
    size_t len;
    uint8_t *t;
    (void)state;
    LOAD_TABLE(t, len, "supermicro-h8dgu", "apic");

    /* a flipped bit: bad checksum */
    t[60] ^= 0x10;
    assert_false(acpi_madt_parse(t, len, &s, NULL, NULL, &msgs));
    assert_true(msgs_contain(&msgs, "APIC: checksum does not add up to 0; table ignored"));
    assert_int_equal(s.cpus_enabled, 0);
    assert_int_equal(acpi_madt_apic_ids(t, len, true, ids, 64, NULL), 0);
    t[60] ^= 0x10;

    /* the buffer is shorter than the header Length (truncated table) */
    msgs.count = 0;
    assert_false(acpi_madt_parse(t, 200, &s, NULL, NULL, &msgs));
    assert_true(msgs_contain(&msgs, "Length 356, 200 bytes available"));

    /* the header Length cut short (checksum fixed): the walk stops at the table end */
    msgs.count = 0;
    put32(t + 4, 44 + 8 * 5 + 3);
    fix_checksum(t);
    assert_false(acpi_madt_parse(t, len, &s, NULL, NULL, &msgs));
    assert_int_equal(s.by_type[0], 5);
    assert_true(msgs_contain(&msgs, "is 8 bytes but only 3 remain"));
    free(t);

    /* the last entry claims more bytes than the table has */
    LOAD_TABLE(t, len, "supermicro-h8dgu", "apic");
    msgs.count = 0;
    {
        uint32_t off = 44, last = 44;
        while (off < len) {
            last = off;
            off += t[off + 1];
        }
        t[last + 1] = 200;
        fix_checksum(t);
        assert_false(acpi_madt_parse(t, len, &s, NULL, NULL, &msgs));
        assert_true(msgs_contain(&msgs, "is 200 bytes but only"));
        assert_int_equal(s.cpus_enabled, 24); /* the CPU entries come first */
        /* the IDs before the bad entry are still collected */
        assert_int_equal(acpi_madt_apic_ids(t, len, true, ids, 64, NULL), 24);
    }
    free(t);

    /* a zero-length entry in the middle must not loop forever */
    LOAD_TABLE(t, len, "supermicro-h8dgu", "apic");
    msgs.count = 0;
    t[44 + 8 * 3 + 1] = 0;
    fix_checksum(t);
    assert_false(acpi_madt_parse(t, len, &s, NULL, NULL, &msgs));
    assert_int_equal(s.entries, 3);
    assert_true(msgs_contain(&msgs, "entry 3 (type 0) at offset 68 has length 0"));
    /* length 1 is as bad */
    t[44 + 8 * 3 + 1] = 1;
    fix_checksum(t);
    assert_false(acpi_madt_parse(t, len, &s, NULL, NULL, &msgs));

    /* a CPU entry too short for its type is skipped, the walk goes on */
    msgs.count = 0;
    t[44 + 8 * 3 + 1] = 8;
    t[44 + 8 * 3] = ACPI_MADT_LOCAL_X2APIC; /* type 9 needs 16 bytes */
    fix_checksum(t);
    assert_false(acpi_madt_parse(t, len, &s, NULL, NULL, &msgs));
    assert_int_equal(s.cpus_enabled, 23);
    assert_true(msgs_contain(&msgs, "only 8 bytes; skipped"));
    free(t);
}

static void test_madt_x2apic_entries(void **state)
{
    /* synthetic MADT revision 5: LAPIC 0 enabled, x2APIC 256 enabled, x2APIC 300 online
     * capable, x2APIC 301 disabled, plus an unknown type 0x80 entry */
    uint8_t t[44 + 8 + 16 * 3 + 4];
    struct acpi_madt_summary s;
    static struct cpu_log log;
    struct msg_list msgs = { .count = 0 };
    uint8_t *e;
    (void)state;
    memset(t, 0, sizeof(t));
    make_header(t, "APIC", sizeof(t), 5, "QEMUQE", "QEMUMADT");
    put32(t + 36, 0xfee00000u);
    e = t + 44;
    e[0] = 0, e[1] = 8, e[2] = 0, e[3] = 0, put32(e + 4, 1);
    e += 8;
    e[0] = 9, e[1] = 16, put32(e + 4, 256), put32(e + 8, 1), put32(e + 12, 1);
    e += 16;
    e[0] = 9, e[1] = 16, put32(e + 4, 300), put32(e + 8, 2), put32(e + 12, 2);
    e += 16;
    e[0] = 9, e[1] = 16, put32(e + 4, 301), put32(e + 8, 0), put32(e + 12, 3);
    e += 16;
    e[0] = 0x80, e[1] = 4;
    fix_checksum(t);
    log.n = 0;
    assert_true(acpi_madt_parse(t, sizeof(t), &s, log_cpu, &log, &msgs));
    assert_int_equal(s.by_type[9], 3);
    assert_int_equal(s.other_types, 1);
    assert_int_equal(s.cpus_enabled, 2);
    assert_int_equal(s.cpus_online_capable, 1);
    assert_int_equal(s.cpus_disabled, 1);
    assert_int_equal(log.n, 4);
    assert_int_equal(log.cpus[1].apic_id, 256);
    assert_int_equal(log.cpus[1].uid, 1);
    assert_true(log.cpus[2].online_capable);
    assert_false(log.cpus[3].online_capable);
    /* before revision 5 bit 1 is reserved: not online capable */
    t[8] = 4;
    fix_checksum(t);
    assert_true(acpi_madt_parse(t, sizeof(t), &s, NULL, NULL, &msgs));
    assert_int_equal(s.cpus_online_capable, 0);
    assert_int_equal(s.cpus_disabled, 2);
}

static void test_srat_corruption(void **state)
{
    struct acpi_srat_summary s;
    struct acpi_numa_map map;
    struct msg_list msgs = { .count = 0 };
    size_t len;
    uint8_t *t;
    (void)state;
    LOAD_TABLE(t, len, "dell-r820", "srat");
    /* zero-length entry after 10 CPU entries */
    t[48 + 16 * 10 + 1] = 0;
    fix_checksum(t);
    assert_false(acpi_srat_parse(t, len, &s, NULL, NULL, &msgs));
    assert_int_equal(s.entries, 10);
    assert_true(msgs_contain(&msgs, "SRAT: entry 10 (type 0) at offset 208 has length 0"));
    /* the map keeps the CPUs before the bad entry */
    assert_true(acpi_numa_map_init(&map, 64));
    assert_false(acpi_numa_map_add_srat(&map, t, len, NULL));
    assert_int_equal(map.count, 10);
    acpi_numa_map_release(&map);
    /* truncated buffer */
    msgs.count = 0;
    assert_false(acpi_srat_parse(t, 47, &s, NULL, NULL, &msgs));
    assert_true(msgs_contain(&msgs, "SRAT: header Length out of range (Length 1984, 47 bytes"));
    /* wrong signature */
    msgs.count = 0;
    assert_false(acpi_srat_parse(t, len, &s, NULL, NULL, &msgs));
    t[0] = 'X';
    assert_false(acpi_srat_parse(t, len, &s, NULL, NULL, &msgs));
    assert_true(msgs_contain(&msgs, "SRAT: wrong signature"));
    free(t);

    /* a memory entry shortened to 16 bytes (the rest padded as an unknown entry) */
    LOAD_TABLE(t, len, "supermicro-h8dgu", "srat");
    {
        uint32_t off = 48;
        while (off < len && t[off] != ACPI_SRAT_MEMORY_AFFINITY)
            off += t[off + 1];
        assert_true(off < len);
        t[off + 1] = 16;
        t[off + 16] = 0x7f;
        t[off + 17] = 24;
        fix_checksum(t);
        msgs.count = 0;
        assert_false(acpi_srat_parse(t, len, &s, NULL, NULL, &msgs));
        assert_true(msgs_contain(&msgs, "type 1 entry at offset"));
        assert_int_equal(s.other_types, 1);
        assert_int_equal(s.cpus_enabled, 24);
    }
    free(t);
}

/* an aarch64 SRAT: GICC Affinity entries (type 3, 18 bytes: domain @2, ACPI Processor UID @6,
 * flags @10) as an Altra in quadrant mode lists them, one disabled; each reaches the callback
 * with its UID and domain, and x86's APIC map takes none of them */
struct gicc_seen {
    uint32_t uid[4], domain[4], n, disabled;
};

static void gicc_entries(void *ctx, const struct acpi_srat_entry *e)
{
    struct gicc_seen *g = ctx;
    if (e->type != ACPI_SRAT_GICC_AFFINITY)
        return;
    if (!e->enabled) {
        g->disabled++;
        return;
    }
    g->uid[g->n] = e->uid;
    g->domain[g->n++] = e->domain;
}

static void test_srat_gicc_affinity(void **state)
{
    uint8_t t[48 + 4 * 18 + 40];
    uint8_t *e = t + 48;
    struct acpi_srat_summary s;
    struct gicc_seen g;
    struct acpi_numa_map map;
    uint32_t i;
    (void)state;
    memset(t, 0, sizeof(t));
    memset(&g, 0, sizeof(g));
    make_header(t, "SRAT", sizeof(t), 3, "OEMOEM", "SRATTEST");
    put32(t + 36, 1);
    for (i = 0; i < 4; i++, e += 18) {
        e[0] = ACPI_SRAT_GICC_AFFINITY, e[1] = 18;
        put32(e + 2, i / 2 + 2);     /* domains 2, 2, 3, 3 */
        put32(e + 6, 0x100 + i);     /* UIDs 0x100.. */
        put32(e + 10, i == 3 ? 0 : 1); /* the last disabled */
    }
    e[0] = ACPI_SRAT_MEMORY_AFFINITY, e[1] = 40, put32(e + 2, 2), put32(e + 28, 1);
    fix_checksum(t);
    assert_true(acpi_srat_parse(t, sizeof(t), &s, gicc_entries, &g, NULL));
    assert_int_equal(s.by_type[ACPI_SRAT_GICC_AFFINITY], 4);
    assert_int_equal(s.cpus_enabled, 3);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.disabled, 1);
    for (i = 0; i < 3; i++) {
        assert_int_equal(g.uid[i], 0x100 + i);
        assert_int_equal(g.domain[i], i / 2 + 2);
    }
    assert_true(acpi_numa_map_init(&map, 16));
    assert_true(acpi_numa_map_add_srat(&map, t, sizeof(t), NULL));
    assert_int_equal(map.count, 0);
    acpi_numa_map_release(&map);
}

static void test_srat_wide_domains(void **state)
{
    /* revision 3: domain 0x123456 split as low byte @2 and high bytes @9..11; revision 1
     * ignores the high bytes (ACPI 2.0 had 8-bit domains) */
    uint8_t t[48 + 16 + 24];
    struct acpi_numa_map map;
    uint8_t *e = t + 48;
    (void)state;
    memset(t, 0, sizeof(t));
    make_header(t, "SRAT", sizeof(t), 3, "OEMOEM", "SRATTEST");
    put32(t + 36, 1);
    e[0] = 0, e[1] = 16, e[2] = 0x56, e[3] = 7, put32(e + 4, 1), e[9] = 0x34, e[10] = 0x12;
    e += 16;
    e[0] = 2, e[1] = 24, put32(e + 4, 5), put32(e + 8, 300), put32(e + 12, 1);
    fix_checksum(t);
    assert_true(acpi_numa_map_init(&map, 16));
    assert_true(acpi_numa_map_add_srat(&map, t, sizeof(t), NULL));
    assert_int_equal(acpi_numa_node_of(&map, 7), 0x123456);
    assert_int_equal(acpi_numa_node_of(&map, 300), 5);
    assert_int_equal(map.domains, 2);
    acpi_numa_map_release(&map);

    t[8] = 1;
    fix_checksum(t);
    assert_true(acpi_numa_map_init(&map, 16));
    assert_true(acpi_numa_map_add_srat(&map, t, sizeof(t), NULL));
    assert_int_equal(acpi_numa_node_of(&map, 7), 0x56);
    acpi_numa_map_release(&map);

    /* the same APIC ID twice (type 0 and type 2): the first one counts */
    t[8] = 3;
    put32(t + 48 + 16 + 8, 7);
    fix_checksum(t);
    assert_true(acpi_numa_map_init(&map, 16));
    assert_true(acpi_numa_map_add_srat(&map, t, sizeof(t), NULL));
    assert_int_equal(map.count, 1);
    assert_int_equal(map.duplicates, 1);
    assert_int_equal(acpi_numa_node_of(&map, 7), 0x123456);
    acpi_numa_map_release(&map);

    /* a domain above INT32_MAX is reported as unknown rather than negative */
    put32(t + 48 + 16 + 4, 0x80000000u);
    put32(t + 48 + 16 + 8, 9);
    fix_checksum(t);
    assert_true(acpi_numa_map_init(&map, 16));
    assert_true(acpi_numa_map_add_srat(&map, t, sizeof(t), NULL));
    assert_int_equal(acpi_numa_node_of(&map, 9), -1);
    acpi_numa_map_release(&map);
}

static void test_slit_corruption(void **state)
{
    struct acpi_slit s;
    struct acpi_numa_map map;
    struct msg_list msgs = { .count = 0 };
    size_t len;
    uint8_t *t;
    (void)state;
    LOAD_TABLE(t, len, "dell-r820", "slit");
    /* more localities than bytes */
    put64(t + 36, 6);
    fix_checksum(t);
    assert_false(acpi_slit_parse(t, len, &s, &msgs));
    assert_true(msgs_contain(&msgs, "6 localities need 36 matrix bytes but the table has 25"));
    /* a count whose square overflows 64 bits */
    put64(t + 36, 0x100000001ull);
    fix_checksum(t);
    assert_false(acpi_slit_parse(t, len, &s, &msgs));
    put64(t + 36, 0);
    fix_checksum(t);
    assert_false(acpi_slit_parse(t, len, &s, &msgs));
    assert_int_equal(acpi_slit_distance(&s, 0, 0), 0);
    /* odd values are reported but kept */
    put64(t + 36, 5);
    t[44] = 5;
    fix_checksum(t);
    msgs.count = 0;
    assert_true(acpi_numa_map_init(&map, 4));
    assert_true(acpi_numa_map_add_slit(&map, t, len, &msgs));
    assert_true(msgs_contain(&msgs, "distance 0 -> 0 is 5"));
    assert_int_equal(msgs.count, 1);
    assert_int_equal(acpi_numa_distance(&map, 0, 0), 5);
    acpi_numa_map_release(&map);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_madt_x10dai),
        cmocka_unit_test(test_madt_smci),
        cmocka_unit_test(test_madt_h8dgu),
        cmocka_unit_test(test_madt_r820),
        cmocka_unit_test(test_srat_x10dai),
        cmocka_unit_test(test_srat_smci),
        cmocka_unit_test(test_srat_h8dgu),
        cmocka_unit_test(test_srat_r820),
        cmocka_unit_test(test_h8dgu_domain_order),
        cmocka_unit_test(test_numa_map_capacity),
        cmocka_unit_test(test_find_tables_xsdt),
        cmocka_unit_test(test_fill_info_r820),
        cmocka_unit_test(test_fill_info_bad_srat),
        cmocka_unit_test(test_rsdp_v1_uses_rsdt),
        cmocka_unit_test(test_rsdp_corruption),
        cmocka_unit_test(test_root_corruption),
        cmocka_unit_test(test_fadt_pm_timer),
        cmocka_unit_test(test_header_checks),
        cmocka_unit_test(test_madt_corruption),
        cmocka_unit_test(test_madt_x2apic_entries),
        cmocka_unit_test(test_srat_corruption),
        cmocka_unit_test(test_srat_wide_domains),
        cmocka_unit_test(test_srat_gicc_affinity),
        cmocka_unit_test(test_slit_corruption),
    };
    host_init();
    return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
