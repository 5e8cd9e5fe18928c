/*
 * Running one phase of a shootdown_contention point (core/exp/
 * shootdown_contention.c, whose top comment is the method): the timed
 * rounds or the steady window on every initiator at once, between their
 * barriers, and the steady rate with and without the remaps.
 */
#include "core/exp/shootdown_contention.h"

#include "asm/cpu.h"
#include "asm/features.h"
#include "core/lib/atomic.h"
#include "core/run/verify_collect.h"
#include "core/machine/emulate.h"
#include "core/exp/common.h"
#include "core/exp/contention_plan.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/machine/placement.h"
#include "core/machine/shootdown_multi.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

/*
 * The BSP's view of the others at the window's end (`ticks` long): how many
 * shootdowns the initiators have done in the loop, and in *no_remap the rate
 * had their remaps taken no time (each one's shootdowns over the window less
 * its own remaps, summed; x 1000). It is the window's rate plus what each
 * initiator's remaps cost it, each term rounded on its own and never below
 * 0: summing m rates rounded separately fell up to m-1 thousandths under
 * the rate of the total (16.776 against 16.778 at m = 8), so "without the
 * remaps" read slower than with them.
 */
static uint64_t steady_total(const struct ct_state *st, uint32_t m, uint64_t ticks,
                             int64_t *no_remap)
{
    uint64_t sum = 0, hz = timing_tsc_hz();
    int64_t saved = 0;
    uint32_t k;
    for (k = 0; k < m; k++) {
        uint64_t remap = load_acquire(&st->args[k].remap), n = load_acquire(&st->args[k].steady);
        sum += n;
        /* a shorter time for the same count: never a lower rate (mul_div rounds down both);
         * remaps that filled the whole window leave no time to rate */
        if (remap < ticks)
            saved += contention_rate_milli(n, ticks - remap, hz) - contention_rate_milli(n, ticks, hz);
    }
    *no_remap = contention_rate_milli(sum, ticks, hz) + saved;
    return sum;
}

/* The rounds of one initiator (the BSP: `bsp`, which also times them). */
static bool run_rounds(struct ct_arg *a, bool bsp)
{
    struct ct_job *job = a->job;
    struct ct_state *st = job->st;
    struct shootdown_multi *mi = &st->mi;
    struct mi_part *p = &a->part;
    uint32_t i, total = job->warmup + job->rounds;
    for (i = 0; i < total; i++) {
        uint64_t t0, t;
        if (!mi_round_open(mi, p))
            return false;
        t0 = tsc_open();
        t = mi_round_shoot(mi, p);
        if (!mi_round_close(p) || !t)
            return false;
        if (i >= job->warmup) {
            st->lat[(size_t)a->k * job->rounds + (i - job->warmup)] = t;
            if (bsp)
                st->round_ticks += tsc_close() - t0;
        }
        if (!mi_round_check(mi, p))
            return false;
    }
    return true;
}

/*
 * The steady loop of one initiator: all start together, then no barrier and
 * no check until the BSP has seen the window pass; then, once the loop has
 * stopped everywhere, the last state of its pages on every CPU.
 */
static bool run_steady(struct ct_arg *a, bool bsp)
{
    struct ct_job *job = a->job;
    struct ct_state *st = job->st;
    struct shootdown_multi *mi = &st->mi;
    struct mi_part *p = &a->part;
    uint64_t t0, limit, remap = 0;
    if (!mi_barrier(p))
        return false;
    t0 = tsc_open();
    /* the BSP stops the loop; should it never, the barrier's limit past the window does */
    limit = t0 + job->window_ticks + job->pt.barrier_ticks;
    while (!load_acquire(&job->stop)) {
        if (load_acquire(&job->pt.failed) || deadline_passed(limit) ||
            !mi_steady_shoot(mi, p, &remap)) {
            store_release(&job->pt.failed, 1);
            return false;
        }
        store_release(&a->remap, remap);
        store_release(&a->steady, a->steady + 1);
        if (bsp && tsc_close() - t0 >= job->window_ticks) {
            st->steady_ticks = tsc_close() - t0;
            st->steady_count = steady_total(st, job->ninit, st->steady_ticks,
                                            &st->steady_no_remap);
            store_release(&job->stop, 1);
        }
    }
    return mi_barrier(p) && mi_round_check(mi, p);
}

static bool run_phase(struct ct_arg *a, bool bsp)
{
    return a->job->phase == CT_ROUNDS ? run_rounds(a, bsp) : run_steady(a, bsp);
}

/* Runs on an AP initiator: its part of the phase, then taking IPIs until all are done. */
static int64_t initiate(struct percpu *self, void *arg)
{
    struct ct_arg *a = arg;
    struct ct_job *job = a->job;
    bool ok;
    irq_enable(); /* the other initiators' IPIs come in while this one waits */
    ok = run_phase(a, false);
    if (!ok)
        store_release(&job->pt.failed, 1);
    add_fetch(&job->done, 1);
    ipi_spin_as_target(self, &job->linger); /* returns with interrupts off */
    return ok ? 0 : -1;
}

/* The BSP: one phase of the point on every initiator; false when it failed. */
bool ct_run_point(struct runner *r, struct ct_state *st, struct ct_job *job, enum ct_phase ph)
{
    struct smp *s = r->smp;
    uint32_t k;
    uint64_t deadline, seen;
    bool ok;
    mi_point_init(&job->pt, job->pt.method, job->ninit, job->pt.max_chunk, job->pt.barrier_ticks);
    /* the CPUs that only take IPIs, asleep before each round opens (the BSP settles them) */
    mi_point_settle(&job->pt, st->ts.cpus, st->ts.n, st->inits[0]);
    job->phase = ph;
    store_relaxed(&job->stop, 0);
    store_relaxed(&job->all_done, 0);
    store_relaxed(&job->done, 0);
    job->linger.deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    for (k = 0; k < job->ninit; k++) {
        st->args[k].part.phases = 0;
        store_relaxed(&st->args[k].steady, 0);
        store_relaxed(&st->args[k].remap, 0);
    }
    for (k = 1; k < job->ninit; k++)
        smp_post(s, st->inits[k], CMD_GENERIC, initiate, &st->args[k]);
    irq_enable();
    ok = run_phase(&st->args[0], true);
    if (!ok)
        store_release(&job->pt.failed, 1);
    add_fetch(&job->done, 1);
    /* the end: every initiator's last check answered (or the point failed everywhere) */
    deadline = tsc_now() + job->pt.barrier_ticks;
    seen = load_acquire(&job->done);
    while (load_acquire(&job->done) < job->ninit) {
        if (load_acquire(&job->done) != seen) {
            seen = load_acquire(&job->done);
            deadline = tsc_now() + job->pt.barrier_ticks;
        }
        if (deadline_passed(deadline))
            break;
        cpu_relax();
    }
    if (load_acquire(&job->done) < job->ninit)
        ok = false;
    store_release(&job->all_done, 1);
    irq_disable();
    for (k = 1; k < job->ninit; k++) {
        uint32_t c = st->inits[k];
        if (!smp_usable(s, c))
            continue;
        if (s->halt_waits)
            smp_kick(s, c);
        if (smp_wait(s, c, tsc_now() + s->timeout_ticks) != WAIT_OK ||
            load_acquire(&s->cpu[c]->ack.result) != 0)
            ok = false;
    }
    /* targets that did not answer, as the initiators saw them: marked here, by the BSP only */
    for (k = 0; k < job->ninit; k++) {
        struct mi_initiator *mi = &st->mi.init[st->inits[k]];
        if (mi->lost_cpu != UINT32_MAX) {
            struct mi_slot *slot = &st->mi.slots[(size_t)mi->lost_cpu * st->mi.ncpus +
                                                 st->inits[k]];
            smp_mark_unanswered(s, mi->lost_cpu, mi->lost_what, &slot->ack_seq, mi->seq);
            mi->lost_cpu = UINT32_MAX;
            ok = false;
        }
    }
    return ok && !load_acquire(&job->pt.failed);
}
