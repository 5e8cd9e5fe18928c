/*
 * ipi_broadcast (aarch64): the BSP interrupts k other CPUs with one SGI each
 * and waits until every one has answered, timed on the BSP's CNTVCT_EL0 from
 * the first GIC write to the last acknowledgement, in the ways the GIC can
 * address several CPUs:
 *   unicast       one SGI write per target, as Linux's smp_cross_call does
 *                 per CPU (GICv3 ICC_SGI1R_EL1, GICv2 GICD_SGIR)
 *   target_list   GICv3: one ICC_SGI1R_EL1 write per Aff3.Aff2.Aff1 cluster
 *                 with the target-list bits; GICv2: one GICD_SGIR write with
 *                 the CPU target list
 *   all_but_self  one write to every CPU but the sender (GICv3 IRM = 1, GICv2
 *                 TargetListFilter 0b01): only at k = N-1, and only when every
 *                 other CPU is usable (a lost CPU would get it too) and every
 *                 CPU the MADT lists was started (run.every_cpu_started: one
 *                 past this build's MAX_CPUS would get it, unanswered)
 * (the value `sgi_writes` says how many register writes one send took).
 * Each target polls the GIC's acknowledge register with IRQs masked, as in
 * ipi_roundtrip, and answers by writing the round's number into its own
 * cache line (acks[] below: the BSP polls k lines no other CPU writes, so
 * the answers do not contend for one line). One untimed warm-up round, then
 * the samples; a round waits for every target at most timeout_ms (a vCPU
 * thread of a loaded host can be descheduled for tens of milliseconds): a
 * target that does not answer is named, recorded lost, the others are told
 * to stop (arg[3]) and the run goes on. The BSP takes no interrupt here, so
 * it keeps its priority mask; it masks the firmware's interrupts (UEFI's
 * RaiseTPL) only so that a firmware timer tick does not land in a sample.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/gic.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"

/* one answer line per CPU: the last round the CPU answered */
static struct {
    volatile uint64_t round;
} __attribute__((aligned(PERCPU_ALIGN))) acks[MAX_CPUS];

enum mode { UNICAST, TARGET_LIST, ALL_BUT_SELF, MODES };
static const char *const mode_name[MODES] = { "unicast", "target_list", "all_but_self" };

/* target: arg0 SGI_PINGs, each answered in acks[idx] */
static void answer_in_line(struct percpu *pc, uint64_t ping)
{
    __atomic_store_n(&acks[pc->idx].round, ping, __ATOMIC_RELEASE);
}

static void fn_answer(struct percpu *pc)
{
    a64_serve_pings(pc, answer_in_line);
}

static unsigned send(enum mode how, const uint64_t *mpidr, unsigned k)
{
    unsigned i;
    if (how == UNICAST) {
        for (i = 0; i < k; i++)
            gic_send_sgi(mpidr[i], SGI_PING);
        return k;
    }
    if (how == TARGET_LIST)
        return gic_send_sgi_list(mpidr, k, SGI_PING);
    gic_send_sgi_others(SGI_PING);
    return 1;
}

/* the first target (in targets[]) that has not answered round r, or -1
 * when all have, after waiting until `limit` */
static int wait_answers(const unsigned *targets, unsigned k, uint64_t r, uint64_t limit)
{
    unsigned i = 0;
    while (i < k) {
        if (__atomic_load_n(&acks[targets[i]].round, __ATOMIC_ACQUIRE) >= r)
            i++;
        else if (ticks() > limit)
            return (int)i;
    }
    return -1;
}

/* One point: sends to targets[0..k), the first untimed, then as many as the
 * pace allows (its samples in pace->buf). Returns the samples taken; *writes
 * gets the GIC writes of one send. */
static unsigned measure(struct arm64_run *run, struct experiment_record *e, enum mode how, const unsigned *targets,
                        unsigned k, const struct a64_pace *pace, unsigned *writes)
{
    uint64_t mpidr[MAX_CPUS], tpl, r, end, rounds = (uint64_t)pace->configured + 1;
    unsigned i, got = 0;
    int late = -1;
    for (i = 0; i < k; i++) {
        mpidr[i] = percpu[targets[i]].mpidr;
        acks[targets[i]].round = 0;
        smp_post(targets[i], fn_answer, rounds, 0, 0);
    }
    end = ticks() + a64_timeout_ticks(run);
    for (i = 0; i < k && late < 0; i++)
        while (!__atomic_load_n(&percpu[targets[i]].result[1], __ATOMIC_ACQUIRE))
            if (ticks() > end) {
                late = (int)i;
                break;
            }
    tpl = run->irq_mask ? run->irq_mask() : 0;
    for (r = 1; late < 0 && r <= rounds && (r == 1 || a64_pace_more(pace, got)); r++) {
        uint64_t t0 = ticks(), t1;
        *writes = send(how, mpidr, k);
        late = wait_answers(targets, k, r, t0 + a64_timeout_ticks(run));
        t1 = ticks();
        if (late < 0 && r > 1)
            pace->buf[got++] = t1 - t0 ? t1 - t0 : 1;
    }
    if (run->irq_restore)
        run->irq_restore(tpl);
    if (late < 0 && r <= rounds) /* the pace ended the point early: the targets stop serving */
        for (i = 0; i < k; i++)
            __atomic_store_n(&percpu[targets[i]].arg[3], 1, __ATOMIC_RELEASE);
    if (late >= 0) {
        record_note(e, "%s, %u targets: cpu %u did not answer round %llu", mode_name[how], k, targets[late],
                 (unsigned long long)(r - 1));
        for (i = 0; i < k; i++)
            __atomic_store_n(&percpu[targets[i]].arg[3], 1, __ATOMIC_RELEASE);
    }
    for (i = 0; i < k; i++)
        if (smp_wait(targets[i], a64_timeout_ticks(run)) != 0 || (late >= 0 && (unsigned)late == i))
            a64_cpu_lost(run, targets[i], "ipi_broadcast");
    return late >= 0 ? 0 : got;
}

void exp_ipi_broadcast(struct arm64_run *run, struct experiment_record *e)
{
    unsigned others[MAX_CPUS], nothers = a64_sgi_others(run->gic_ok ? e : NULL, others), counts[3], ncounts = a64_target_counts(nothers, counts);
    unsigned c, m;
    struct a64_pace pace;
    bool paced = false;
    if (!run->gic_ok)
        record_set_status(e, RESULT_ERROR, "the GIC could not be set up for SGIs (see run.errors)");
    else if (nothers == 0)
        record_set_status(e, RESULT_SKIP, "one CPU: no target for an IPI");
    else
        paced = a64_pace_begin(run, e, &pace, ncounts * MODES, 1);
    for (c = 0; paced && c < ncounts; c++)
        for (m = 0; m < MODES; m++) {
            unsigned k = counts[c], writes = 0, got;
            struct result_point *p;
            if (m == ALL_BUT_SELF && (k != ncpus - 1 || a64_sgi_others(NULL, others) != ncpus - 1 || !run->every_cpu_started))
                continue; /* every CPU but the BSP must be a target, and usable, and every MADT CPU ours */
            if (a64_sgi_others(NULL, others) < k) {
                record_note(e, "%s, %u targets: not measured, a CPU was lost", mode_name[m], k);
                e->partial = true;
                continue;
            }
            a64_pace_point(&pace);
            got = measure(run, e, (enum mode)m, others, k, &pace, &writes);
            a64_pace_point_done(&pace, got, got > 0);
            if (!got) {
                e->partial = true;
                continue;
            }
            p = a64_point_add(e);
            if (!p)
                break;
            point_param_str(p, "mode", mode_name[m]);
            point_param_num(p, "targets", k);
            point_value(p, "sgi_writes", (int64_t)writes * 1000);
            a64_latency(p, pace.buf, got);
        }
    if (run->gic_ok && nothers > 0 && !run->every_cpu_started)
        record_note(e, "all_but_self: not measured, the MADT lists CPUs this run did not start (the SGI would "
                    "reach them too)");
    else if (run->gic_ok && nothers > 0 && a64_sgi_others(NULL, others) != ncpus - 1)
        record_note(e, "all_but_self: not measured, %u of the %u other CPUs usable (the SGI would reach the others too)",
                 a64_sgi_others(NULL, others), ncpus - 1);
    if (paced)
        a64_pace_end(run, e, &pace);
    record_note(e, "one warm-up round a point; targets poll %s with IRQs masked, each answers in its own cache line",
             run->gic_version == 2 ? "GICC_IAR" : "ICC_IAR1_EL1");
}
