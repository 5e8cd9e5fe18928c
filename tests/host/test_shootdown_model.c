/*
 * The shootdown protocol's central claims, checked on the strict TLB model
 * (sim/tlb_model.h) where no test could see them before:
 *
 *  - the order: sequential flushes locally before the first flush IPI leaves,
 *    concurrent sends every IPI before its local flush (the model logs each
 *    CPU's instructions and IPIs with a global sequence number);
 *  - the acknowledgement: when shootdown_flush() returns, no target still
 *    holds the old translation of any page of the request, and each did
 *    exactly the work the request asked for (its INVLPGs, or one full flush
 *    above the ceiling), before any verification runs.
 *
 *  - verification outside the timed window: a target reads its pages only
 *    after the initiator's closing timestamp, even when it acknowledged long
 *    before the last target;
 *  - the full flush is Linux's (a CR3 write, the user PCID's flush deferred
 *    to the return to user), INVPCID single-context only as the variant,
 *    and the return to user does the deferred flush;
 *  - the breakdown of each shootdown: the initiator's parts add up to its
 *    latency, and delivery + acknowledgement leaves the handler out.
 *
 * tests/sim/mutants.sh runs this file built with TLBSCOPE_MUTANT=swap_order,
 * =ack_before_flush, =verify_inside_window and =breakdown_keeps_handler
 * (core/mutant.h) and expects it to fail.
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
#include "core/shootdown.h"
#include "core/timing.h"
#include "tests/host/support_sim.h"

#define NCPUS 4
#define CEILING 33

/* An EPYC-like model: PCID, INVPCID, INVLPGB with 8 pages per instruction. */
static void model_config(struct tlbm_config *cfg)
{
    tlbm_config_defaults(cfg);
    cfg->seed = 7;
    cfg->feat.pcid = cfg->feat.invpcid = cfg->feat.invlpgb = true;
    cfg->feat.invlpgb_max_extra = 7;
}

static void bench_start_latency(struct sim_bench *b, uint32_t invlpg_ns)
{
    struct tlbm_config cfg;
    model_config(&cfg);
    cfg.invlpg_latency_ns = invlpg_ns;
    sim_bench_start(b, NCPUS, &cfg, CEILING);
}

static void bench_start(struct sim_bench *b) { bench_start_latency(b, 0); }

static void bench_stop(struct sim_bench *b)
{
    struct experiment_record rec;
    assert_int_equal(sim_bench_stop(b, &rec), 0); /* no fault a CPU would take */
    assert_int_equal(rec.verification.stale_reads, 0);
}

/* Positions, in CPU 0's log, of its first/last local invalidation and first/last flush IPI. */
struct order_seen {
    uint64_t first_flush, last_flush, first_ipi, last_ipi;
    uint32_t flushes, ipis;
};

static void read_order(struct sim *m, struct order_seen *o)
{
    static struct tlbm_event ev[TLBM_LOG_EVENTS];
    uint32_t n = tlbm_events(&m->mach.model, 0, ev, TLBM_LOG_EVENTS), i;
    memset(o, 0, sizeof(*o));
    for (i = 0; i < n; i++) {
        bool flush = ev[i].kind == TLBM_EV_INVLPG ||
                     (ev[i].kind == TLBM_EV_CR3 && !(ev[i].a & CR3_NOFLUSH));
        bool ipi = ev[i].kind == TLBM_EV_IPI && ev[i].b == VEC_FLUSH;
        if (flush) {
            if (!o->flushes++)
                o->first_flush = ev[i].seq;
            o->last_flush = ev[i].seq;
        }
        if (ipi) {
            if (!o->ipis++)
                o->first_ipi = ev[i].seq;
            o->last_ipi = ev[i].seq;
        }
    }
}

static void check_order(struct sim_bench *b, enum flush_order order, uint32_t pages)
{
    struct order_seen o;
    uint32_t round;
    for (round = 0; round < 20; round++) {
        testmem_flip(&b->m.tm, 0, pages);
        sim_clear_counts(&b->m);
        assert_true(shootdown_flush(&b->sd, b->ts.cpus, b->ts.n, order, 0, pages, 0) > 0);
        read_order(&b->m, &o);
        /* the initiator's own work: every page, or one full flush above the ceiling */
        assert_int_equal(o.flushes, pages > CEILING ? 1 : pages);
        assert_int_equal(o.ipis, NCPUS - 1);
        if (order == ORDER_SEQUENTIAL) {
            if (o.last_flush > o.first_ipi)
                fail_msg("sequential order: a local invalidation (seq %llu) came after the first "
                         "flush IPI (seq %llu)", (unsigned long long)o.last_flush,
                         (unsigned long long)o.first_ipi);
        } else {
            if (o.last_ipi > o.first_flush)
                fail_msg("concurrent order: a flush IPI (seq %llu) left after the first local "
                         "invalidation (seq %llu)", (unsigned long long)o.last_ipi,
                         (unsigned long long)o.first_flush);
        }
    }
}

static void test_orders_are_what_they_claim(void **state)
{
    static struct sim_bench b;
    (void)state;
    bench_start(&b);
    check_order(&b, ORDER_SEQUENTIAL, 1);
    check_order(&b, ORDER_CONCURRENT, 1);
    check_order(&b, ORDER_SEQUENTIAL, 8);
    check_order(&b, ORDER_CONCURRENT, 8);
    check_order(&b, ORDER_SEQUENTIAL, 64); /* above the ceiling: a CR3 reload */
    check_order(&b, ORDER_CONCURRENT, 64);
    bench_stop(&b);
}

/* Fails when a target still maps a page of [0, pages) to the frame it had before the flip. */
static void check_targets_current(struct sim_bench *b, uint32_t pages, const uint64_t *old_frame)
{
    uint32_t i, p;
    for (i = 1; i < NCPUS; i++) {
        for (p = 0; p < pages; p++) {
            uint64_t pa = 0;
            if (tlbm_holds(&b->m.mach.model, i, testmem_va(p), &pa) && pa == old_frame[p])
                fail_msg("CPU %u acknowledged the shootdown but still maps VA 0x%llx to the old "
                         "frame 0x%llx", i, (unsigned long long)testmem_va(p),
                         (unsigned long long)pa);
        }
    }
}

static void check_acknowledged_work(struct sim_bench *b, enum flush_order order, uint32_t pages,
                                    uint32_t rounds)
{
    uint64_t old_frame[TEST_PAGES];
    uint32_t round, i, p;
    for (round = 0; round < rounds; round++) {
        /* every CPU caches the current translations first: there is something to shoot */
        assert_true(shootdown_verify_cpus(&b->sd, b->ts.cpus, b->ts.n, 0, pages, false));
        for (p = 0; p < pages; p++)
            old_frame[p] = testmem_frame(&b->m.tm, p);
        testmem_flip(&b->m.tm, 0, pages);
        sim_clear_counts(&b->m);
        assert_true(shootdown_flush(&b->sd, b->ts.cpus, b->ts.n, order, 0, pages, 0) > 0);
        /* now, before anyone verifies: the acknowledgement must mean the work is done */
        check_targets_current(b, pages, old_frame);
        for (i = 1; i < NCPUS; i++) {
            const struct tlbm_counts *c = sim_counts(&b->m, i);
            assert_int_equal(c->invlpg, pages > CEILING ? 0 : pages);
            assert_int_equal(c->full_flushes, pages > CEILING ? 1 : 0);
        }
    }
}

static void test_targets_are_flushed_when_the_initiator_returns(void **state)
{
    static struct sim_bench b;
    (void)state;
    /*
     * Each INVLPG takes 1 ms here, so a target that acknowledged first is
     * still flushing for 16 ms when the initiator looks: longer than the host
     * scheduler's slices, so that the initiator looks in time even when 2
     * shared cores run its 4 threads and more (20 us, tried first, let the
     * mutant ack_before_flush pass 2 runs in 3 on such a host). Sequential
     * order catches it best: the initiator has flushed before its IPIs, and
     * looks as soon as the acknowledgements are in.
     */
    bench_start_latency(&b, 1000000);
    check_acknowledged_work(&b, ORDER_SEQUENTIAL, 16, 24);
    check_acknowledged_work(&b, ORDER_CONCURRENT, 16, 8);
    check_acknowledged_work(&b, ORDER_CONCURRENT, 64, 30);
    bench_stop(&b);
}

/* A target that keeps interrupts off for a while before it spins: it acknowledges late. */
struct late_target {
    struct spin_arg *spin;
    uint64_t delay_ticks;
};

static int64_t late_spin(struct percpu *self, void *arg)
{
    struct late_target *a = arg;
    uint64_t until = tsc_now() + a->delay_ticks;
    irq_disable();
    while (!deadline_passed(until))
        cpu_relax(); /* the flush IPI stays pending meanwhile */
    return ipi_spin_as_target(self, a->spin);
}

static void test_targets_verify_after_the_window_closes(void **state)
{
    static struct sim_bench b;
    uint32_t round, i;
    (void)state;
    bench_start(&b);
    target_set_stop(&b.r, &b.ts);
    for (round = 0; round < 4; round++) {
        volatile uint32_t stop = 0;
        struct spin_arg spin = { &stop, tsc_now() + ms_to_ticks(10000) };
        /* CPU 3 answers 30 ms late: CPUs 1 and 2 acknowledge long before the window closes */
        struct late_target late = { &spin, ms_to_ticks(30) };
        ipi_start_spinners(&b.m.smp, b.ts.cpus, 2, &spin);
        smp_post(&b.m.smp, 3, CMD_GENERIC, late_spin, &late);
        testmem_flip(&b.m.tm, 0, 4);
        sim_clear_counts(&b.m);
        assert_true(shootdown_flush(&b.sd, b.ts.cpus, 3, ORDER_CONCURRENT, 0, 4, FLUSH_VERIFY) > 0);
        /*
         * The window is closed (CPU 3 acknowledged 30 ms after CPUs 1 and 2):
         * no target may have read a test page yet; spinning reads none.
         */
        for (i = 1; i < NCPUS; i++)
            if (sim_counts(&b.m, i)->reads)
                fail_msg("CPU %u read %llu test pages before the initiator's closing timestamp: "
                         "its verification was inside the timed window", i,
                         (unsigned long long)sim_counts(&b.m, i)->reads);
        assert_true(shootdown_wait_verified(&b.sd));
        for (i = 1; i < NCPUS; i++)
            assert_int_equal(sim_counts(&b.m, i)->reads, 4); /* then each verified its 4 pages */
        ipi_stop_spinners(&b.m.smp, b.ts.cpus, 3, &spin);
    }
    target_set_start(&b.r, &b.ts);
    bench_stop(&b);
}

/* Whether CPU i's log holds a CR3 write of the user PCID without NOFLUSH (a flush of it). */
static bool user_pcid_flushed(struct sim_bench *b, uint32_t cpu)
{
    static struct tlbm_event ev[TLBM_LOG_EVENTS];
    uint32_t n = tlbm_events(&b->m.mach.model, cpu, ev, TLBM_LOG_EVENTS), i;
    for (i = 0; i < n; i++)
        if (ev[i].kind == TLBM_EV_CR3 && (ev[i].a & CR3_PCID_MASK) == b->sd.user_pcid &&
            !(ev[i].a & CR3_NOFLUSH))
            return true;
    return false;
}

static void test_full_flush_is_linux_cr3_write(void **state)
{
    static struct sim_bench b;
    uint32_t i, variant;
    (void)state;
    bench_start(&b);
    b.sd.pti = PTI_INVPCID; /* even with INVPCID for pages, a full flush defers the user PCID */
    for (variant = 0; variant < 2; variant++) {
        b.sd.full_uses_invpcid = variant == 1;
        target_set_stop(&b.r, &b.ts); /* the sync is a command: the targets must be idle */
        assert_true(shootdown_sync_all(&b.sd));
        target_set_start(&b.r, &b.ts);
        assert_true(shootdown_verify_cpus(&b.sd, b.ts.cpus, b.ts.n, 0, 64, false));
        testmem_flip(&b.m.tm, 0, 64);
        sim_clear_counts(&b.m);
        assert_true(shootdown_flush(&b.sd, b.ts.cpus, b.ts.n, ORDER_CONCURRENT, 0, 64, 0) > 0);
        for (i = 0; i < NCPUS; i++) {
            const struct tlbm_counts *c = sim_counts(&b.m, i);
            /* Linux: CR3 write, user PCID marked; the variant: INVPCID on both PCIDs at once */
            assert_int_equal(c->invpcid, variant ? 2 : 0);
            assert_int_equal(b.m.smp.cpu[i]->user_flush_pending, variant ? 0 : 1);
        }
        /* the initiator's return to user does the deferred flush (and only then) */
        assert_false(user_pcid_flushed(&b, 0));
        (void)shootdown_return_to_user(&b.sd, b.m.smp.cpu[0], 0, 64);
        assert_int_equal(b.m.smp.cpu[0]->user_flush_pending, 0);
        assert_int_equal(user_pcid_flushed(&b, 0), variant == 0);
        /* the targets' deferred flushes, at their verification */
        assert_true(shootdown_verify_cpus(&b.sd, b.ts.cpus, b.ts.n, 0, 64, false));
    }
    b.sd.pti = PTI_OFF;
    b.sd.full_uses_invpcid = false;
    bench_stop(&b);
}

/*
 * The breakdown of each shootdown (struct shootdown_parts): the initiator's
 * parts partition its latency (sequential: local flush, send, wait;
 * concurrent: send, then a wait that holds the local flush), and the
 * derived delivery + acknowledgement is the wait without the slowest
 * target's handler (20 us per INVLPG: a handler long enough to see).
 */
static void check_parts(struct sim_bench *b, enum flush_order order, uint32_t pages)
{
    uint32_t round;
    for (round = 0; round < 6; round++) {
        const struct shootdown_parts *p = &b->sd.parts;
        uint64_t t;
        testmem_flip(&b->m.tm, 0, pages);
        t = shootdown_flush(&b->sd, b->ts.cpus, b->ts.n, order, 0, pages, 0);
        assert_true(t > 0);
        assert_true(p->send > 0 && p->local_flush > 0 && p->handler > 0);
        assert_int_equal(p->handler, b->sd.max_handler_ticks);
        if (order == ORDER_SEQUENTIAL) {
            assert_int_equal(t, p->local_flush + p->send + p->wait);
        } else {
            assert_int_equal(t, p->send + p->wait);
            assert_true(p->local_flush <= p->wait);
        }
        assert_int_equal(shootdown_delivery_ack(p), p->wait > p->handler ? p->wait - p->handler : 0);
        assert_true(shootdown_delivery_ack(p) < p->wait);
    }
}

static void test_breakdown_parts_account_for_the_latency(void **state)
{
    static struct sim_bench b;
    (void)state;
    bench_start_latency(&b, 20000);
    check_parts(&b, ORDER_SEQUENTIAL, 1);
    check_parts(&b, ORDER_CONCURRENT, 1);
    check_parts(&b, ORDER_SEQUENTIAL, 4);
    check_parts(&b, ORDER_CONCURRENT, 4);
    bench_stop(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders_are_what_they_claim),
        cmocka_unit_test(test_targets_are_flushed_when_the_initiator_returns),
        cmocka_unit_test(test_targets_verify_after_the_window_closes),
        cmocka_unit_test(test_full_flush_is_linux_cr3_write),
        cmocka_unit_test(test_breakdown_parts_account_for_the_latency),
    };
    return cmocka_run_group_tests_name("shootdown on the strict model", tests, NULL, NULL);
}
