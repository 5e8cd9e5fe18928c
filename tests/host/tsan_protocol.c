/*
 * The mailbox and shootdown protocols on pthreads, with a simulated TLB per
 * "CPU" (tests/host/support_sim.c). Built twice: plain and under
 * ThreadSanitizer, which checks that every cross-CPU access is ordered by
 * the protocol's acquire/release pairs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/run/verify_collect.h"
#include "core/exp/common.h"
#include "core/machine/shootdown.h"
#include "core/machine/timing.h"
#include "tests/host/support_sim.h"

static int64_t add_index(struct percpu *self, void *arg)
{
    __atomic_add_fetch((uint64_t *)arg, self->index, __ATOMIC_RELAXED);
    return (int64_t)self->index * 10;
}

static void test_mailbox_commands_and_results(void **state)
{
    static struct sim m;
    uint64_t sum = 0;
    uint32_t round, i;
    (void)state;
    sim_init(&m, 4, 2000);
    for (i = 1; i < 4; i++)
        sim_start(&m, i);
    for (round = 0; round < 200; round++) {
        for (i = 1; i < 4; i++)
            smp_post(&m.smp, i, CMD_GENERIC, add_index, &sum);
        for (i = 1; i < 4; i++) {
            assert_int_equal(smp_wait(&m.smp, i, tsc_now() + ms_to_ticks(2000)), WAIT_OK);
            assert_int_equal(load_acquire(&m.smp.cpu[i]->ack.result), (int64_t)i * 10);
        }
    }
    assert_int_equal(__atomic_load_n(&sum, __ATOMIC_RELAXED), 200u * (1 + 2 + 3));
    for (i = 0; i < 4; i++)
        assert_int_equal(m.mach.topo.cpus[i].state, CPU_OK);
    assert_int_equal(sim_shutdown(&m), 0); /* no violation, every CPU handed back */
}

static void test_silent_cpu_is_named_by_its_deadline(void **state)
{
    static struct sim m;
    uint64_t sum = 0, t0;
    int64_t result = 0;
    (void)state;
    sim_init(&m, 3, 100);
    sim_start(&m, 1); /* CPU 2 never runs: a CPU that stopped answering */
    m.smp.cpu[2]->checkin = CHECKIN_DONE;
    t0 = tsc_now();
    assert_int_equal(smp_call(&m.smp, 2, CMD_PING, add_index, &sum, &result), WAIT_TIMEOUT);
    assert_true(tsc_now() - t0 >= ms_to_ticks(100));
    assert_true(tsc_now() - t0 < ms_to_ticks(5000));
    assert_int_equal(m.mach.topo.cpus[2].state, CPU_HUNG);
    assert_non_null(strstr(m.mach.topo.cpus[2].note, "ping"));
    /* the healthy CPU still answers */
    assert_int_equal(smp_call(&m.smp, 1, CMD_PING, add_index, &sum, &result), WAIT_OK);
    assert_int_equal(result, 10);
    sim_shutdown(&m);
}

/* Records which pages each target invalidated during one shootdown. */
static void clear_logs(struct sim *m) { sim_clear_counts(m); }

static void run_shootdowns(struct sim *m, enum flush_order order, uint32_t pages, uint32_t rounds)
{
    struct shootdown sd;
    struct target_set ts;
    struct runner r;
    struct run run;
    struct experiment_record rec;
    uint32_t i, k;
    memset(&r, 0, sizeof(r));
    memset(&run, 0, sizeof(run));
    memset(&rec, 0, sizeof(rec));
    run.cfg = m->cfg;
    r.run = &run;
    r.smp = &m->smp;
    assert_true(shootdown_init(&sd, &m->smp, &m->tm, 33));
    assert_true(target_set_init(&ts, m->ncpus));
    for (i = 1; i < m->ncpus; i++)
        ts.cpus[ts.n++] = i;
    assert_true(shootdown_sync_all(&sd));
    target_set_start(&r, &ts);
    assert_true(shootdown_verify_cpus(&sd, ts.cpus, ts.n, 0, pages, false));
    for (k = 0; k < rounds; k++) {
        clear_logs(m);
        testmem_flip(&m->tm, 0, pages);
        assert_true(shootdown_flush(&sd, ts.cpus, ts.n, order, 0, pages, FLUSH_VERIFY) > 0);
        assert_true(shootdown_wait_verified(&sd));
        for (i = 0; i < m->ncpus; i++) {
            const struct tlbm_counts *c = sim_counts(m, i);
            if (pages <= 33) {
                /* exactly the requested pages, each once, no full flush */
                assert_int_equal(c->invlpg, pages);
                for (uint32_t p = 0; p < pages; p++)
                    assert_true(m->mach.model.cpu[i]->invlpg_log[p] == testmem_va(p));
                assert_int_equal(c->full_flushes, 0);
            } else {
                /* above the ceiling: one full flush instead */
                assert_int_equal(c->invlpg, 0);
                assert_int_equal(c->full_flushes, 1);
            }
        }
    }
    target_set_stop(&r, &ts);
    shootdown_collect(&sd, &rec);
    assert_int_equal(rec.verification.stale_reads, 0);
    assert_true(rec.verification.checks >= (uint64_t)rounds * pages * m->ncpus);
    target_set_release(&ts);
    shootdown_release(&sd);
}

static void test_shootdown_flushes_exactly_the_range(void **state)
{
    static struct sim m;
    (void)state;
    sim_init(&m, 4, 2000);
    for (uint32_t i = 1; i < 4; i++)
        sim_start(&m, i);
    run_shootdowns(&m, ORDER_SEQUENTIAL, 1, 20);
    run_shootdowns(&m, ORDER_CONCURRENT, 1, 20);
    run_shootdowns(&m, ORDER_CONCURRENT, 33, 10);
    run_shootdowns(&m, ORDER_SEQUENTIAL, 64, 10);
    assert_int_equal(sim_shutdown(&m), 0); /* no violation, every CPU handed back */
}

/* Without any invalidation the simulated TLBs keep the old frames: the verifier must see it. */
static void test_verifier_sees_a_missing_invalidation(void **state)
{
    static struct sim m;
    struct shootdown sd;
    struct experiment_record rec;
    uint32_t cpus[3] = { 1, 2, 3 };
    (void)state;
    memset(&rec, 0, sizeof(rec));
    sim_init(&m, 4, 2000);
    for (uint32_t i = 1; i < 4; i++)
        sim_start(&m, i);
    assert_true(shootdown_init(&sd, &m.smp, &m.tm, 33));
    assert_true(shootdown_verify_cpus(&sd, cpus, 3, 0, 4, false)); /* prime all TLBs */
    shootdown_collect(&sd, &rec);
    assert_int_equal(rec.verification.stale_reads, 0);
    testmem_flip(&m.tm, 0, 4); /* remap, invalidate nothing */
    assert_true(shootdown_verify_cpus(&sd, cpus, 3, 0, 4, false));
    shootdown_collect(&sd, &rec);
    assert_int_equal(rec.verification.stale_reads, 4 * 4);
    assert_int_equal(rec.verification.first[0].va, testmem_va(0));
    assert_true(rec.verification.first[0].seen != rec.verification.first[0].expected);
    shootdown_release(&sd);
    assert_int_equal(sim_shutdown(&m), 0); /* no violation, every CPU handed back */
}

static void test_lazy_cpus_are_skipped_and_catch_up(void **state)
{
    static struct sim m;
    struct shootdown sd;
    struct target_set ts;
    struct runner r;
    struct run run;
    struct experiment_record rec;
    uint32_t lazy[1] = { 3 };
    uint64_t catchup = 0, gen_before;
    (void)state;
    memset(&r, 0, sizeof(r));
    memset(&run, 0, sizeof(run));
    memset(&rec, 0, sizeof(rec));
    sim_init(&m, 4, 2000);
    run.cfg = m.cfg;
    r.run = &run;
    r.smp = &m.smp;
    for (uint32_t i = 1; i < 4; i++)
        sim_start(&m, i);
    assert_true(shootdown_init(&sd, &m.smp, &m.tm, 33));
    assert_true(target_set_init(&ts, 4));
    ts.cpus[0] = 1;
    ts.cpus[1] = 2;
    ts.cpus[2] = 3;
    ts.n = 3;
    sd.lazy = LAZY_SKIP;
    assert_true(shootdown_sync_all(&sd));
    target_set_start(&r, &ts);
    assert_true(shootdown_verify_cpus(&sd, ts.cpus, 3, 0, 1, false));
    shootdown_set_lazy(&sd, lazy, 1, true);

    /* skip_lazy: CPU 3 gets no request and no IPI */
    gen_before = load_acquire(&m.smp.cpu[3]->flush.request_gen);
    clear_logs(&m);
    testmem_flip(&m.tm, 0, 1);
    assert_true(shootdown_flush(&sd, ts.cpus, 3, ORDER_CONCURRENT, 0, 1, FLUSH_VERIFY) > 0);
    assert_true(shootdown_wait_verified(&sd));
    assert_int_equal(sd.nsent, 2);
    assert_int_equal(load_acquire(&m.smp.cpu[3]->flush.request_gen), gen_before);
    assert_int_equal(sim_counts(&m, 3)->invlpg, 0);
    /* switching back it is one generation behind: a full flush, then fresh data */
    assert_true(shootdown_switch_back(&sd, lazy, 1, &catchup));
    assert_int_equal(sim_counts(&m, 3)->full_flushes, 1);

    /* freed_tables: the lazy CPU must be interrupted after all */
    clear_logs(&m);
    testmem_flip(&m.tm, 0, 1);
    assert_true(shootdown_flush(&sd, ts.cpus, 3, ORDER_CONCURRENT, 0, 1,
                                FLUSH_VERIFY | FLUSH_FREED_TABLES) > 0);
    assert_true(shootdown_wait_verified(&sd));
    assert_int_equal(sd.nsent, 3);
    assert_int_equal(sim_counts(&m, 3)->full_flushes, 1);
    assert_true(shootdown_switch_back(&sd, lazy, 1, &catchup));
    assert_int_equal(sim_counts(&m, 3)->full_flushes, 1); /* already current: nothing more */

    target_set_stop(&r, &ts);
    shootdown_collect(&sd, &rec);
    assert_int_equal(rec.verification.stale_reads, 0);
    target_set_release(&ts);
    shootdown_release(&sd);
    assert_int_equal(sim_shutdown(&m), 0); /* no violation, every CPU handed back */
}

static void test_target_that_never_acks_is_reported(void **state)
{
    static struct sim m;
    struct shootdown sd;
    uint32_t targets[2] = { 1, 2 };
    uint64_t t0;
    (void)state;
    sim_init(&m, 3, 100);
    sim_start(&m, 1);
    m.smp.cpu[2]->checkin = CHECKIN_DONE; /* checked in, then went silent */
    assert_true(shootdown_init(&sd, &m.smp, &m.tm, 33));
    testmem_flip(&m.tm, 0, 1);
    t0 = tsc_now();
    /* CPU 1 is idle in its command loop: it still takes IPIs */
    assert_int_equal(shootdown_flush(&sd, targets, 2, ORDER_CONCURRENT, 0, 1, 0), 0);
    assert_true(tsc_now() - t0 < ms_to_ticks(5000));
    assert_int_equal(m.mach.topo.cpus[2].state, CPU_HUNG);
    assert_non_null(strstr(m.mach.topo.cpus[2].note, "flush IPI"));
    assert_int_equal(m.mach.topo.cpus[1].state, CPU_OK);
    shootdown_release(&sd);
    sim_shutdown(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mailbox_commands_and_results),
        cmocka_unit_test(test_silent_cpu_is_named_by_its_deadline),
        cmocka_unit_test(test_shootdown_flushes_exactly_the_range),
        cmocka_unit_test(test_verifier_sees_a_missing_invalidation),
        cmocka_unit_test(test_lazy_cpus_are_skipped_and_catch_up),
        cmocka_unit_test(test_target_that_never_acks_is_reported),
    };
    return cmocka_run_group_tests_name("protocol", tests, NULL, NULL);
}
