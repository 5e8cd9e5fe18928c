/* The aarch64 app's CPUs and per-CPU slots from the MADT: see bringup_arm64.h. */
#include "core/run/bringup_arm64.h"

#include "asm/sysreg.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/mutant.h"

static bool usable(const struct a64_madt_cpu *c)
{
    return (c->flags & (GICC_ENABLED | GICC_ONLINE_CAPABLE)) != 0;
}

static bool is_bsp(const struct a64_madt_cpu *c, uint64_t bsp)
{
    return (c->mpidr & MPIDR_AFF_MASK) == bsp;
}

unsigned a64_slots_needed(const struct a64_madt_cpu *madt, unsigned n, uint64_t bsp, unsigned limit,
                          unsigned *beyond)
{
    unsigned i, others = 0;
    for (i = 0; i < n; i++)
        others += usable(&madt[i]) && !is_bsp(&madt[i], bsp);
    /* the BSP's slot first: it is there whether or not the MADT lists it among its first
     * entries (the run started on it) */
    *beyond = others + 1 > limit ? others + 1 - limit : 0;
    return others + 1 - *beyond;
}

/* the next topology row, for MADT CPU c (NULL: the BSP's own row), no slot yet */
static struct a64_topo_cpu *row(struct arm64_run *run, const struct a64_madt_cpu *c)
{
    struct a64_topo_cpu *t = run->ntopo < A64_MAX_TOPO ? &run->topo[run->ntopo++] : NULL;
    if (t && c) {
        t->mpidr = c->mpidr & MPIDR_AFF_MASK;
        t->uid = c->uid;
        t->percpu = -1;
    }
    return t;
}

unsigned a64_topology_build(struct arm64_run *run, const struct a64_madt_cpu *madt, unsigned n, uint64_t bsp,
                            unsigned slots, uint64_t *slot_mpidr, const char *not_started)
{
    unsigned i, filled = 1, usable_n = 0, bsp_at = n;
    struct a64_topo_cpu *t = row(run, NULL);
    for (i = 0; i < slots; i++)
        slot_mpidr[i] = A64_NO_MPIDR;
    slot_mpidr[0] = bsp;
    for (i = 0; i < n; i++) {
        usable_n += usable(&madt[i]);
        if (is_bsp(&madt[i], bsp) && bsp_at == n)
            bsp_at = i;
    }
    t->mpidr = bsp;
    t->percpu = 0;
    t->bring_up = "bsp";
    t->uid = bsp_at < n ? madt[bsp_at].uid : 0;
    if (bsp_at == n)
        str_copy(t->note, sizeof(t->note), "the MADT lists no GICC with the BSP's MPIDR");
    for (i = 0; i < n; i++) {
        const struct a64_madt_cpu *c = &madt[i];
        if (i == bsp_at || !usable(c))
            continue;
        t = row(run, c);
        if (!t)
            break;
        if (not_started) {
            t->state = A64_CPU_ABSENT;
            fmt_into(t->note, sizeof(t->note), "not started: %s", not_started);
            run->partial = true;
        } else if (filled < slots) {
            /* the slot is the CPU's place among the usable non-BSP GICCs, + 1 for the BSP's:
             * a CPU listed before the BSP moves up one (mutant 136: it keeps its MADT place
             * and a BSP-late MADT overwrites the BSP's slot 0) */
            unsigned s = MUTANT(a64_bsp_late_slot) && i < bsp_at ? filled - 1 : filled;
            slot_mpidr[s] = t->mpidr;
            t->percpu = (int)filled++;
            t->bring_up = "psci";
        } else {
            t->state = A64_CPU_ABSENT;
            fmt_into(t->note, sizeof(t->note), "not started: the MADT lists %u usable CPUs, this build handles %u",
                     usable_n + (bsp_at == n), slots);
            run->partial = true;
        }
    }
    for (i = 0; i < n; i++) {
        const struct a64_madt_cpu *c = &madt[i];
        if (i == bsp_at || usable(c))
            continue;
        t = row(run, c);
        if (!t)
            break;
        t->state = A64_CPU_DISABLED;
        str_copy(t->note, sizeof(t->note), "MADT GICC neither enabled nor online capable");
    }
    run->every_cpu_started = filled == usable_n + (bsp_at == n) && run->ntopo == n + (bsp_at == n);
    return filled;
}
