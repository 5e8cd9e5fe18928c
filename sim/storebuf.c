/*
 * The per-CPU store buffers of sim/storebuf.h. A CPU's buffer is a ring of
 * SB_DEPTH entries numbered by sequence: entries (vis, last] are pending.
 * The owner adds entries and advances `last`; `vis` only grows, by the owner
 * (a drain, its events) or by another CPU storing to the same bytes. Every
 * change of a ring happens under one lock, so the stores to one address
 * reach memory in one order; readers take no lock: they read memory first,
 * then the rings, and check afterwards that an entry they used was not
 * reused meanwhile (a slot is reused only once its entry is visible).
 */
#include "sim/storebuf.h"

#include <sched.h>
#include <string.h>
#include <time.h>

#include "core/lib/atomic.h"

#define SB_CPUS 64 /* TLBM_MAX_CPUS */
#define NONE UINT32_MAX

struct sb_entry {
    uint64_t addr, old, events, ns;
    uint32_t size;
};

struct sb_cpu {
    uint64_t last, vis;   /* sequence numbers: (vis, last] pending */
    uint64_t events;      /* the owner's events (its own: read by it alone) */
    uint32_t frozen;      /* in the reorder hook: no entry ages by time */
    struct sb_entry ring[SB_DEPTH];
    struct sim_sb_counts n;
} __attribute__((aligned(64)));

static struct sb_cpu cpus[SB_CPUS];
static uint32_t sb_lock;
static sim_sb_hook reorder_hook;
static uint64_t hold_ns = SB_HOLD_NS;
_Thread_local uint32_t sim_sb_self = NONE;
uint64_t sim_sb_live; /* bit c: CPU c may have pending entries */
static _Thread_local bool rmw_locked;

#define RLX __ATOMIC_RELAXED
#define SC __ATOMIC_SEQ_CST
#define ACQ __ATOMIC_ACQUIRE

static void lock(void)
{
    unsigned spins = 0;
    while (__atomic_exchange_n(&sb_lock, 1, __ATOMIC_ACQUIRE))
        if (++spins % 64 == 0)
            sched_yield(); /* more modelled CPUs than host cores: let the holder run */
}

static void unlock(void) { __atomic_store_n(&sb_lock, 0, __ATOMIC_RELEASE); }

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t raw_load(const volatile void *p, uint32_t size)
{
    switch (size) {
    case 1: return __atomic_load_n((const volatile uint8_t *)p, SC);
    case 2: return __atomic_load_n((const volatile uint16_t *)p, SC);
    case 4: return __atomic_load_n((const volatile uint32_t *)p, SC);
    default: return __atomic_load_n((const volatile uint64_t *)p, SC);
    }
}

static void raw_store(volatile void *p, uint64_t v, uint32_t size)
{
    switch (size) {
    case 1: __atomic_store_n((volatile uint8_t *)p, (uint8_t)v, SC); break;
    case 2: __atomic_store_n((volatile uint16_t *)p, (uint16_t)v, SC); break;
    case 4: __atomic_store_n((volatile uint32_t *)p, (uint32_t)v, SC); break;
    default: __atomic_store_n((volatile uint64_t *)p, v, SC); break;
    }
}

static struct sb_entry *slot(struct sb_cpu *c, uint64_t seq) { return &c->ring[seq % SB_DEPTH]; }

static bool overlaps(uint64_t a, uint32_t an, uint64_t b, uint32_t bn)
{
    return a < b + bn && b < a + an;
}

static uint64_t hold(void) { return __atomic_load_n(&hold_ns, RLX); }

/* An entry stored at `ns` is visible by its age at `now` (a reader's clock may be behind it). */
static bool aged(uint64_t now, uint64_t ns, uint64_t hold) { return now > ns && now - ns > hold; }

/* Under the lock: entries up to `seq` visible; the live bit goes with the last one. */
static void make_visible(uint32_t c, uint64_t seq)
{
    struct sb_cpu *b = &cpus[c];
    if (seq <= __atomic_load_n(&b->vis, RLX))
        return;
    __atomic_store_n(&b->vis, seq, SC);
    if (seq == __atomic_load_n(&b->last, RLX))
        __atomic_fetch_and(&sim_sb_live, ~(1ull << c), SC);
}

/* Under the lock: other CPUs' pending stores to these bytes (and those before them) visible. */
static void order_after_others(uint32_t me, uint64_t addr, uint32_t size)
{
    uint64_t live = __atomic_load_n(&sim_sb_live, SC);
    while (live) {
        uint32_t c = (uint32_t)__builtin_ctzll(live);
        struct sb_cpu *b = &cpus[c];
        uint64_t s, upto = 0;
        live &= live - 1;
        if (c == me)
            continue;
        for (s = b->vis + 1; s <= b->last; s++)
            if (overlaps(slot(b, s)->addr, slot(b, s)->size, addr, size))
                upto = s;
        make_visible(c, upto);
    }
}

/* Under the lock: the owner's entries older than SB_HOLD_EVENTS of its events visible. */
static void age_own(uint32_t me)
{
    struct sb_cpu *b = &cpus[me];
    uint64_t s = b->vis;
    while (s < b->last && b->events - slot(b, s + 1)->events >= SB_HOLD_EVENTS)
        s++;
    make_visible(me, s);
}

void sim_sb_store(volatile void *p, const void *v, uint32_t size)
{
    uint32_t me = sim_sb_self;
    struct sb_cpu *b = &cpus[me];
    struct sb_entry *e;
    uint64_t val = 0, seq;
    memcpy(&val, v, size);
    lock();
    order_after_others(me, (uint64_t)(uintptr_t)p, size);
    b->events++;
    age_own(me);
    if (b->last - b->vis >= SB_DEPTH)
        make_visible(me, b->last - SB_DEPTH + 1); /* full: the oldest drains */
    seq = b->last + 1;
    e = slot(b, seq);
    __atomic_store_n(&e->addr, (uint64_t)(uintptr_t)p, RLX);
    __atomic_store_n(&e->size, size, RLX);
    __atomic_store_n(&e->old, raw_load(p, size), RLX);
    __atomic_store_n(&e->events, b->events, RLX);
    __atomic_store_n(&e->ns, now_ns(), RLX);
    __atomic_fetch_or(&sim_sb_live, 1ull << me, SC);
    __atomic_store_n(&b->last, seq, SC); /* the entry before the memory: readers look after */
    raw_store(p, val, size);
    b->n.stores++;
    unlock();
}

/* The calling CPU's buffer when it holds pending entries (only its owner adds them), else NULL. */
static struct sb_cpu *own_pending(void)
{
    uint32_t me = sim_sb_self;
    if (me == NONE || __atomic_load_n(&cpus[me].vis, RLX) == cpus[me].last)
        return NULL;
    return &cpus[me];
}

void sim_sb_drain(void)
{
    struct sb_cpu *b = own_pending();
    if (!b)
        return;
    lock();
    make_visible(sim_sb_self, b->last);
    unlock();
}

void sim_sb_rmw_begin(const volatile void *p, uint32_t size)
{
    uint32_t me = sim_sb_self;
    rmw_locked = me != NONE || __atomic_load_n(&sim_sb_live, SC);
    if (!rmw_locked)
        return;
    lock();
    if (me != NONE)
        make_visible(me, cpus[me].last); /* a locked instruction drains the buffer */
    order_after_others(me, (uint64_t)(uintptr_t)p, size);
}

void sim_sb_rmw_end(void)
{
    if (rmw_locked)
        unlock();
    rmw_locked = false;
}

/*
 * CPU c's pending entries as of now, newest first, patched into the value
 * read from memory at [addr, addr+size): the oldest pending store to a byte
 * gives its old value. False when an entry changed under the reader.
 */
static bool patch_from(uint32_t c, uint64_t addr, uint32_t size, uint8_t *val, uint64_t now,
                       bool *all_aged)
{
    struct sb_cpu *b = &cpus[c];
    uint64_t last = __atomic_load_n(&b->last, SC), vis = __atomic_load_n(&b->vis, SC), s;
    bool frozen = __atomic_load_n(&b->frozen, SC);
    bool hid = false;
    *all_aged = !frozen;
    for (s = last; s > vis; s--) {
        const struct sb_entry *e = slot(b, s);
        /* acquire: the check of vis below cannot move before these reads */
        uint64_t ea = __atomic_load_n(&e->addr, ACQ), old = __atomic_load_n(&e->old, ACQ);
        uint64_t ens = __atomic_load_n(&e->ns, ACQ), i;
        uint32_t en = __atomic_load_n(&e->size, ACQ);
        if (__atomic_load_n(&b->vis, SC) >= s)
            return !hid; /* visible meanwhile: the slot may be another entry's now */
        if (!frozen && aged(now, ens, hold()))
            break; /* visible by age, and so is every older entry */
        *all_aged = false;
        if (!overlaps(ea, en, addr, size))
            continue;
        for (i = 0; i < size; i++)
            if (addr + i >= ea && addr + i < ea + en)
                val[i] = ((const uint8_t *)&old)[addr + i - ea];
        hid = true;
    }
    return true;
}

/* Under the lock: every entry of CPU c, when its newest has aged (and c is not held). */
static void retire_aged(uint32_t c, uint64_t now)
{
    struct sb_cpu *b = &cpus[c];
    if (b->last != b->vis && !b->frozen && aged(now, slot(b, b->last)->ns, hold()))
        make_visible(c, b->last);
}

/* A shared load of another CPU's pending stores: their old bytes; retried when a ring moved. */
static bool hide_others(uint32_t me, const volatile void *p, void *v, uint32_t size)
{
    uint64_t addr = (uint64_t)(uintptr_t)p, now = now_ns();
    uint32_t tries;
    for (tries = 0; tries < 8; tries++) {
        uint64_t live = __atomic_load_n(&sim_sb_live, SC), raw = 0;
        uint8_t val[8];
        bool ok = true, hid = false;
        memcpy(val, v, size);
        while (live && ok) {
            uint32_t c = (uint32_t)__builtin_ctzll(live);
            bool aged;
            uint8_t before[8];
            live &= live - 1;
            if (c == me)
                continue;
            memcpy(before, val, size);
            ok = patch_from(c, addr, size, val, now, &aged);
            hid |= memcmp(before, val, size) != 0;
            if (ok && aged && !__atomic_exchange_n(&sb_lock, 1, __ATOMIC_ACQUIRE)) {
                retire_aged(c, now); /* a CPU that stored and went quiet: the next loads are fast */
                unlock();
            }
        }
        if (ok) {
            memcpy(v, val, size);
            return hid;
        }
        raw = raw_load(p, size); /* read again, after the ring that moved */
        memcpy(v, &raw, size);
    }
    return false;
}

void sim_sb_filter(const volatile void *p, void *v, uint32_t size)
{
    uint32_t me = sim_sb_self;
    struct sb_cpu *b = own_pending();
    bool own = b != NULL;
    if (hide_others(me, p, v, size) && me != NONE)
        __atomic_fetch_add(&cpus[me].n.hidden, 1, RLX);
    if (!own)
        return;
    lock();
    b->events++;
    age_own(me);
    own = b->vis != b->last;
    unlock();
    if (!own)
        return;
    __atomic_fetch_add(&b->n.passed, 1, RLX);
    if (reorder_hook) {
        /* entries about to age by time drain first: a reader may have seen them visible */
        uint64_t now = now_ns(), s;
        lock();
        for (s = b->vis; s < b->last && aged(now, slot(b, s + 1)->ns, hold() / 2); s++)
            ;
        make_visible(me, s);
        __atomic_store_n(&b->frozen, 1, SC);
        unlock();
        reorder_hook(me, p);
        __atomic_store_n(&b->frozen, 0, SC);
    }
}

void sim_sb_event(void)
{
    struct sb_cpu *b = own_pending();
    if (!b)
        return;
    lock();
    b->events++;
    age_own(sim_sb_self);
    unlock();
}

void sim_sb_bind(uint32_t cpu)
{
    sim_sb_drain();
    sim_sb_self = cpu < SB_CPUS ? cpu : NONE;
}

void sim_sb_reset(void)
{
    uint32_t c;
    lock();
    for (c = 0; c < SB_CPUS; c++)
        make_visible(c, cpus[c].last);
    unlock();
}

void sim_sb_set_reorder_hook(sim_sb_hook hook) { reorder_hook = hook; }

void sim_sb_set_hold_ns(uint64_t ns) { __atomic_store_n(&hold_ns, ns ? ns : SB_HOLD_NS, RLX); }

bool sim_sb_pending(uint32_t cpu, const volatile void *addr)
{
    struct sb_cpu *b = &cpus[cpu];
    uint64_t s, now = now_ns(), a = (uint64_t)(uintptr_t)addr;
    bool found = false;
    lock();
    for (s = b->last; s > b->vis; s--) {
        const struct sb_entry *e = slot(b, s);
        if (!b->frozen && aged(now, e->ns, hold()))
            break;
        if (overlaps(e->addr, e->size, a, 1))
            found = true;
    }
    unlock();
    return found;
}

void sim_sb_counts(struct sim_sb_counts *out)
{
    uint32_t c;
    memset(out, 0, sizeof(*out));
    lock();
    for (c = 0; c < SB_CPUS; c++) {
        out->stores += cpus[c].n.stores;
        out->passed += cpus[c].n.passed;
        out->hidden += cpus[c].n.hidden;
    }
    unlock();
}
