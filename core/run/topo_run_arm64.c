/* Where each CPU of an aarch64 run sits, from the PPTT or the MPIDRs, its NUMA node from the
 * SRAT: see run_arm64.h. */
#include "core/run/run_arm64.h"

#include "core/firmware/acpi.h"
#include "core/firmware/acpi_pptt.h"
#include "core/lib/bytes.h"

/* the SRAT's GICC Affinity entries onto the CPUs of the same ACPI Processor UID */
struct srat_nodes {
    struct arm64_run *run;
    int64_t node[A64_MAX_TOPO];
};

static void gicc_node(void *ctx, const struct acpi_srat_entry *e)
{
    struct srat_nodes *s = ctx;
    uint32_t i;
    if (e->type != ACPI_SRAT_GICC_AFFINITY || !e->enabled)
        return;
    for (i = 0; i < s->run->ntopo; i++)
        if (s->run->topo[i].uid == e->uid && s->node[i] < 0)
            s->node[i] = e->domain;
}

/* every CPU's node from the SRAT, as Linux's acpi_numa_gicc_affinity_init() takes them;
 * false (no node for any) without an SRAT or where it leaves a CPU out: a partial map would
 * read the CPUs it misses as one node */
static bool srat_places(struct arm64_run *run)
{
    static struct srat_nodes s;
    struct acpi_srat_summary sum;
    uint32_t i;
    if (!run->srat)
        return false;
    s.run = run;
    for (i = 0; i < run->ntopo; i++)
        s.node[i] = -1;
    if (!acpi_srat_parse(run->srat, le32_at(run->srat + 4), &sum, gicc_node, &s, &run->warnings))
        return false;
    for (i = 0; i < run->ntopo; i++)
        if (s.node[i] < 0)
            return false;
    for (i = 0; i < run->ntopo; i++)
        run->topo[i].place.node = s.node[i];
    return true;
}

void a64_topology_places(struct arm64_run *run)
{
    bool mt = (run->cpu.mpidr & MPIDR_MT_BIT) != 0;
    struct pptt_cpu c[A64_MAX_TOPO];
    uint32_t i, n = 0;
    bool from_pptt;
    /* the firmware's table, read up to its own Length: acpi_pptt_cpu checks it and its checksum */
    for (i = 0; run->pptt && i < run->ntopo; i++, n++)
        if (!acpi_pptt_cpu(run->pptt, le32_at(run->pptt + 4), run->topo[i].uid, &c[i], &run->warnings))
            break;
    from_pptt = run->pptt && n == run->ntopo;
    for (i = 0; i < run->ntopo; i++) {
        struct a64_place *p = &run->topo[i].place;
        if (from_pptt) {
            p->cpu = c[i].leaf;
            p->core = c[i].core;
            p->cluster = c[i].cluster;
            p->package = c[i].package;
            p->has_cluster = c[i].cluster != 0;
            p->node = -1;
        } else {
            a64_place_from_mpidr(run->topo[i].mpidr, mt, p);
        }
    }
    if (srat_places(run))
        run->class_source = from_pptt ? "pptt+srat" : "mpidr+srat";
    else
        run->class_source = from_pptt ? "pptt" : "mpidr";
}
