/*
 * ipi_roundtrip (aarch64): an SGI from the BSP to CPU n and n's SGI back,
 * timed on the BSP's CNTVCT_EL0.
 *
 * The target polls the GIC's acknowledge register (GICv3 ICC_IAR1_EL1,
 * GICv2 GICC_IAR) with IRQs masked (method.target_wait "poll_iar"): this measures SGI delivery without exception entry and needs
 * no IRQ vector. The BSP polls too, with the firmware's interrupts masked by
 * UEFI's RaiseTPL(TPL_HIGH_LEVEL) and its priority mask (PMR) lowered below the
 * firmware's interrupt priorities (its timer PPIs sit at 0x80), so the
 * acknowledge can only return our SGI: the firmware's timer stays pending
 * and is taken by the firmware once PMR and the TPL are restored. Every
 * round has a 1 s limit: a vCPU thread of a loaded host can be descheduled
 * for tens of milliseconds, and a target that gets nothing aborts its loop
 * when the BSP tells it (arg[3]).
 */
#include "core/exp/arm64/experiments.h"

#include "asm/gic.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"

#define ROUNDS 200
static uint64_t samples[ROUNDS];

/* target: arg0 round trips, each answered with an SGI to MPIDR arg1 */
static void ping_back(struct percpu *pc, uint64_t ping)
{
    (void)ping;
    gic_send_sgi(pc->arg[1], SGI_PING);
}

static void fn_pingpong(struct percpu *pc)
{
    a64_serve_pings(pc, ping_back);
}

/* the BSP's side with one target: round trips done */
static unsigned pingpong(struct arm64_run *run, unsigned n)
{
    uint64_t pmr = gic_pmr(), tpl, end;
    unsigned done = 0;
    smp_post(n, fn_pingpong, ROUNDS, percpu[0].mpidr, 0);
    end = ticks() + a64_timeout_ticks(run);
    while (!__atomic_load_n(&percpu[n].result[1], __ATOMIC_ACQUIRE) && ticks() < end)
        ;
    tpl = run->irq_mask ? run->irq_mask() : 0;
    gic_set_pmr(SGI_PRIO + 0x10);
    for (; done < ROUNDS; done++) {
        uint64_t t0 = ticks(), limit = t0 + a64_timeout_ticks(run);
        uint32_t irq;
        gic_send_sgi(percpu[n].mpidr, SGI_PING);
        while ((irq = gic_ack()) != SGI_PING) {
            if (irq < 1020) /* cannot happen with our PMR */
                gic_eoi(irq);
            if (ticks() > limit)
                break;
        }
        if (irq != SGI_PING)
            break;
        gic_eoi(irq);
        samples[done] = ticks() - t0;
    }
    gic_set_pmr((uint32_t)pmr);
    if (run->irq_restore)
        run->irq_restore(tpl);
    if (done < ROUNDS)
        __atomic_store_n(&percpu[n].arg[3], 1, __ATOMIC_RELEASE);
    return done;
}

void exp_ipi_roundtrip(struct arm64_run *run)
{
    uint64_t t0 = ticks();
    struct experiment_record *e = a64_exp_begin(run, "ipi_roundtrip", run->gic_version == 2 ? "IPI round trip (GICv2 SGI) from the BSP to each CPU" : "IPI round trip (GICv3 SGI) from the BSP to each CPU",
                                      "target", 0, false);
    unsigned cpus[MAX_CPUS], k = a64_others(cpus), i;
    if (!run->gic_ok)
        a64_exp_set(e, RESULT_ERROR, "the GIC could not be set up for SGIs (see run.errors)");
    else if (k == 0)
        a64_exp_set(e, RESULT_SKIP, "one CPU: no target for an IPI");
    for (i = 0; run->gic_ok && i < k; i++) {
        unsigned n = cpus[i], done = pingpong(run, n);
        struct result_point *p;
        if (smp_wait(n, a64_timeout_ticks(run)) != 0 || done < ROUNDS) {
            a64_note(e, "cpu %u: %u of %u round trips", n, done, ROUNDS);
            a64_cpu_lost(run, n, "ipi_roundtrip");
            e->partial = true;
            continue;
        }
        p = a64_point_add(e);
        if (!p)
            break;
        a64_param(p, "initiator", 0);
        a64_param(p, "target", n);
        a64_latency(p, samples, ROUNDS);
    }
    a64_note(e, "%u round trips per target; the target polls %s with IRQs masked", ROUNDS,
             run->gic_version == 2 ? "GICC_IAR" : "ICC_IAR1_EL1");
    a64_exp_end(run, e, t0);
}
