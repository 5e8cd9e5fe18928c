/*
 * ipi_roundtrip (aarch64): what one IPI costs between two given CPUs, by
 * topology class, the question x86's ipi_roundtrip (core/exp/ipi_roundtrip.c)
 * answers, measured the same way: one IPI, taken by the target through its
 * interrupt entry.
 *
 * Pairs: every ordered pair (initiator, target) of usable CPUs, the
 * secondaries initiating too, up to ipi_pairs= (x86's key: the quick profile's 64) and
 * at most PAIRS;
 * above that x86's rule, an evenly spaced share of each topology class
 * (core/run/topo_arm64.h: smt_sibling, same_cluster, same_package,
 * cross_package, from the firmware's PPTT or the MPIDRs: topology.class_source). The BSP is
 * never a target: it keeps the firmware's exception vectors (asm/irq.h), so
 * an SGI to it would be taken by UEFI's handler, not ours. A secondary
 * initiator runs the round trips itself (fn_initiator) while the BSP waits
 * on its progress; the BSP initiates its own pairs as before. The summary
 * pools each class's samples, every measured pair contributing the same
 * share (core/run/class_pool.h, as x86's summary): `pairs`,
 * `samples_per_pair`.
 *
 * Method. The target waits in WFI (method.target_wait "wfi_irq"). The
 * initiator reads the counter in the target's IRQ slot (its own cache line:
 * asm/irq.h), takes a timestamp, sends SGI_PING (GICv3 ICC_SGI1R_EL1, GICv2
 * GICD_SGIR), and spins until the target's IRQ handler has bumped the
 * counter; a second timestamp closes the sample. Both come from the
 * initiator's CNTVCT_EL0: two CPUs' clocks are never subtracted. The time
 * covers the SGI write, delivery, the wake-up from WFI, exception entry, the handler's
 * acknowledge and store, and the cache line's way back: one SGI, where the
 * target answered with a second SGI before (target_wait "poll_iar": no
 * exception entry, the target polled the acknowledge register with IRQs
 * masked). The BSP keeps the firmware's interrupts masked while it initiates
 * (UEFI's RaiseTPL(TPL_HIGH_LEVEL) and its priority mask lowered below the
 * firmware's timer PPIs at 0x80), so the firmware's timer is taken after the
 * round trips, not inside one; a secondary initiator runs with DAIF masked.
 *
 * The target's side, as Linux runs an IPI on an idle arm64 CPU: the idle
 * loop's WFI with IRQs masked, then the unmask (do_idle -> arch_cpu_idle ->
 * cpu_do_idle; asm/irq.h, irq_wait), the IRQ vector (Linux: el1h_64_irq ->
 * el1h_64_irq_handler -> el1_interrupt -> handle_arch_irq = gic_handle_irq),
 * the acknowledge (gic_read_iar; 1020..1023 return at once,
 * gic_irqnr_is_special), the handler's store (for a function call IPI,
 * do_handle_IPI -> generic_smp_call_function_interrupt -> csd_unlock, a
 * release store), then the EOI in EOImode 0 (gic_eoi_irq, after the handler;
 * Linux's EOImode 1 at EL2 drops the priority first in gic_complete_ack and
 * deactivates after) and ERET (arch/arm64/entry.S, exception.c). WFI, not a
 * spinning target: an idle CPU is what Linux's IPIs mostly wake, and it is
 * x86's target_wait "hlt", the default there under an emulator, so the two
 * apps' QEMU round trips are the same question. Under QEMU's TCG a WFI halts
 * the vCPU's host thread until the SGI kicks it. As on x86, the target is
 * asleep at every ping: before each, the initiator waits (outside the timed
 * window) until the target has gone back into WFI since its last ping, and
 * 10 us more (settle).
 *
 * Every round has a timeout_ms limit: a vCPU thread of a loaded host can be
 * descheduled for tens of milliseconds. A target whose ping is not answered
 * in time is named in a note with its handler's counts, the BSP sets arg[3]
 * and sends SGI_CMD to wake it from WFI, and it is recorded lost (the
 * experiment partial, ERROR); so is a secondary initiator whose count of
 * round trips stops moving for timeout_ms. values.irq_entries: the IRQ exceptions the
 * target took while it served the round trips, one per round trip when each
 * ping was taken through the vector and nothing else came.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/gic.h"
#include "asm/irq.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"
#include "core/lib/mem.h"
#include "core/run/class_pool.h"
#include "core/run/topo_arm64.h"

/* pairs measured exhaustively before sampling by class, whatever ipi_pairs= asks above it
 * (x86's: 64 quick, 256 default): the points reserved (A64_MAX_POINTS, with room for one
 * more pair per class than the limit when the classes do not divide it) */
#define PAIRS 120
#define POOL_CAP 200000u /* pooled samples kept per class, as x86's */

_Static_assert(PAIRS + A64_CLASS_COUNT <= A64_MAX_POINTS, "every chosen pair has a point");

/* target: take arg0 SGI_PINGs through the IRQ vector, waiting in WFI, until
 * they came or the BSP gives up (arg[3]). result0: other INTIDs taken,
 * result1: 1 once waiting, result2: IRQ exceptions taken, result3: spurious
 * acknowledges. */
static void fn_irq_target(struct percpu *pc)
{
    struct irq_slot *s = &pc->irq;
    uint64_t pings0, entries0, other0, spurious0;
    unsigned i;
    /* The SGI_CMD that delivered this command may still be pending: it is
     * acknowledged here, with IRQs masked, so that what the vector takes from
     * now on is the round trips alone (at most a few SGIs pending) */
    for (i = 0; i < 16; i++) {
        uint32_t irq = gic_ack();
        if (irq >= 1020)
            break;
        gic_eoi(irq);
    }
    pings0 = s->pings;
    entries0 = s->entries;
    other0 = s->other;
    spurious0 = s->spurious;
    __atomic_store_n(&pc->result[1], 1, __ATOMIC_RELEASE); /* ready */
    while (s->pings - pings0 < pc->arg[0] && !__atomic_load_n(&pc->arg[3], __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&s->asleep_at, s->pings, __ATOMIC_RELEASE); /* for the initiator's settle */
        irq_wait();
    }
    pc->result[0] = s->other - other0;
    pc->result[2] = s->entries - entries0;
    pc->result[3] = s->spurious - spurious0;
}

/* The target is asleep at every ping, as at every shootdown's IPI (x86:
 * ipi_settle_targets): back in WFI since its last ping, and SETTLE_US more
 * for its WFI to take effect (under QEMU: its vCPU thread to halt). Pinging
 * as soon as the counter moved would often find it still on its way back. */
#define SETTLE_US 10
static void settle(uint64_t timeout, const struct irq_slot *s)
{
    uint64_t end = ticks() + timeout, t;
    while (__atomic_load_n(&s->asleep_at, __ATOMIC_ACQUIRE) != __atomic_load_n(&s->pings, __ATOMIC_ACQUIRE) &&
           ticks() < end)
        ;
    t = ticks();
    while (ticks() - t < tick_freq() * SETTLE_US / 1000000)
        ;
}

/* The initiator's round trips to target n, on whichever CPU runs it: `rounds` into samples;
 * *progress counts them as they go. Returns those done, fewer when a ping found no answer
 * within `timeout`. */
static unsigned ping_series(unsigned n, unsigned rounds, uint64_t *samples, uint64_t timeout,
                            volatile uint64_t *progress)
{
    const struct irq_slot *s = &percpu[n].irq;
    unsigned done;
    for (done = 0; done < rounds; done++) {
        uint64_t before, t0, limit, seen;
        settle(timeout, s);
        before = __atomic_load_n(&s->pings, __ATOMIC_ACQUIRE);
        t0 = ticks();
        limit = t0 + timeout;
        gic_send_sgi(percpu[n].mpidr, SGI_PING);
        while ((seen = __atomic_load_n(&s->pings, __ATOMIC_ACQUIRE)) == before && ticks() <= limit)
            ;
        if (seen == before)
            break;
        samples[done] = ticks() - t0;
        __atomic_store_n(progress, done + 1, __ATOMIC_RELEASE);
    }
    return done;
}

/* a secondary initiator: arg0 the target (bits 7:0) and the rounds (above), arg1 where the
 * samples go, arg2 the timeout per ping in ticks; result0 the round trips done, result1 the
 * progress */
static void fn_initiator(struct percpu *pc)
{
    pc->result[0] = ping_series((unsigned)(pc->arg[0] & 0xff), (unsigned)(pc->arg[0] >> 8),
                                (uint64_t *)(uintptr_t)pc->arg[1], pc->arg[2], &pc->result[1]);
}

/* The BSP waits on a secondary initiator: as long as its round trips keep coming (x86's
 * smp_wait_progress). A step is a settle and a ping, each within timeout_ms, so the BSP
 * gives each 3 x timeout_ms: an initiator whose target went silent ends its series (its
 * count short) before the BSP would call the initiator lost. 0, or -1 when it stalled or
 * faulted. */
static int wait_initiator(struct arm64_run *run, unsigned cpu)
{
    uint64_t seen = 0;
    for (;;) {
        uint64_t now;
        if (smp_wait(cpu, 3 * a64_timeout_ticks(run)) == 0)
            return 0;
        now = __atomic_load_n(&percpu[cpu].result[1], __ATOMIC_ACQUIRE);
        if (now == seen || __atomic_load_n(&percpu[cpu].state, __ATOMIC_ACQUIRE) == CPU_PARKED)
            return -1;
        seen = now;
    }
}

/* One pair: the target told its pings, the round trips from the initiator into samples.
 * Returns those done; *initiator_lost when a secondary initiator stopped answering. */
static unsigned run_pair(struct arm64_run *run, const struct a64_pair *p, unsigned rounds, uint64_t *samples,
                         bool *initiator_lost)
{
    unsigned n = p->target, done = 0;
    uint64_t end, progress = 0;
    *initiator_lost = false;
    smp_post(n, fn_irq_target, rounds, 0, 0);
    end = ticks() + a64_timeout_ticks(run);
    while (!__atomic_load_n(&percpu[n].result[1], __ATOMIC_ACQUIRE) && ticks() < end)
        ;
    if (p->initiator == 0) {
        uint64_t pmr = gic_pmr(), tpl = run->irq_mask ? run->irq_mask() : 0;
        gic_set_pmr(SGI_PRIO + 0x10);
        done = ping_series(n, rounds, samples, a64_timeout_ticks(run), &progress);
        gic_set_pmr((uint32_t)pmr);
        if (run->irq_restore)
            run->irq_restore(tpl);
    } else {
        smp_post(p->initiator, fn_initiator, n | (uint64_t)rounds << 8, (uint64_t)(uintptr_t)samples,
                 a64_timeout_ticks(run));
        *initiator_lost = wait_initiator(run, p->initiator) != 0;
        if (!*initiator_lost)
            done = (unsigned)percpu[p->initiator].result[0];
    }
    if (done < rounds) {
        /* the target sleeps in WFI: the flag alone would not wake it */
        __atomic_store_n(&percpu[n].arg[3], 1, __ATOMIC_RELEASE);
        gic_send_sgi(percpu[n].mpidr, SGI_CMD);
    }
    return done;
}

/* the pairs, limited by ipi_pairs= as on x86 (the profiles' 64, 256, 4096), at most PAIRS here;
 * out has room for PAIRS + classes */
static unsigned choose(struct arm64_run *run, struct experiment_record *e, struct a64_pair *out)
{
    static struct a64_place place[MAX_CPUS]; /* 20 KiB: off the firmware's stack */
    unsigned cpus[MAX_CPUS], k, i, all, n;
    unsigned limit = run->cfg.ipi_pairs && run->cfg.ipi_pairs < PAIRS ? run->cfg.ipi_pairs : PAIRS;
    if (!run->class_source)
        a64_topology_places(run);
    mem_zero(place, sizeof(place));
    for (i = 0; i < run->ntopo; i++)
        if (run->topo[i].percpu >= 0 && run->topo[i].percpu < MAX_CPUS)
            place[run->topo[i].percpu] = run->topo[i].place;
    cpus[0] = 0; /* the BSP initiates; the others SGIs reach, those they do not named */
    k = 1 + a64_sgi_others(run->gic_ok ? e : NULL, cpus + 1);
    n = a64_choose_pairs(place, cpus, k, 0, limit, out, &all);
    if (all > limit)
        record_note(e, "%u ordered pairs exceed %u (ipi_pairs=%u, at most %u on aarch64): %u pairs sampled evenly "
                    "per topology class", all, limit, run->cfg.ipi_pairs, PAIRS, n);
    return n;
}

/* per class: the pooled samples (class_pool.h) and the pairs that gave them */
struct pools {
    uint64_t *pool[A64_CLASS_COUNT];
    uint32_t n[A64_CLASS_COUNT], cap[A64_CLASS_COUNT], pairs[A64_CLASS_COUNT], share;
};

/* room for every pair's share; false: no memory (the record says so) */
static bool pools_alloc(struct pools *pl, const struct a64_pair *pairs, unsigned npairs, const struct a64_pace *pace,
                        struct experiment_record *e)
{
    uint32_t in_class[A64_CLASS_COUNT] = { 0 }, c;
    unsigned i;
    mem_zero(pl, sizeof(*pl));
    for (i = 0; i < npairs; i++)
        in_class[pairs[i].cls]++;
    /* paced, a pair takes the floor at least: every one gives the pool the same share only if
     * it is at most that */
    pl->share = class_pool_share(in_class, A64_CLASS_COUNT, pace->configured, POOL_CAP);
    if (pace->planned && pl->share > pace->floor)
        pl->share = pace->floor;
    for (c = 0; c < A64_CLASS_COUNT; c++) {
        pl->cap[c] = in_class[c] * pl->share;
        if (pl->cap[c] && !(pl->pool[c] = mem_alloc(pl->cap[c] * sizeof(uint64_t)))) {
            record_set_status(e, RESULT_ERROR, "no memory for the class summary's %u samples", pl->cap[c]);
            return false;
        }
    }
    return true;
}

/* the summary: one point per class, nearest first; the pools freed */
static void pools_summary(struct pools *pl, struct experiment_record *e)
{
    unsigned c;
    for (c = A64_CLASS_FIRST; c < A64_CLASS_COUNT; c++) {
        struct result_point *p;
        if (pl->n[c] && (p = point_list_add(&e->summary))) {
            point_param_str(p, "class", a64_class_name((enum a64_class)c));
            a64_latency(p, pl->pool[c], pl->n[c]);
            point_value(p, "pairs", (int64_t)pl->pairs[c] * 1000);
            point_value(p, "samples_per_pair", (int64_t)pl->share * 1000);
        }
    }
    for (c = 0; c < A64_CLASS_COUNT; c++)
        mem_free(pl->pool[c]);
}

/* one measured pair's point; false when the points ran out */
static bool add_point(struct experiment_record *e, const struct a64_pair *p, uint64_t *samples, unsigned done)
{
    const volatile uint64_t *r = percpu[p->target].result;
    struct result_point *pt = a64_point_add(e);
    if (!pt)
        return false;
    point_param_num(pt, "initiator", p->initiator);
    point_param_num(pt, "target", p->target);
    point_param_str(pt, "class", a64_class_name((enum a64_class)p->cls));
    a64_latency(pt, samples, done);
    point_value(pt, "irq_entries", (int64_t)r[2] * 1000);
    if (r[2] != done || r[0] || r[3])
        record_note(e, "cpu %u: %llu IRQ entries for %u round trips from cpu %u (%llu other INTIDs, %llu spurious)",
                    p->target, (unsigned long long)r[2], done, p->initiator, (unsigned long long)r[0],
                    (unsigned long long)r[3]);
    return true;
}

void exp_ipi_roundtrip(struct arm64_run *run, struct experiment_record *e)
{
    struct a64_pair pairs[PAIRS + A64_CLASS_COUNT];
    unsigned npairs = choose(run, e, pairs), i;
    struct a64_pace pace;
    struct pools pl;
    bool paced = false;
    if (!run->gic_ok)
        record_set_status(e, RESULT_ERROR, "the GIC could not be set up for SGIs (see run.errors)");
    else if (npairs == 0)
        record_set_status(e, RESULT_SKIP, "one CPU: no target for an IPI");
    else if ((paced = a64_pace_begin(run, e, &pace, npairs, 1)) && !pools_alloc(&pl, pairs, npairs, &pace, e)) {
        a64_pace_end(run, e, &pace);
        paced = false;
    }
    for (i = 0; paced && i < npairs; i++) {
        const struct a64_pair *p = &pairs[i];
        unsigned done, rounds;
        bool initiator_lost;
        if (!percpu_usable(p->target) || (p->initiator != 0 && !percpu_usable(p->initiator))) {
            e->partial = true; /* lost in an earlier pair: named there */
            continue;
        }
        /* the target is told how many pings to take: the count is fixed before the point */
        a64_pace_point(&pace);
        rounds = a64_pace_count(&pace);
        done = run_pair(run, p, rounds, pace.buf, &initiator_lost);
        a64_pace_point_done(&pace, done, done == rounds);
        if (initiator_lost) {
            record_note(e, "cpu %u: its round trips to cpu %u stopped after %llu of %u (initiating)", p->initiator,
                        p->target, (unsigned long long)percpu[p->initiator].result[1], rounds);
            a64_cpu_lost(run, p->initiator, "ipi_roundtrip");
        }
        if (smp_wait(p->target, a64_timeout_ticks(run)) != 0 || (done < rounds && !initiator_lost)) {
            /* the handler's counts since boot tell a lost SGI from one taken but not answered */
            record_note(e, "cpu %u: %u of %u round trips from cpu %u (%s); its IRQ handler took %llu IRQs, %llu SGI_PING",
                        p->target, done, rounds, p->initiator,
                        done < rounds ? "a ping unanswered within timeout_ms" : "its command unacknowledged after them",
                        (unsigned long long)percpu[p->target].irq.entries, (unsigned long long)percpu[p->target].irq.pings);
            a64_cpu_lost(run, p->target, "ipi_roundtrip");
        }
        if (initiator_lost || done < rounds || !percpu_usable(p->target)) {
            e->partial = true;
            continue;
        }
        /* pool an evenly spaced share before the point's stats sort the samples */
        pl.n[p->cls] += class_pool_take(pace.buf, done, pl.share, pl.pool[p->cls] + pl.n[p->cls],
                                        pl.cap[p->cls] - pl.n[p->cls]);
        pl.pairs[p->cls]++;
        if (!add_point(e, p, pace.buf, done))
            break;
    }
    if (paced) {
        pools_summary(&pl, e);
        a64_pace_end(run, e, &pace);
    }
    if (npairs)
        record_note(e, "the BSP initiates but is never a target: it keeps the firmware's exception vectors, so "
                       "its SGIs would be taken by UEFI's handler, not through ours");
    record_note(e, "the target waits in WFI as Linux's idle does and takes each SGI through its IRQ vector (%s, "
             "EOI, ERET)", run->gic_version == 2 ? "GICC_IAR" : "ICC_IAR1_EL1");
}
