/*
 * The GIC's part of the aarch64 run record: see run_arm64.h. Shared by the app
 * (efi/arm64/main.c) and its run on the model (sim/arm64/app.c), so a GIC that
 * refuses the tool's SGIs reads the same in both: one run error naming the
 * register that did not take the write and what it read back, rather than every
 * secondary recorded as having stopped answering.
 */
#include "core/run/run_arm64.h"

#include "asm/smp.h"
#include "core/lib/strbuf.h"

/* "GICR_IGROUPR0 read 0x000000fc, SGIs 0 and 1 (bits 0x3) must read 1" (messages are cut at 199
 * characters: this and the words around it stay well below) */
static void describe(const struct gic_sgi_check *c, char *out, size_t cap)
{
    fmt_into(out, cap, "%s read 0x%08x, SGIs %u and %u (bits 0x%x) must read %u", c->reg, c->value,
             (unsigned)SGI_CMD, (unsigned)SGI_PING, SGI_BITS, c->want ? 1u : 0u);
}

void a64_gic_record(struct arm64_run *run, unsigned madt_version, int init_rc, int bsp_rc)
{
    char why[160];
    run->gic_version = gic_version;
    run->gic_security = gic_security;
    /* the BSP sends SGIs and takes none: an Aff0 no range selector reaches is no obstacle */
    run->gic_ok = init_rc == 0 && (bsp_rc == 0 || bsp_rc == GICV3_NO_RSS);
    if (run->gic_ok)
        return;
    if (init_rc == 0 && gic_sgi_check[0].reg) {
        describe(&gic_sgi_check[0], why, sizeof(why));
        msg_add(&run->errors, "gic", "GICv%u setup failed on cpu 0: %s: not Non-secure Group 1 and enabled "
                "(the secure firmware's?): no SGIs", gic_version, why);
        return;
    }
    msg_add(&run->errors, "gic", "GICv%u not usable (MADT GICD version %u, rc %d): no SGIs",
            gic_version ? gic_version : madt_version, madt_version, init_rc ? init_rc : bsp_rc);
}

void a64_gicr_record(struct arm64_run *run, const struct gic_redist_range *range, unsigned n, uint32_t fw_mapped,
                     uint32_t tool_mapped)
{
    unsigned r, i;
    run->ngicr = n < GIC_MAX_REDIST_RANGES ? n : GIC_MAX_REDIST_RANGES;
    for (r = 0; r < run->ngicr; r++) {
        struct a64_gicr_use *u = &run->gicr[r];
        *u = (struct a64_gicr_use){ range[r].base, range[r].len, 0,
                                    (fw_mapped >> r & 1) ? "firmware" : (tool_mapped >> r & 1) ? "tlbscope" : "none" };
        for (i = 0; i < ncpus; i++)
            u->cpus += percpu[i].gicr >= u->base && percpu[i].gicr < u->base + u->len;
    }
}

void a64_gic_check_secondaries(struct arm64_run *run)
{
    char why[160];
    unsigned i;
    if (!run->gic_ok)
        return; /* the BSP's error already says why; every CPU shares the distributor */
    for (i = 1; i < ncpus; i++) {
        if (!percpu_usable(i) || percpu[i].gic_ok)
            continue;
        if (percpu[i].gic_rc == GICV3_NO_RSS) {
            unsigned t;
            msg_add(&run->errors, "gic", "cpu %u (MPIDR 0x%llx): unreachable by SGI, Aff0 %u > 15 and no range "
                    "selector (ICC_CTLR_EL1.RSS, GICD_TYPER.RSS): it takes commands without SGIs", i,
                    (unsigned long long)percpu[i].mpidr, (unsigned)(percpu[i].mpidr & 0xff));
            /* measured in the TLBI experiments, in none of the IPI ones: the run is partial */
            run->partial = true;
            for (t = 0; t < run->ntopo; t++)
                if (run->topo[t].percpu == (int)i && !run->topo[t].note[0])
                    fmt_into(run->topo[t].note, sizeof(run->topo[t].note), "unreachable by SGI: Aff0 %u > 15 "
                             "without the range selector", (unsigned)(percpu[i].mpidr & 0xff));
        } else if (gic_sgi_check[i].reg) {
            describe(&gic_sgi_check[i], why, sizeof(why));
            msg_add(&run->errors, "gic", "GICv%u setup failed on cpu %u: %s: it takes commands without SGIs",
                    gic_version, i, why);
        } else {
            msg_add(&run->errors, "gic", "cpu %u: its GIC CPU interface could not be set up; it takes commands "
                    "without SGIs", i);
        }
    }
}
