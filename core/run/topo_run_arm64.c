/* Where each CPU of an aarch64 run sits, from the PPTT or the MPIDRs: see run_arm64.h. */
#include "core/run/run_arm64.h"

#include "core/firmware/acpi_pptt.h"
#include "core/lib/bytes.h"

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
    run->class_source = from_pptt ? "pptt" : "mpidr";
    for (i = 0; i < run->ntopo; i++) {
        struct a64_place *p = &run->topo[i].place;
        if (from_pptt) {
            p->cpu = c[i].leaf;
            p->core = c[i].core;
            p->cluster = c[i].cluster;
            p->package = c[i].package;
            p->has_cluster = c[i].cluster != 0;
        } else {
            a64_place_from_mpidr(run->topo[i].mpidr, mt, p);
        }
    }
}
