/*
 * The lazy-TLB paths of the shootdown protocol (core/machine/shootdown.c's
 * should_flush(), core/machine/shootdown_verify.c's switch-back), checked on
 * the strict TLB model (sim/tlb_model.h) CPU by CPU, where the experiment
 * (shootdown_lazy) only sees the verification at the end:
 *
 *  - Xen's is_running filter: a vCPU that is not running gets no IPI, its
 *    ASID is marked (need_flush), it may still hold the old translation, and
 *    when it is scheduled again it does exactly one full flush before it
 *    reads anything; a second switch-back with nothing pending flushes nothing;
 *  - Linux's lazy skip (should_flush_tlb()): a lazy CPU gets no IPI and
 *    catches up by generation at switch-back, with one full flush however many
 *    shootdowns it missed;
 *  - freed page tables and the ipi_all policy reach a lazy CPU at once: it
 *    flushes everything before the initiator returns, and has nothing left to
 *    catch up;
 *  - with a page table really unlinked and freed, no CPU, the lazy one
 *    included, keeps a paging-structure entry that walks into it;
 *  - the switch-back's full barrier, on the model's store buffers
 *    (sim/storebuf.h): the lazy CPU is held at its load of tlb_gen
 *    (need_flush) whenever that load passed its store of is_lazy
 *    (is_running), and a shootdown runs meanwhile; with the barrier the load
 *    never passes, and the switch-back reads nothing stale.
 *
 * tests/sim/mutants.sh runs this file built with TLBSCOPE_MUTANT=xen_no_catchup,
 * =lazy_ipi_anyway, =freed_tables_skips_lazy, =lazy_switch_no_barrier and
 * =xen_switch_no_barrier (core/mutant.h) and expects it to fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/machine/shootdown.h"
#include "core/machine/timing.h"
#include "sim/storebuf.h"
#include "tests/host/support_sim.h"

#define NCPUS 4
#define CEILING 33
#define LAZY_CPU 3 /* the farthest target, as shootdown_lazy picks */
#define PAGES 4
#define ROUNDS 40

static void bench_start(struct sim_bench *b, enum lazy_policy policy)
{
    struct tlbm_config cfg;
    tlbm_config_defaults(&cfg);
    cfg.seed = 11;
    sim_bench_start(b, NCPUS, &cfg, CEILING);
    b->sd.lazy = policy;
}

static void bench_stop(struct sim_bench *b)
{
    struct experiment_record rec;
    uint32_t violations = sim_bench_stop(b, &rec);
    if (rec.verification.stale_reads)
        fail_msg("%llu stale reads; the first on CPU %u at VA 0x%llx",
                 (unsigned long long)rec.verification.stale_reads, rec.verification.first[0].cpu,
                 (unsigned long long)rec.verification.first[0].va);
    assert_int_equal(violations, 0);
}

static const uint32_t lazy_cpu[1] = { LAZY_CPU };

/*
 * The first `n` targets and the initiator cache pages [0, PAGES) (a lazy CPU
 * that missed a shootdown must not read before it switches back); returns
 * their frames before the remap.
 */
static void prime_and_flip_n(struct sim_bench *b, uint32_t n, uint64_t *old_frame)
{
    uint32_t p;
    assert_true(shootdown_verify_cpus(&b->sd, b->ts.cpus, n, 0, PAGES, false));
    for (p = 0; p < PAGES; p++)
        old_frame[p] = testmem_frame(&b->m.tm, p);
    testmem_flip(&b->m.tm, 0, PAGES);
}

static void prime_and_flip(struct sim_bench *b, uint64_t *old_frame)
{
    prime_and_flip_n(b, b->ts.n, old_frame);
}

/* How many pages CPU c still maps to their old frame. */
static uint32_t old_held(struct sim_bench *b, uint32_t c, const uint64_t *old_frame)
{
    uint32_t p, n = 0;
    for (p = 0; p < PAGES; p++) {
        uint64_t pa = 0;
        if (tlbm_holds(&b->m.mach.model, c, testmem_va(p), &pa) && pa == old_frame[p])
            n++;
    }
    return n;
}

static bool was_sent(const struct shootdown *sd, uint32_t cpu)
{
    uint32_t i;
    for (i = 0; i < sd->nsent; i++)
        if (sd->sent[i] == cpu)
            return true;
    return false;
}

/* One shootdown of the flipped pages; the lazy CPU must (or must not) be interrupted. */
static void shoot(struct sim_bench *b, uint32_t flags, bool lazy_gets_ipi)
{
    uint32_t c;
    sim_clear_counts(&b->m);
    assert_true(shootdown_flush(&b->sd, b->ts.cpus, b->ts.n, ORDER_CONCURRENT, 0, PAGES, flags) >
                0);
    if (was_sent(&b->sd, LAZY_CPU) != lazy_gets_ipi)
        fail_msg("CPU %u (lazy/not running) %s a flush IPI", LAZY_CPU,
                 lazy_gets_ipi ? "did not get" : "got");
    assert_int_equal(b->sd.nsent, lazy_gets_ipi ? NCPUS - 1 : NCPUS - 2);
    for (c = 1; c < NCPUS; c++) {
        const struct tlbm_counts *n = sim_counts(&b->m, c);
        if (c == LAZY_CPU && !lazy_gets_ipi) {
            /* skipped: it did nothing yet */
            assert_int_equal(n->invlpg + n->full_flushes, 0);
        } else if (c == LAZY_CPU) {
            /* a lazy CPU reached by a request drops everything (Linux: switch to init_mm) */
            assert_int_equal(n->invlpg, 0);
            assert_int_equal(n->full_flushes, 1);
        } else {
            assert_int_equal(n->invlpg, PAGES);
            assert_int_equal(n->full_flushes, 0);
        }
    }
}

/* The lazy CPU switches back: `flushes` full flushes, then nothing old is left. */
static void switch_back(struct sim_bench *b, const uint64_t *old_frame, uint32_t flushes)
{
    uint64_t catchup = 0;
    sim_clear_counts(&b->m);
    assert_true(shootdown_switch_back(&b->sd, lazy_cpu, 1, &catchup));
    if (sim_counts(&b->m, LAZY_CPU)->full_flushes != flushes)
        fail_msg("CPU %u switched back with %llu full flushes, want %u", LAZY_CPU,
                 (unsigned long long)sim_counts(&b->m, LAZY_CPU)->full_flushes, flushes);
    assert_int_equal(sim_counts(&b->m, LAZY_CPU)->invlpg, 0);
    if (old_held(b, LAZY_CPU, old_frame))
        fail_msg("CPU %u switched back but still maps %u pages to their old frames", LAZY_CPU,
                 old_held(b, LAZY_CPU, old_frame));
    assert_int_equal(load_acquire(&b->m.smp.cpu[LAZY_CPU]->tlbs.need_flush), 0);
}

static void test_xen_not_running_flushes_when_scheduled(void **state)
{
    static struct sim_bench b;
    uint64_t old_frame[PAGES];
    uint32_t round, stale_before = 0;
    (void)state;
    bench_start(&b, LAZY_XEN_RUNNING);
    for (round = 0; round < ROUNDS; round++) {
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, true); /* descheduled */
        prime_and_flip(&b, old_frame);
        shoot(&b, 0, false);
        /* the ASID was tickled (hvm_asid_flush_vcpu): the flush is owed */
        assert_int_equal(load_acquire(&b.m.smp.cpu[LAZY_CPU]->tlbs.need_flush), 1);
        stale_before += old_held(&b, LAZY_CPU, old_frame) != 0;
        switch_back(&b, old_frame, 1);
        /* switch_back leaves it descheduled again: nothing is owed a second time */
        switch_back(&b, old_frame, 0);
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, false);
    }
    /* the skip really left old translations behind: the catch-up had work to do */
    assert_true(stale_before > ROUNDS / 2);
    bench_stop(&b);
}

static void test_xen_running_vcpu_is_interrupted(void **state)
{
    static struct sim_bench b;
    uint64_t old_frame[PAGES];
    uint32_t round;
    (void)state;
    bench_start(&b, LAZY_XEN_RUNNING);
    for (round = 0; round < 10; round++) {
        prime_and_flip(&b, old_frame);
        sim_clear_counts(&b.m);
        assert_true(shootdown_flush(&b.sd, b.ts.cpus, b.ts.n, ORDER_CONCURRENT, 0, PAGES, 0) > 0);
        assert_int_equal(b.sd.nsent, NCPUS - 1);
        assert_int_equal(sim_counts(&b.m, LAZY_CPU)->invlpg, PAGES);
        assert_int_equal(old_held(&b, LAZY_CPU, old_frame), 0);
        assert_int_equal(load_acquire(&b.m.smp.cpu[LAZY_CPU]->tlbs.need_flush), 0);
    }
    bench_stop(&b);
}

static void test_linux_lazy_catches_up_once(void **state)
{
    static struct sim_bench b;
    uint64_t old_frame[PAGES], lazy_old[PAGES];
    uint32_t round, missed, stale_before = 0;
    (void)state;
    bench_start(&b, LAZY_SKIP);
    for (round = 0; round < ROUNDS / 2; round++) {
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, true);
        /*
         * Three shootdowns missed while lazy (an odd number: the pages end on
         * the other bank than the one the lazy CPU cached): one full flush
         * catches up on all of them.
         */
        for (missed = 0; missed < 3; missed++) {
            prime_and_flip_n(&b, missed ? b.ts.n - 1 : b.ts.n, old_frame);
            if (!missed)
                memcpy(lazy_old, old_frame, sizeof(lazy_old));
            shoot(&b, 0, false);
        }
        assert_true(b.m.smp.cpu[LAZY_CPU]->local_tlb_gen < load_acquire(&b.sd.mm.tlb_gen));
        stale_before += old_held(&b, LAZY_CPU, lazy_old) != 0;
        switch_back(&b, lazy_old, 1);
        switch_back(&b, lazy_old, 0); /* current now: nothing to catch up */
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, false);
    }
    assert_true(stale_before > ROUNDS / 4);
    bench_stop(&b);
}

static void test_freed_tables_and_ipi_all_reach_lazy_cpus(void **state)
{
    static struct sim_bench b;
    uint64_t old_frame[PAGES];
    uint32_t round;
    (void)state;
    bench_start(&b, LAZY_SKIP);
    for (round = 0; round < 10; round++) {
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, true);
        prime_and_flip(&b, old_frame);
        shoot(&b, FLUSH_FREED_TABLES, true);
        /* flushed before the initiator returned, and current: no catch-up left */
        assert_int_equal(old_held(&b, LAZY_CPU, old_frame), 0);
        switch_back(&b, old_frame, 0);
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, false);
    }
    b.sd.lazy = LAZY_IPI_ALL;
    for (round = 0; round < 10; round++) {
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, true);
        prime_and_flip(&b, old_frame);
        shoot(&b, 0, true);
        assert_int_equal(old_held(&b, LAZY_CPU, old_frame), 0);
        switch_back(&b, old_frame, 0);
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, false);
    }
    bench_stop(&b);
}

/* On the lazy CPU: drop page 0 (and the walk to it), then walk to page 1 only. */
static int64_t cache_walk_not_page0(struct percpu *self, void *arg)
{
    (void)self;
    (void)arg;
    invlpg((const volatile void *)(uintptr_t)testmem_va(0));
    (void)tlb_read64(testmem_va(1));
    return 0;
}

/*
 * Freed page tables, as shootdown_lazy's freed_tables variant frees them:
 * the test pages' table is replaced (testmem_replace_table), the shootdown
 * says FLUSH_FREED_TABLES, then the old table is freed. The lazy CPU holds
 * no translation of page 0, only the walk to page 1: its PDE entry names the
 * table about to be freed. Linux interrupts it, so once the shootdown
 * returns no CPU holds a paging-structure entry for the freed table, and
 * the lazy CPU, reading page 0 before any switch-back, walks the new one.
 * (A lazy CPU left out would walk the freed table: freed_tables_skips_lazy.)
 */
static void test_no_cpu_keeps_a_walk_into_the_freed_table(void **state)
{
    static struct sim_bench b;
    struct tlbm_config cfg;
    uint32_t round, c;
    (void)state;
    tlbm_config_defaults(&cfg);
    cfg.seed = 11;
    cfg.spec_per_65536 = cfg.pte_spec_per_65536 = 0; /* only what the CPUs read */
    sim_bench_start(&b, NCPUS, &cfg, CEILING);
    b.sd.lazy = LAZY_SKIP;
    for (round = 0; round < 10; round++) {
        uint64_t old = (uint64_t)(uintptr_t)b.m.tm.pte, catchup = 0;
        target_set_stop(&b.r, &b.ts);
        smp_post(&b.m.smp, LAZY_CPU, CMD_GENERIC, cache_walk_not_page0, NULL);
        assert_int_equal(smp_wait(&b.m.smp, LAZY_CPU, tsc_now() + ms_to_ticks(2000)), WAIT_OK);
        target_set_start(&b.r, &b.ts);
        assert_false(tlbm_holds(&b.m.mach.model, LAZY_CPU, testmem_va(0), NULL));
        assert_true(tlbm_psc_table(&b.m.mach.model, LAZY_CPU, testmem_va(0), 2, b.sd.kernel_pcid) ==
                    old);
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, true);
        testmem_replace_table(&b.m.tm, 0, 1);
        assert_true(shootdown_flush(&b.sd, b.ts.cpus, b.ts.n, ORDER_CONCURRENT, 0, 1,
                                    FLUSH_FREED_TABLES | FLUSH_VERIFY) > 0);
        testmem_free_table(&b.m.tm);
        for (c = 0; c < NCPUS; c++)
            if (tlbm_psc_table(&b.m.mach.model, c, testmem_va(0), 2, b.sd.kernel_pcid) == old)
                fail_msg("round %u: CPU %u%s still walks through the freed page table", round, c,
                         c == LAZY_CPU ? " (lazy)" : "");
        assert_true(shootdown_wait_verified(&b.sd));
        assert_true(shootdown_switch_back(&b.sd, lazy_cpu, 1, &catchup));
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, false);
    }
    bench_stop(&b);
}

/*
 * The race a missing switch-back barrier opens: the lazy CPU's load of
 * `race_load` passed its store to `race_store`, still in its store buffer.
 * The hook holds the CPU there (2 s at most) until the initiator's shootdown
 * is done; the test's hand-shakes are host atomics, outside the model.
 */
static const volatile void *race_load, *race_store;
static uint32_t in_window, flushed;

static void hold_at_race(uint32_t cpu, const volatile void *addr)
{
    uint64_t end = tsc_now() + ms_to_ticks(2000);
    if (cpu != LAZY_CPU || addr != race_load || !sim_sb_pending(cpu, race_store))
        return;
    __atomic_store_n(&in_window, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&flushed, __ATOMIC_ACQUIRE) && tsc_now() < end)
        ;
}

/*
 * Rounds of: the lazy CPU primed, then sent a switch-back (VEC_SWITCH) to
 * read the pages; if it is held at the race point, the initiator remaps the
 * pages and shoots them down meanwhile, so its switch-back reads them after
 * a shootdown that skipped it (it read "lazy" / "not running"). With the
 * barrier it never is: the shootdown follows the switch-back, and a second
 * switch-back catches up. Returns the rounds that were held.
 */
static uint32_t switch_back_races(enum lazy_policy policy)
{
    static struct sim_bench b;
    uint32_t round, held = 0, stale_rounds = 0, first = 0;
    struct percpu *lz;
    uint64_t catchup = 0, deadline;
    bench_start(&b, policy);
    lz = b.m.smp.cpu[LAZY_CPU];
    race_store = policy == LAZY_XEN_RUNNING ? (const volatile void *)&lz->tlbs.is_running
                                            : (const volatile void *)&lz->tlbs.is_lazy;
    race_load = policy == LAZY_XEN_RUNNING ? (const volatile void *)&lz->tlbs.need_flush
                                           : (const volatile void *)&b.sd.mm.tlb_gen;
    sim_sb_set_hold_ns(1000000000ull); /* the held CPU's stores stay pending while it is held */
    sim_sb_set_reorder_hook(hold_at_race);
    for (round = 0; round < ROUNDS / 2; round++) {
        uint64_t stale = lz->verify_stale, gen;
        __atomic_store_n(&in_window, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&flushed, 0, __ATOMIC_RELAXED);
        shootdown_set_lazy(&b.sd, lazy_cpu, 1, true);
        assert_true(shootdown_verify_cpus(&b.sd, b.ts.cpus, b.ts.n, 0, PAGES, false));
        /* what shootdown_switch_back() asks, without waiting: the pages read after catch-up */
        b.sd.verify.first = 0;
        b.sd.verify.count = PAGES;
        b.sd.verify.large = false;
        b.sd.verify.return_to_user = false;
        gen = b.sd.verify.gen + 1;
        store_release(&b.sd.verify.gen, gen);
        assert_true(apic_send_ipi_mask(lazy_cpu, 1, b.m.smp.apic_id, 0, VEC_SWITCH));
        deadline = tsc_now() + ms_to_ticks(2000);
        while (!__atomic_load_n(&in_window, __ATOMIC_ACQUIRE) &&
               load_acquire(&lz->flush.switch_gen) != gen && tsc_now() < deadline)
            cpu_relax();
        held += __atomic_load_n(&in_window, __ATOMIC_ACQUIRE);
        testmem_flip(&b.m.tm, 0, PAGES);
        assert_true(shootdown_flush(&b.sd, b.ts.cpus, b.ts.n, ORDER_CONCURRENT, 0, PAGES, 0) > 0);
        __atomic_store_n(&flushed, 1, __ATOMIC_RELEASE);
        assert_int_equal(smp_wait_answer(&b.m.smp, LAZY_CPU, &lz->flush.switch_gen, ANSWER_EQ,
                                         gen, tsc_now() + ms_to_ticks(2000)),
                         true);
        if (lz->verify_stale != stale && !stale_rounds++)
            first = round;
        /* caught up, as the experiment leaves it */
        assert_true(shootdown_switch_back(&b.sd, lazy_cpu, 1, &catchup));
    }
    sim_sb_set_reorder_hook(NULL);
    sim_sb_set_hold_ns(0);
    if (stale_rounds)
        fail_msg("%u of %u rounds (the first: %u; %u held at the race): CPU %u switched back and "
                 "read stale words; the shootdown skipped it as %s while its load, passing that "
                 "store, read %s",
                 stale_rounds, ROUNDS / 2, first, held, LAZY_CPU,
                 policy == LAZY_XEN_RUNNING ? "not running" : "lazy",
                 policy == LAZY_XEN_RUNNING ? "no tickle" : "the generation before the shootdown");
    bench_stop(&b);
    return held;
}

static void test_linux_switch_back_orders_is_lazy_before_tlb_gen(void **state)
{
    (void)state;
    /* with the barrier the load never passes the store: no round is held */
    assert_int_equal(switch_back_races(LAZY_SKIP), 0);
}

static void test_xen_switch_back_orders_is_running_before_need_flush(void **state)
{
    (void)state;
    assert_int_equal(switch_back_races(LAZY_XEN_RUNNING), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xen_not_running_flushes_when_scheduled),
        cmocka_unit_test(test_xen_running_vcpu_is_interrupted),
        cmocka_unit_test(test_linux_lazy_catches_up_once),
        cmocka_unit_test(test_freed_tables_and_ipi_all_reach_lazy_cpus),
        cmocka_unit_test(test_no_cpu_keeps_a_walk_into_the_freed_table),
        cmocka_unit_test(test_linux_switch_back_orders_is_lazy_before_tlb_gen),
        cmocka_unit_test(test_xen_switch_back_orders_is_running_before_need_flush),
    };
    return cmocka_run_group_tests_name("lazy TLB paths on the strict model", tests, NULL, NULL);
}
