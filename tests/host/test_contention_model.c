/*
 * Concurrent initiators (core/shootdown_multi.h) on the strict TLB model:
 * m CPUs shoot down at the same time, each to every other CPU (one mm) or
 * to its own group (one mm per group), and nothing stale is ever read.
 * Built plain, per mutant (sim/sim.mk MUTANT_TESTS: shared_request_slot
 * must fail here), and under ThreadSanitizer (tests/host/tsan_contention.c),
 * which checks the acquire/release pairs of the per-initiator slots.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "arch/x86/cpu.h"
#include "core/atomic.h"
#include "core/exp/common.h"
#include "core/shootdown_multi.h"
#include "core/timing.h"
#include "tests/host/support_sim.h"

#define NCPUS 6
#define ROUNDS 25

struct init_arg {
    struct shootdown_multi *mi;
    uint32_t targets[NCPUS], n;
    uint32_t first, pages;
    volatile uint32_t *go;
    volatile uint64_t *done;
    uint32_t ninit;
    uint64_t completed;
};

static int64_t initiate(struct percpu *self, void *arg)
{
    struct init_arg *a = arg;
    uint64_t deadline = tsc_now() + ms_to_ticks(5000);
    uint32_t k;
    int64_t result = 0;
    (void)self;
    irq_enable(); /* the others' requests come in while this one waits */
    while (!load_acquire(a->go) && !deadline_passed(deadline))
        cpu_relax();
    for (k = 0; k < ROUNDS; k++) {
        shootdown_multi_flip(a->mi, a->first, a->pages);
        if (!shootdown_multi_flush(a->mi, a->targets, a->n, a->first, a->pages) ||
            !shootdown_multi_wait_verified(a->mi)) {
            result = -1;
            break;
        }
        a->completed++;
    }
    add_fetch(a->done, 1);
    /* keep answering until every initiator is done */
    deadline = tsc_now() + ms_to_ticks(10000);
    while (load_acquire(a->done) < a->ninit && !deadline_passed(deadline))
        cpu_relax();
    irq_disable();
    return result;
}

/*
 * `groups`: CPUs split in pairs {0,1}, {2,3}, ... each with its own mm;
 * else initiators 0, 2, 4, ... (the first `ninit` of them) to all others.
 */
static void run_concurrent(struct sim *m, uint32_t ninit, bool groups, uint32_t pages,
                           struct experiment_record *rec)
{
    static struct init_arg args[NCPUS];
    struct shootdown sd;
    struct shootdown_multi mi;
    struct target_set ts;
    struct runner r;
    struct run run;
    uint32_t inits[NCPUS], i, k, stride = groups || ninit <= NCPUS / 2 ? 2 : 1;
    volatile uint32_t go = 0;
    volatile uint64_t done = 0;
    memset(&r, 0, sizeof(r));
    memset(&run, 0, sizeof(run));
    run.cfg = m->cfg;
    r.run = &run;
    r.smp = &m->smp;
    assert_true(shootdown_init(&sd, &m->smp, &m->tm, 33));
    assert_true(shootdown_multi_init(&mi, &sd));
    assert_true(target_set_init(&ts, NCPUS));
    for (k = 0; k < ninit; k++) {
        struct init_arg *a = &args[k];
        memset(a, 0, sizeof(*a));
        inits[k] = k * stride;
        a->mi = &mi;
        a->first = k * pages;
        a->pages = pages;
        a->go = &go;
        a->done = &done;
        a->ninit = ninit;
        for (i = 0; i < NCPUS; i++) {
            bool member = groups ? i / 2 == inits[k] / 2 : true;
            if (member && i != inits[k])
                a->targets[a->n++] = i;
        }
    }
    for (i = 1; i < NCPUS; i++) {
        bool initiator = false;
        for (k = 0; k < ninit; k++)
            initiator |= inits[k] == i;
        if (!initiator)
            ts.cpus[ts.n++] = i;
    }
    assert_true(shootdown_multi_begin_point(&mi, inits, ninit, groups));
    target_set_start(&r, &ts);
    for (k = 0; k < ninit; k++)
        assert_true(shootdown_verify_cpus(&sd, args[k].targets, args[k].n, args[k].first, pages,
                                          false));
    for (k = 1; k < ninit; k++)
        smp_post(&m->smp, inits[k], CMD_GENERIC, initiate, &args[k]);
    store_release(&go, 1);
    assert_int_equal(initiate(m->smp.cpu[0], &args[0]), 0);
    irq_enable();
    for (k = 1; k < ninit; k++) {
        assert_int_equal(smp_wait(&m->smp, inits[k], tsc_now() + ms_to_ticks(10000)), WAIT_OK);
        assert_int_equal(load_acquire(&m->smp.cpu[inits[k]]->ack.result), 0);
    }
    for (k = 0; k < ninit; k++)
        assert_int_equal(args[k].completed, ROUNDS);
    target_set_stop(&r, &ts);
    shootdown_multi_end_point(&mi);
    shootdown_collect(&sd, rec);
    for (i = 0; i < NCPUS; i++)
        assert_int_equal(m->mach.topo.cpus[i].state, CPU_OK);
    target_set_release(&ts);
    shootdown_multi_release(&mi);
    shootdown_release(&sd);
}

static void test_initiators_to_all_others_never_read_stale(void **state)
{
    static struct sim m;
    struct experiment_record rec;
    uint32_t ninit;
    (void)state;
    memset(&rec, 0, sizeof(rec));
    sim_init(&m, NCPUS, 2000);
    for (uint32_t i = 1; i < NCPUS; i++)
        sim_start(&m, i);
    for (ninit = 1; ninit <= NCPUS; ninit = ninit == 3 ? NCPUS : ninit + 1) {
        run_concurrent(&m, ninit, false, 1, &rec);
        run_concurrent(&m, ninit, false, 33, &rec);
    }
    assert_int_equal(rec.verification.stale_reads, 0);
    /* every target and the initiator read every page of every round */
    assert_true(rec.verification.checks >= (uint64_t)ROUNDS * 34 * NCPUS * 6);
    assert_int_equal(sim_shutdown(&m), 0); /* no violation, every CPU handed back */
}

static void test_disjoint_groups_flush_exactly_their_pages(void **state)
{
    static struct sim m;
    struct experiment_record rec;
    uint32_t i;
    (void)state;
    memset(&rec, 0, sizeof(rec));
    sim_init(&m, NCPUS, 2000);
    for (i = 1; i < NCPUS; i++)
        sim_start(&m, i);
    sim_clear_counts(&m);
    run_concurrent(&m, NCPUS / 2, true, 4, &rec);
    assert_int_equal(rec.verification.stale_reads, 0);
    /*
     * One mm per group and one initiator per mm: every CPU is always exactly
     * one generation behind, so each round is 4 INVLPGs on both CPUs of the
     * group and never a full flush (other groups' requests never reach it).
     */
    for (i = 0; i < NCPUS; i++) {
        const struct tlbm_counts *c = sim_counts(&m, i);
        assert_int_equal(c->invlpg, ROUNDS * 4);
    }
    assert_int_equal(sim_shutdown(&m), 0); /* no violation, every CPU handed back */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initiators_to_all_others_never_read_stale),
        cmocka_unit_test(test_disjoint_groups_flush_exactly_their_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
