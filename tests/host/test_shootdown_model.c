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
 *  - a 2 MiB page is verified in every 4 KiB part (a stale splintered part
 *    is seen).
 *
 *  - PTI's return to user refills the user working set (all of it after the
 *    deferred flush, none of it after INVLPG + INVPCID);
 *  - flush_ceiling's targets refill their working set after acknowledging,
 *    and its two forms of the working set map as described;
 *  - the breakdown of each shootdown: the initiator's parts add up to its
 *    latency, and delivery + acknowledgement leaves the handler out, the
 *    handler of the target that acknowledged last (not the slowest one).
 *
 * tests/sim/mutants.sh runs this file built with TLBSCOPE_MUTANT=swap_order,
 * =ack_before_flush, =verify_inside_window, =verify_2m_first_word,
 * =pti_ws_untouched, =refill_before_ack, =ws_frames_contiguous and
 * =breakdown_keeps_handler, and the build with =breakdown_slowest_handler
 * (sim/sim.mk NUM_MUTANTS)
 * (core/mutant.h) and expects it to fail.
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
    uint64_t old_frame[TEST_PAGES], latency;
    uint32_t round, i, p;
    for (round = 0; round < rounds; round++) {
        /* every CPU caches the current translations first: there is something to shoot */
        assert_true(shootdown_verify_cpus(&b->sd, b->ts.cpus, b->ts.n, 0, pages, false));
        for (p = 0; p < pages; p++)
            old_frame[p] = testmem_frame(&b->m.tm, p);
        testmem_flip(&b->m.tm, 0, pages);
        sim_clear_counts(&b->m);
        latency = shootdown_flush(&b->sd, b->ts.cpus, b->ts.n, order, 0, pages, 0);
        assert_true(latency > 0);
        /*
         * The initiator's timed window ends at the last acknowledgement. In sequential order
         * it holds the initiator's own flush and then each target's, `pages` INVLPGs of 1 ms
         * each: a target that acknowledges first lets it close after the local flush and the
         * delivery alone (the ticket read after the window still finds the targets' work
         * done by the time shootdown_flush() returns, so the check below cannot see that).
         */
        if (order == ORDER_SEQUENTIAL && pages <= CEILING)
            assert_true(latency >= ms_to_ticks(2 * (uint64_t)pages));
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
        struct spin_arg spin = { .stop = &stop, .deadline = tsc_now() + ms_to_ticks(10000) };
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

/* Reads, on the CPU it runs on, one word of the first 2 MiB test page at the given offset. */
static int64_t read_2m_part(struct percpu *self, void *arg)
{
    (void)self;
    (void)tlb_read64(testmem_va_2m(0) + *(const uint64_t *)arg);
    return 0;
}

/*
 * A 2 MiB page is verified in every 4 KiB part: a target that cached only
 * part 300 of it, as a 4 KiB entry (the model splinters every 2 MiB fill
 * here, and speculates nothing), still maps the old frame there after a
 * remap without invalidation, which a read of part 0 (walked afresh) cannot
 * see. An INVLPG of the page then drops the part, and the target is clean.
 */
static void test_2m_pages_are_verified_in_every_part(void **state)
{
    static struct sim_bench b;
    struct tlbm_config cfg;
    struct experiment_record rec;
    uint64_t offset = 300 * PAGE_4K;
    const uint32_t target[1] = { 1 };
    (void)state;
    model_config(&cfg);
    cfg.spec_per_65536 = cfg.pte_spec_per_65536 = 0;
    cfg.splinter_per_65536 = 65536;
    sim_bench_start(&b, NCPUS, &cfg, CEILING);
    target_set_stop(&b.r, &b.ts);
    smp_post(&b.m.smp, target[0], CMD_GENERIC, read_2m_part, &offset);
    assert_int_equal(smp_wait(&b.m.smp, target[0], tsc_now() + ms_to_ticks(2000)), WAIT_OK);
    assert_int_equal(tlbm_count_splinters(&b.m.mach.model, target[0], testmem_va_2m(0),
                                          (int)b.sd.kernel_pcid),
                     1);
    assert_false(tlbm_holds(&b.m.mach.model, target[0], testmem_va_2m(0), NULL));
    target_set_start(&b.r, &b.ts);

    testmem_flip_2m(&b.m.tm, 0, 1); /* and no invalidation */
    assert_true(shootdown_verify_cpus(&b.sd, target, 1, 0, 1, true));
    memset(&rec, 0, sizeof(rec));
    shootdown_collect(&b.sd, &rec);
    assert_int_equal(rec.verification.checks, 2); /* one page on the initiator and the target */
    if (rec.verification.stale_reads != 1)
        fail_msg("%llu stale pages: the stale part 300 on CPU 1 was not seen",
                 (unsigned long long)rec.verification.stale_reads);
    assert_int_equal(rec.verification.first[0].cpu, target[0]);
    assert_true(rec.verification.first[0].va == testmem_va_2m(0) + offset);

    assert_true(shootdown_flush(&b.sd, target, 1, ORDER_CONCURRENT, 0, 1, FLUSH_STRIDE_2M) > 0);
    assert_true(shootdown_verify_cpus(&b.sd, target, 1, 0, 1, true));
}

/*
 * PTI's return to user refills the user working set: with INVLPG + INVPCID
 * it is still in the user PCID (only the flushed pages miss), after the
 * deferred flush every page of it misses. Before issue 20 the return
 * touched the flushed pages only, so the deferred flush looked as cheap.
 */
static void test_return_to_user_refills_the_user_working_set(void **state)
{
    static struct sim_bench b;
    const uint32_t ws = 64, pages = 8;
    uint32_t variant, i, c;
    (void)state;
    bench_start(&b);
    b.sd.user_ws_pages = ws;
    for (variant = 0; variant < 2; variant++) {
        const struct tlbm_counts *n;
        b.sd.pti = variant ? PTI_DEFERRED : PTI_INVPCID;
        target_set_stop(&b.r, &b.ts);
        assert_true(shootdown_sync_all(&b.sd));
        target_set_start(&b.r, &b.ts);
        assert_true(shootdown_prime_user(&b.sd, b.ts.cpus, b.ts.n));
        /* before the sample every CPU's user PCID holds the working set */
        for (c = 0; c < NCPUS; c++)
            for (i = 0; i < ws; i++)
                if (!tlbm_count_entries(&b.m.mach.model, c, TEST_WS_VA_BASE + i * PAGE_4K,
                                        (int)b.sd.user_pcid))
                    fail_msg("CPU %u: working-set page %u not in the user PCID after priming",
                             c, i);
        assert_true(shootdown_verify_cpus(&b.sd, b.ts.cpus, b.ts.n, 0, pages, false));
        testmem_flip(&b.m.tm, 0, pages);
        assert_true(shootdown_flush(&b.sd, b.ts.cpus, b.ts.n, ORDER_CONCURRENT, 0, pages, 0) > 0);
        sim_clear_counts(&b.m);
        (void)shootdown_return_to_user(&b.sd, b.m.smp.cpu[0], 0, pages);
        n = sim_counts(&b.m, 0);
        assert_int_equal(n->reads, pages + ws);
        if (variant)
            assert_true(n->misses >= ws); /* the whole user PCID was flushed: all refilled */
        else
            assert_true(n->misses <= pages); /* the working set stayed: only the pages miss */
        /* the targets' deferred flushes, at their verification */
        assert_true(shootdown_verify_cpus(&b.sd, b.ts.cpus, b.ts.n, 0, pages, false));
    }
    b.sd.pti = PTI_OFF;
    b.sd.user_ws_pages = 0;
    bench_stop(&b);
}

/*
 * flush_ceiling's targets acknowledge first, then refill their working set
 * (timed on their own clock): no Linux initiator waits for a refill. The
 * handler's own time (entry to ack) must not hold the refill. Before issue
 * 20 the refill came before the ack, inside the initiator's latency.
 */
static void test_targets_refill_after_acknowledging(void **state)
{
    static struct sim_bench b;
    uint32_t round, i, after = 0;
    (void)state;
    bench_start(&b);
    b.sd.touch_pages = TEST_WS_PAGES;
    b.sd.touch_form = WS_SCATTERED;
    for (round = 0; round < 8; round++) {
        uint64_t slowest = 0;
        bool all_after = true;
        testmem_flip(&b.m.tm, 0, 1);
        assert_true(shootdown_flush(&b.sd, b.ts.cpus, b.ts.n, ORDER_CONCURRENT, 0, 1,
                                    FLUSH_VERIFY) > 0);
        assert_true(shootdown_wait_verified(&b.sd));
        for (i = 0; i < b.ts.n; i++) {
            const struct flush_slot *f = &b.m.smp.cpu[b.ts.cpus[i]]->flush;
            assert_true(f->refill_ticks > 0);
            slowest = f->refill_ticks > slowest ? f->refill_ticks : slowest;
            /* 4096 reads against one INVLPG: a handler holding the refill is longer */
            all_after &= f->handler_ticks < f->refill_ticks;
        }
        assert_int_equal(b.sd.max_refill_ticks, slowest);
        after += all_after;
    }
    /* a preempted host thread may stretch one handler; the old order never passes */
    if (after < 5)
        fail_msg("in %u of 8 rounds a target's handler (entry to ack) took longer than its "
                 "refill: the refill is inside the acknowledgement",
                 8 - after);
    b.sd.touch_pages = 0;
    bench_stop(&b);
}

/*
 * The two forms of the working set (core/machine/testmem.h): contiguous, page i on
 * the frame after page i - 1's (the lower bound: coalescable, cached page
 * tables); scattered, every page on its own frame of the pool, no two
 * consecutive pages on adjacent frames. Each page reads the line
 * testmem_ws_pa() names, through its own mapping, and the line of its PTE
 * is among those a cold refill flushes (testmem_ws_chill()).
 */
static void test_working_set_forms_map_as_described(void **state)
{
    static struct sim_bench b;
    static uint8_t used[TEST_WS_POOL_FRAMES];
    uint32_t i;
    (void)state;
    bench_start(&b);
    assert_true(b.m.tm.has_ws && b.m.tm.has_ws_scattered);
    memset(used, 0, sizeof(used));
    for (i = 0; i < TEST_WS_PAGES; i++) {
        uint64_t size = 0, pa, frame;
        uint64_t *pte = pt_leaf(&b.m.pt, testmem_ws_va(WS_SCATTERED, i), &size);
        assert_non_null(pte);
        assert_int_equal(size, PAGE_4K);
        frame = *pte & PTE_ADDR_MASK;
        pa = testmem_ws_pa(&b.m.tm, WS_SCATTERED, i);
        assert_int_equal(frame, pa & ~(PAGE_4K - 1));
        assert_true(frame >= b.m.tm.ws_pool &&
                    frame < b.m.tm.ws_pool + (uint64_t)TEST_WS_POOL_FRAMES * PAGE_4K);
        if (used[(frame - b.m.tm.ws_pool) / PAGE_4K]++)
            fail_msg("scattered page %u shares frame 0x%llx with another page", i,
                     (unsigned long long)frame);
        if (i) {
            uint64_t prev = testmem_ws_pa(&b.m.tm, WS_SCATTERED, i - 1) & ~(PAGE_4K - 1);
            if (frame == prev + PAGE_4K || prev == frame + PAGE_4K)
                fail_msg("scattered pages %u and %u are on adjacent frames", i - 1, i);
        }
        /* the page reads its own line through the TLB: the word at testmem_ws_pa() */
        *(volatile uint64_t *)(uintptr_t)pa = 0x5ca77e4ed0000000ull + i;
        assert_int_equal(tlb_read64(testmem_ws_va(WS_SCATTERED, i)), 0x5ca77e4ed0000000ull + i);
        /* the cold refill flushes the line of this page's PTE */
        if (b.m.tm.ws_pte_lines[i / 8] != ((uint64_t)(uintptr_t)pte & ~63ull))
            fail_msg("the line of scattered page %u's PTE is not among those flushed", i);
        /* the contiguous form: consecutive frames of its small pool */
        if (i % TEST_WS_FRAMES)
            assert_int_equal(testmem_ws_pa(&b.m.tm, WS_CONTIGUOUS, i) & ~(PAGE_4K - 1),
                             (testmem_ws_pa(&b.m.tm, WS_CONTIGUOUS, i - 1) & ~(PAGE_4K - 1)) +
                                 PAGE_4K);
    }
}

/*
 * The breakdown of each shootdown (struct shootdown_parts): the initiator's
 * parts partition its latency (sequential: local flush, send, wait;
 * concurrent: send, then a wait that holds the local flush), and the
 * derived delivery + acknowledgement is the wait without the handler of
 * the target that acknowledged last (20 us per INVLPG: a handler long
 * enough to see): the two add up to the wait.
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
        uint64_t best = 0;
        uint32_t i, last = UINT32_MAX;
        assert_true(p->send > 0 && p->local_flush > 0 && p->handler > 0);
        /* the handler is the last acknowledger's: the highest ticket of this round */
        for (i = 0; i < b->ts.n; i++) {
            const struct percpu *c = b->m.smp.cpu[b->ts.cpus[i]];
            if (c->flush.ack_ticket > best) {
                best = c->flush.ack_ticket;
                last = b->ts.cpus[i];
            }
        }
        assert_int_equal(p->last_cpu, last);
        assert_int_equal(p->handler, b->m.smp.cpu[last]->flush.handler_ticks);
        assert_true(p->handler <= b->sd.max_handler_ticks);
        assert_int_equal(shootdown_handler_in_wait(p) + shootdown_delivery_ack(p), p->wait);
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

/*
 * With k > 1 the slowest handler need not be the last to acknowledge (a
 * target woken late with a short handler): delivery + acknowledgement is the
 * wait minus the handler of the one whose ack ended it.
 */
static void test_the_last_acknowledger_handler_is_subtracted(void **state)
{
    /* target 1 ran the slowest handler but acknowledged first; target 2 acked last */
    const uint64_t ticket[3] = { 41, 40, 43 }, handler[3] = { 900, 5000, 700 };
    (void)state;
    assert_int_equal(shootdown_last_acker(ticket, handler, 3), 2);
    assert_int_equal(shootdown_last_acker(ticket, handler, 1), 0);
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
        cmocka_unit_test(test_2m_pages_are_verified_in_every_part),
        cmocka_unit_test(test_return_to_user_refills_the_user_working_set),
        cmocka_unit_test(test_targets_refill_after_acknowledging),
        cmocka_unit_test(test_working_set_forms_map_as_described),
        cmocka_unit_test(test_breakdown_parts_account_for_the_latency),
        cmocka_unit_test(test_the_last_acknowledger_handler_is_subtracted),
    };
    return cmocka_run_group_tests_name("shootdown on the strict model", tests, NULL, NULL);
}
