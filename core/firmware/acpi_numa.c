/* The NUMA map: APIC ID -> proximity domain from the SRAT, distances from the SLIT. */
#include "core/firmware/acpi_internal.h"
#include "core/lib/mem.h"

bool acpi_numa_map_init(struct acpi_numa_map *m, uint32_t capacity)
{
    mem_zero(m, sizeof(*m));
    if (capacity > ACPI_NUMA_MAX_CPUS)
        capacity = ACPI_NUMA_MAX_CPUS;
    m->cpus = mem_alloc((size_t)capacity * sizeof(m->cpus[0]));
    if (!m->cpus)
        return false;
    m->capacity = capacity;
    return true;
}

void acpi_numa_map_release(struct acpi_numa_map *m)
{
    mem_free(m->cpus);
    mem_free(m->distance);
    mem_zero(m, sizeof(*m));
}

/* Index of the first entry with apic_id >= id (cpus[] is kept sorted). */
static uint32_t lower_bound(const struct acpi_numa_map *m, uint32_t id)
{
    uint32_t lo = 0, hi = m->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->cpus[mid].apic_id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool domain_seen_before(const struct acpi_numa_map *m, uint32_t upto, uint32_t domain)
{
    uint32_t i;
    for (i = 0; i < upto; i++)
        if (m->cpus[i].domain == domain)
            return true;
    return false;
}

static void recount_domains(struct acpi_numa_map *m)
{
    uint32_t i;
    m->domains = 0;
    /* quadratic only in the worst case; runs once over at most 4096 entries */
    for (i = 0; i < m->count; i++)
        if (!domain_seen_before(m, i, m->cpus[i].domain))
            m->domains++;
}

static void add_cpu(void *ctx, const struct acpi_srat_entry *e)
{
    struct acpi_numa_map *m = ctx;
    uint32_t pos, i;
    /* x86's CPUs by APIC ID: an aarch64 GICC entry names a UID (core/run/topo_run_arm64.c) */
    if ((e->type != ACPI_SRAT_CPU_AFFINITY && e->type != ACPI_SRAT_X2APIC_AFFINITY) || !e->enabled)
        return;
    pos = lower_bound(m, e->apic_id);
    if (pos < m->count && m->cpus[pos].apic_id == e->apic_id) {
        m->duplicates++; /* e.g. listed as both type 0 and type 2: the first one stays */
        return;
    }
    if (m->count >= m->capacity) {
        m->dropped++;
        return;
    }
    /* insertion keeps cpus[] sorted; SRATs list CPUs mostly in order, so moves are short */
    for (i = m->count; i > pos; i--)
        m->cpus[i] = m->cpus[i - 1];
    m->cpus[pos].apic_id = e->apic_id;
    m->cpus[pos].domain = e->domain;
    m->count++;
}

bool acpi_numa_map_add_srat(struct acpi_numa_map *m, const void *srat, size_t len,
                            struct msg_list *msgs)
{
    struct acpi_srat_summary sum;
    bool ok;
    if (!m->cpus)
        return false;
    ok = acpi_srat_parse(srat, len, &sum, add_cpu, m, msgs);
    recount_domains(m);
    if (m->dropped)
        acpi_msg(msgs, "SRAT: %u enabled CPU entries beyond the first %u were not recorded",
                 m->dropped, m->capacity);
    if (m->duplicates)
        acpi_msg(msgs, "SRAT: %u APIC IDs are listed more than once; the first entry counts",
                 m->duplicates);
    return ok;
}

bool acpi_numa_map_add_slit(struct acpi_numa_map *m, const void *slit, size_t len,
                            struct msg_list *msgs)
{
    struct acpi_slit s;
    uint32_t n, i, j;
    bool odd = false;
    if (!acpi_slit_parse(slit, len, &s, msgs))
        return false;
    if (s.localities > ACPI_NUMA_MAX_LOCALITIES) {
        acpi_msg(msgs, "SLIT: %llu localities, more than the %u kept; distances not recorded",
                 (unsigned long long)s.localities, ACPI_NUMA_MAX_LOCALITIES);
        return false;
    }
    n = (uint32_t)s.localities;
    mem_free(m->distance);
    m->localities = 0;
    m->distance = mem_alloc((size_t)n * n);
    if (!m->distance)
        return false;
    for (i = 0; i < n && !odd; i++) {
        for (j = 0; j < n && !odd; j++) {
            uint8_t d = acpi_slit_distance(&s, i, j);
            /* 5.2.17: 10 on the diagonal, 0-9 reserved, 255 unreachable */
            if ((i == j && d != 10) || (i != j && d < 10)) {
                acpi_msg(msgs, "SLIT: distance %u -> %u is %u, outside the rules (10 to itself, "
                         "more than 10 elsewhere); kept as given", i, j, d);
                odd = true; /* one message is enough */
            }
        }
    }
    mem_copy(m->distance, s.matrix, (size_t)n * n);
    m->localities = n;
    return true;
}

int32_t acpi_numa_node_of(const struct acpi_numa_map *m, uint32_t apic_id)
{
    uint32_t pos;
    if (!m || !m->cpus)
        return -1;
    pos = lower_bound(m, apic_id);
    if (pos >= m->count || m->cpus[pos].apic_id != apic_id || m->cpus[pos].domain > INT32_MAX)
        return -1;
    return (int32_t)m->cpus[pos].domain;
}

uint32_t acpi_numa_distance(const struct acpi_numa_map *m, uint32_t from, uint32_t to)
{
    if (!m || !m->distance || from >= m->localities || to >= m->localities)
        return 0;
    return m->distance[from * m->localities + to];
}
