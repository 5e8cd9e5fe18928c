/*
 * The modelled CPUs' store buffers (sim/storebuf.h), behind core/lib/atomic.h:
 * x86-TSO's litmus tests on two threads that play CPUs 0 and 1.
 *
 *  - store buffering: "x = 1; r0 = y" on CPU 0 and "y = 1; r1 = x" on CPU 1
 *    may both read 0 (CPU 0 is held at its load while CPU 1 runs), and with
 *    a full barrier, or a locked instruction, between store and load never;
 *  - a CPU reads its own pending store (forwarding), the others the old value;
 *  - stores become visible oldest first (a full buffer drains its oldest);
 *  - a fence, a locked RMW, a serialising instruction, HLT, the CPU's own
 *    events and the wall-clock hold each end the pending state.
 * The thread that plays no CPU sees no buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "sim/machine.h"
#include "sim/storebuf.h"
#include "tests/host/support_host.h"

static struct sim_machine mach;
/* the shared data of the litmus tests: each word on its own line */
static struct {
    uint64_t x __attribute__((aligned(64)));
    uint64_t y __attribute__((aligned(64)));
    uint64_t z __attribute__((aligned(64)));
    uint64_t a[SB_DEPTH + 1] __attribute__((aligned(64)));
} d;
/* the test's own hand-shakes: host atomics, outside the model */
static uint32_t go1, done1, fenced;
static uint64_t r1;

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Waits (2 s at most) for *flag to be set. */
static bool wait_flag(const uint32_t *flag)
{
    uint64_t end = now_ms() + 2000;
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
        if (now_ms() > end)
            return false;
    return true;
}

/* CPU 1: "y = 1; r1 = x", with a full barrier between them when `fenced`. */
static void *cpu1_sb(void *arg)
{
    (void)arg;
    sim_bind(&mach, 1, NULL);
    if (wait_flag(&go1)) {
        store_relaxed(&d.y, 1);
        if (__atomic_load_n(&fenced, __ATOMIC_RELAXED))
            full_barrier();
        r1 = load_acquire(&d.x);
    }
    full_barrier();
    sim_unbind();
    __atomic_store_n(&done1, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* On CPU 0, held at its load of y (it passed its store of x): CPU 1 runs its half now. */
static void hold_cpu0(uint32_t cpu, const volatile void *addr)
{
    if (cpu != 0 || addr != &d.y)
        return;
    __atomic_store_n(&go1, 1, __ATOMIC_RELEASE);
    assert_true(wait_flag(&done1));
}

static void setup(void)
{
    struct tlbm_config cfg;
    host_init();
    tlbm_config_defaults(&cfg);
    assert_true(sim_machine_init(&mach, 2, &cfg, 1, 2));
    memset(&d, 0, sizeof(d));
    sim_sb_set_hold_ns(1000000000ull); /* nothing ages while the test looks */
    go1 = done1 = 0;
    r1 = 99;
}

static void teardown(void)
{
    sim_sb_set_reorder_hook(NULL);
    sim_sb_set_hold_ns(0);
    sim_unbind();
    sim_machine_free(&mach);
}

/* One store-buffering round; returns r0, and r1 through the global. */
static uint64_t sb_round(bool fence)
{
    pthread_t t;
    uint64_t r0;
    setup();
    fenced = fence;
    sim_sb_set_reorder_hook(hold_cpu0);
    sim_bind(&mach, 0, NULL);
    assert_int_equal(pthread_create(&t, NULL, cpu1_sb, NULL), 0);
    store_relaxed(&d.x, 1);
    if (fence)
        full_barrier();
    r0 = load_acquire(&d.y);
    __atomic_store_n(&go1, 1, __ATOMIC_RELEASE); /* not held (fenced): CPU 1 runs after */
    assert_true(wait_flag(&done1));
    pthread_join(t, NULL);
    teardown();
    return r0;
}

static void test_loads_pass_earlier_stores(void **state)
{
    struct sim_sb_counts before, after;
    uint64_t r0;
    (void)state;
    sim_sb_counts(&before);
    r0 = sb_round(false);
    sim_sb_counts(&after);
    if (r0 != 0 || r1 != 0)
        fail_msg("store buffering: r0 = %llu, r1 = %llu; x86-TSO allows 0, 0 and the model "
                 "held CPU 0 at its load",
                 (unsigned long long)r0, (unsigned long long)r1);
    assert_true(after.passed > before.passed);
    assert_true(after.hidden > before.hidden);
}

static void test_a_full_barrier_orders_store_and_load(void **state)
{
    uint64_t r0;
    (void)state;
    r0 = sb_round(true);
    if (r0 == 0 && r1 == 0)
        fail_msg("store buffering with MFENCE: both loads read 0");
    assert_int_equal(r1, 1); /* CPU 0's store was visible before CPU 1 started */
}

/* CPU 1 reads x and the words of d.a into `seen`. */
static uint64_t seen[SB_DEPTH + 2];
static void *cpu1_reads(void *arg)
{
    uint32_t i;
    (void)arg;
    sim_bind(&mach, 1, NULL);
    seen[0] = load_acquire(&d.x);
    for (i = 0; i <= SB_DEPTH; i++)
        seen[i + 1] = load_relaxed(&d.a[i]);
    sim_unbind();
    return NULL;
}

static void read_on_cpu1(void)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, cpu1_reads, NULL), 0);
    pthread_join(t, NULL);
}

/* While CPU 0 is held at a load, CPU 1 reads (the hold keeps CPU 0's stores pending). */
static void read_while_held(uint32_t cpu, const volatile void *addr)
{
    if (cpu == 0 && addr == &d.z)
        read_on_cpu1();
}

static void test_forwarding_and_fifo(void **state)
{
    uint32_t i;
    (void)state;
    setup();
    sim_bind(&mach, 0, NULL);
    store_relaxed(&d.x, 7);
    /* the storing CPU reads its own store, plainly or not; the pending store is its alone */
    assert_int_equal(load_relaxed(&d.x), 7);
    assert_int_equal(d.x, 7);
    assert_true(sim_sb_pending(0, &d.x));
    /* one store more than the buffer holds: the oldest (x) drains first, in order */
    for (i = 0; i <= SB_DEPTH - 1; i++)
        store_relaxed(&d.a[i], i + 1);
    assert_false(sim_sb_pending(0, &d.x));
    assert_true(sim_sb_pending(0, &d.a[0]));
    sim_sb_set_reorder_hook(read_while_held);
    (void)load_acquire(&d.z);
    assert_int_equal(seen[0], 7);
    for (i = 0; i < SB_DEPTH; i++)
        if (seen[i + 1] != 0)
            fail_msg("a[%u] = %llu seen while CPU 0's store was pending", i,
                     (unsigned long long)seen[i + 1]);
    /* a fence: everything visible */
    full_barrier();
    assert_false(sim_sb_pending(0, &d.a[SB_DEPTH - 1]));
    read_on_cpu1();
    for (i = 0; i < SB_DEPTH; i++)
        assert_int_equal(seen[i + 1], i + 1);
    teardown();
}

static void test_what_drains_the_buffer(void **state)
{
    uint32_t i, regs[4];
    struct timespec pause = { 0, 2 * (long)SB_HOLD_NS };
    (void)state;
    setup();
    sim_bind(&mach, 0, NULL);
    store_relaxed(&d.x, 1);
    (void)fetch_add(&d.z, 1); /* a locked RMW */
    assert_false(sim_sb_pending(0, &d.x));
    store_release(&d.x, 2);
    cpuid_raw(0, 0, regs); /* serialising */
    assert_false(sim_sb_pending(0, &d.x));
    store_release(&d.x, 3);
    (void)rdmsr(0x1b); /* RDMSR (of IA32_APIC_BASE) is not serialising */
    assert_true(sim_sb_pending(0, &d.x));
    wrmsr(0x10 /* TSC */, 0); /* WRMSR is */
    assert_false(sim_sb_pending(0, &d.x));
    store_release(&d.x, 4);
    for (i = 0; i < SB_HOLD_EVENTS; i++)
        cpu_relax();
    assert_false(sim_sb_pending(0, &d.x));
    /* the wall-clock hold, judged by the reader */
    sim_sb_set_hold_ns(0);
    store_release(&d.x, 5);
    nanosleep(&pause, NULL);
    read_on_cpu1();
    assert_int_equal(seen[0], 5);
    /* a thread that plays no CPU stores straight to memory */
    sim_unbind();
    store_release(&d.y, 1);
    assert_false(sim_sb_pending(0, &d.y));
    teardown();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_pass_earlier_stores),
        cmocka_unit_test(test_a_full_barrier_orders_store_and_load),
        cmocka_unit_test(test_forwarding_and_fifo),
        cmocka_unit_test(test_what_drains_the_buffer),
    };
    return cmocka_run_group_tests_name("the modelled CPUs' store buffers", tests, NULL, NULL);
}
