/* The aarch64 protocols on the strict model, in the experiments' shapes: see harness.h. */
#include "sim/arm64/harness.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "asm/abort.h"
#include "asm/barrier.h"
#include "asm/tlbi.h"
#include "core/exp/arm64/tlbi_flush.h"

#define CACHE_LINE 64
#define VA_BASE 0x40000000ull /* where the region sits in the modelled address space */

/* An IPI target's mailbox: data other CPUs write lives in its own cache line. */
struct mailbox {
    _Alignas(CACHE_LINE) uint64_t req; /* round + 1 of the request posted */
    uint64_t va;
    uint32_t pages;
    _Alignas(CACHE_LINE) uint64_t ack; /* round + 1 of the request done */
};

struct cpu_tally {
    _Alignas(CACHE_LINE) uint64_t checks, stale, faults;
};

struct run {
    const struct a64h_params *p;
    struct a64_model m;
    uint32_t initiators;
    uint64_t deadline_ns;
    _Alignas(CACHE_LINE) uint32_t arrived;
    _Alignas(CACHE_LINE) uint32_t generation;
    _Alignas(CACHE_LINE) uint32_t abort;
    uint32_t timeouts;
    pthread_mutex_t first_lock; /* the first stale read, whoever sees it */
    struct a64h_result *out;
    struct mailbox mb[A64M_MAX_CPUS];
    struct cpu_tally tally[A64M_MAX_CPUS];
};

struct cpu_arg {
    struct run *r;
    uint32_t cpu;
};

static const char *const shape_names[A64H_SHAPES] = {
    "broadcast", "ipi_local", "range", "concurrent", "control",
    "broadcast_os", "os_dsb_ish", "asid", "asid_global", "full", "no_ishst", "tlbi_first",
};

const char *a64h_shape_name(enum a64h_shape s)
{
    return (unsigned)s < A64H_SHAPES ? shape_names[s] : "?";
}

void a64h_params_defaults(struct a64h_params *p, enum a64h_shape shape, uint32_t cpus,
                          uint32_t pages, uint64_t seed)
{
    memset(p, 0, sizeof(*p));
    p->shape = shape;
    p->cpus = cpus;
    p->pages = pages;
    p->initiators = shape == A64H_CONCURRENT ? cpus : 1;
    p->rounds = 3;
    p->timeout_ms = 20000;
    a64m_config_defaults(&p->model);
    p->model.seed = seed;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * One wait iteration: the deadline, then a model event (speculation may
 * refill an entry while this CPU waits, as hardware may) and the host CPU
 * handed on (two shared cores play up to 64 CPUs). False: give up.
 */
static bool wait_step(struct run *r, uint32_t cpu)
{
    if (__atomic_load_n(&r->abort, __ATOMIC_ACQUIRE))
        return false;
    if (now_ns() > r->deadline_ns) {
        __atomic_fetch_add(&r->timeouts, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&r->abort, 1, __ATOMIC_RELEASE);
        return false;
    }
    a64m_tick(&r->m, cpu);
    sched_yield();
    return true;
}

/* Every CPU arrives before any leaves (a sense-counting barrier with the run's deadline). */
static bool barrier(struct run *r, uint32_t cpu)
{
    uint32_t gen = __atomic_load_n(&r->generation, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&r->arrived, 1, __ATOMIC_ACQ_REL) == r->p->cpus) {
        __atomic_store_n(&r->arrived, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&r->generation, gen + 1, __ATOMIC_RELEASE);
        return true;
    }
    while (__atomic_load_n(&r->generation, __ATOMIC_ACQUIRE) == gen)
        if (!wait_step(r, cpu))
            return false;
    return true;
}

/*
 * The frame page `page` maps after round `round` (-1: before the first): a
 * fresh frame each round, so an entry left from any earlier round reads a
 * tag that is never the expected one.
 */
static uint32_t frame_of(const struct run *r, uint32_t page, int round)
{
    return page * (r->p->rounds + 1) + (uint32_t)(round + 1);
}

static uint64_t page_va(uint32_t page) { return VA_BASE + ((uint64_t)page << TLBI_PAGE_SHIFT); }

/* the asid shape maps its pages non-global (its control keeps them global) */
static uint64_t descriptor(const struct run *r, uint32_t page, int round)
{
    return a64m_pte(frame_of(r, page, round)) | (r->p->shape == A64H_ASID ? A64M_PTE_NG : 0);
}

/* Break-before-make, as the app's region_remap (core/exp/arm64/a64_exp.c): the break, the
 * descriptors invalid and visible to every walker before any invalidation... */
static void unmap(struct run *r, uint32_t first, uint32_t n)
{
    for (uint32_t p = first; p < first + n; p++)
        pte_store(a64m_pte_ptr(&r->m, p), 0);
    dsb_ishst();
}

/* ...and, once the shootdown is complete, the make: the new descriptors */
static void map(struct run *r, uint32_t first, uint32_t n, int round)
{
    for (uint32_t p = first; p < first + n; p++)
        pte_store(a64m_pte_ptr(&r->m, p), descriptor(r, p, round));
    dsb_ishst();
    isb();
}

/* the controls of the stores' order (not protocols of core/), break-before-make aside: the
 * break's invalid descriptors with no DSB ISHST before the TLBIs, or the TLBIs before them */
static void misordered(struct run *r, int round)
{
    uint32_t pages = r->p->pages;
    if (r->p->shape == A64H_NO_ISHST) {
        for (uint32_t p = 0; p < pages; p++)
            pte_store(a64m_pte_ptr(&r->m, p), 0);
        tlbi_flush_broadcast(page_va(0), pages);
        map(r, 0, pages, round);
        return;
    }
    for (uint32_t p = 0; p < pages; p++)
        tlbi_va_is(page_va(p));
    unmap(r, 0, pages);
    map(r, 0, pages, round);
    dsb_ish();
    isb();
}

/* Every page read through this CPU's TLB; a tag other than the expected frame's is stale.
 * The control reads inside an abort window (asm/abort.h): a CPU with no entry left takes a
 * translation fault, counted apart. */
static void verify(struct run *r, uint32_t cpu, int round)
{
    struct cpu_tally *t = &r->tally[cpu];
    bool window = r->p->shape == A64H_CONTROL && round >= 0;
    if (window)
        abort_window_open();
    for (uint32_t p = 0; p < r->p->pages; p++) {
        uint64_t want = a64m_tag(frame_of(r, p, round));
        uint64_t seen = test_read((const volatile uint64_t *)(uintptr_t)page_va(p));
        t->checks++;
        if (seen == want)
            continue;
        if (seen == TEST_READ_FAULTED) {
            t->faults++;
            continue;
        }
        pthread_mutex_lock(&r->first_lock);
        if (r->out->stale_reads == 0) {
            r->out->stale_cpu = cpu;
            r->out->stale_va = page_va(p);
            r->out->stale_expected = want;
            r->out->stale_seen = seen;
        }
        r->out->stale_reads++;
        pthread_mutex_unlock(&r->first_lock);
        t->stale++;
    }
    if (window)
        abort_window_close();
}

/* ipi_local: the initiator posts to every target, flushes itself, waits for every ack. */
static bool ipi_initiate(struct run *r, int round)
{
    uint32_t n = r->p->cpus, pages = r->p->pages;
    uint64_t want = (uint64_t)round + 1;
    for (uint32_t t = 1; t < n; t++) {
        r->mb[t].va = page_va(0);
        r->mb[t].pages = pages;
        __atomic_store_n(&r->mb[t].req, want, __ATOMIC_RELEASE); /* STLR: the request after its data */
    }
    tlbi_flush_local(page_va(0), pages);
    for (uint32_t t = 1; t < n; t++)
        while (__atomic_load_n(&r->mb[t].ack, __ATOMIC_ACQUIRE) != want)
            if (!wait_step(r, 0))
                return false;
    return true;
}

/* ipi_local: a target waits for its request, flushes locally, then acks. */
static bool ipi_answer(struct run *r, uint32_t cpu, int round)
{
    struct mailbox *mb = &r->mb[cpu];
    uint64_t want = (uint64_t)round + 1;
    while (__atomic_load_n(&mb->req, __ATOMIC_ACQUIRE) != want)
        if (!wait_step(r, cpu))
            return false;
    tlbi_flush_local(mb->va, mb->pages);
    __atomic_store_n(&mb->ack, want, __ATOMIC_RELEASE);
    return true;
}

/* This CPU's part of one round before the verification; false when the run gave up. */
static bool round_work(struct run *r, uint32_t cpu, int round)
{
    uint32_t pages = r->p->pages;
    switch (r->p->shape) {
    case A64H_BROADCAST:
    case A64H_RANGE:
    case A64H_CONTROL:
    case A64H_BROADCAST_OS:
    case A64H_OS_DSB_ISH:
    case A64H_ASID:
    case A64H_ASID_GLOBAL:
    case A64H_FULL:
        if (cpu != 0)
            return true;
        unmap(r, 0, pages);
        if (r->p->shape == A64H_CONTROL)
            return true; /* the break alone: no TLBI, no new descriptor */
        if (r->p->shape == A64H_BROADCAST)
            tlbi_flush_broadcast(page_va(0), pages);
        else if (r->p->shape == A64H_RANGE)
            tlbi_flush_range(page_va(0), pages);
        else if (r->p->shape == A64H_BROADCAST_OS)
            tlbi_flush_broadcast_os(page_va(0), pages);
        else if (r->p->shape == A64H_ASID || r->p->shape == A64H_ASID_GLOBAL)
            tlbi_flush_asid(A64H_ASID_VALUE);
        else if (r->p->shape == A64H_FULL)
            tlbi_flush_all();
        else if (r->p->shape == A64H_OS_DSB_ISH) {
            /* the wrong barrier for an outer-shareable TLBI (not a protocol of core/) */
            for (uint32_t p = 0; p < pages; p++)
                tlbi_va_os(page_va(p));
            dsb_ish();
            isb();
        }
        map(r, 0, pages, round);
        return true;
    case A64H_NO_ISHST:
    case A64H_TLBI_FIRST:
        if (cpu == 0)
            misordered(r, round);
        return true;
    case A64H_IPI_LOCAL:
        if (cpu != 0 && cpu == r->p->silent_target)
            return true; /* a hung target: the initiator's deadline must end the run */
        if (cpu != 0)
            return ipi_answer(r, cpu, round);
        unmap(r, 0, pages);
        if (!ipi_initiate(r, round))
            return false;
        map(r, 0, pages, round);
        return true;
    case A64H_CONCURRENT:
        if (cpu < r->initiators) {
            /* disjoint slices covering every page */
            uint32_t first = (uint32_t)((uint64_t)pages * cpu / r->initiators);
            uint32_t end = (uint32_t)((uint64_t)pages * (cpu + 1) / r->initiators);
            unmap(r, first, end - first);
            tlbi_flush_broadcast(page_va(first), end - first);
            map(r, first, end - first, round);
        }
        return true;
    default:
        return false;
    }
}

static void *cpu_main(void *arg)
{
    struct cpu_arg *a = arg;
    struct run *r = a->r;
    a64m_bind(&r->m, a->cpu);
    if (r->p->shape == A64H_ASID || r->p->shape == A64H_ASID_GLOBAL)
        a64m_set_asid(&r->m, a->cpu, A64H_ASID_VALUE);
    /* every TLB warm: each CPU holds every translation before the first remap */
    verify(r, a->cpu, -1);
    r->tally[a->cpu].checks = r->tally[a->cpu].stale = r->tally[a->cpu].faults = 0;
    if (!barrier(r, a->cpu))
        goto out;
    for (int round = 0; round < (int)r->p->rounds; round++) {
        /* the concurrent initiators start together */
        if (r->p->shape == A64H_CONCURRENT && !barrier(r, a->cpu))
            break;
        if (!round_work(r, a->cpu, round) || !barrier(r, a->cpu))
            break;
        verify(r, a->cpu, round);
        if (!barrier(r, a->cpu))
            break;
    }
out:
    a64m_unbind();
    return NULL;
}

bool a64h_run(const struct a64h_params *p, struct a64h_result *out)
{
    static struct run r; /* large (mailboxes), and runs do not overlap */
    pthread_t th[A64M_MAX_CPUS];
    struct cpu_arg args[A64M_MAX_CPUS];
    uint32_t started = 0;
    bool ok = true;

    memset(out, 0, sizeof(*out));
    if (p->cpus < 2 || p->cpus > A64M_MAX_CPUS || p->pages == 0 || p->pages > A64M_MAX_PAGES ||
        (unsigned)p->shape >= A64H_SHAPES)
        return false;
    memset(&r, 0, sizeof(r));
    r.p = p;
    r.out = out;
    r.initiators = p->initiators ? p->initiators : 1;
    if (r.initiators > p->cpus)
        r.initiators = p->cpus;
    if (r.initiators > p->pages)
        r.initiators = p->pages;
    if (p->rounds == 0 ||
        !a64m_init(&r.m, &p->model, p->cpus, p->pages, p->pages * (p->rounds + 1), VA_BASE)) {
        a64m_free(&r.m);
        return false;
    }
    for (uint32_t pg = 0; pg < p->pages; pg++)
        r.m.table[pg] = descriptor(&r, pg, -1);
    pthread_mutex_init(&r.first_lock, NULL);
    r.deadline_ns = now_ns() + (uint64_t)p->timeout_ms * 1000000ull;
    for (uint32_t i = 0; i < p->cpus; i++) {
        args[i].r = &r;
        args[i].cpu = i;
        if (pthread_create(&th[i], NULL, cpu_main, &args[i]) != 0) {
            /* the others stop at their next wait */
            __atomic_store_n(&r.abort, 1, __ATOMIC_RELEASE);
            ok = false;
            break;
        }
        started++;
    }
    for (uint32_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (uint32_t i = 0; i < p->cpus; i++) {
        out->checks += r.tally[i].checks;
        out->faults += r.tally[i].faults;
    }
    out->timeouts = r.timeouts;
    out->violations = r.m.violations;
    if (r.m.violations)
        snprintf(out->first_violation, sizeof(out->first_violation), "%s", r.m.violation[0]);
    a64m_sum_counts(&r.m, &out->counts);
    pthread_mutex_destroy(&r.first_lock);
    a64m_free(&r.m);
    return ok;
}
