/* The CPU the calling thread plays, the host clock and a wait step: see host_arch.h. */
#include "sim/arm64/host_arch.h"

#include <sched.h>
#include <time.h>

#include "asm/timer.h"

#define IDLE_NAP_NS 50000 /* an idle CPU's nap: 50 us of host time between looks */

static struct a64_model model;
static uint64_t counter_hz = 1000000000ull;
static __thread struct percpu *cur;

struct percpu *this_cpu(void) { return cur; }
struct a64_model *a64s_model(void) { return &model; }

void a64s_play(struct percpu *pc)
{
    cur = pc;
    if (!pc) {
        a64m_unbind();
        return;
    }
    a64m_bind(&model, pc->idx);
    a64m_set_asid(&model, pc->idx, A64S_ASID);
}

/* Every read hands the host CPU on: the app's wait loops spin on ticks() with nothing
 * else in them, and 2 shared host cores play the CPUs (the numbers are host time anyway) */
uint64_t ticks(void)
{
    struct timespec ts;
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &ts);
    /* whole ticks of the modelled rate since the host clock's zero (128 bits: no overflow) */
    return (uint64_t)(((unsigned __int128)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) * counter_hz /
                      1000000000u);
}

uint64_t tick_freq(void) { return counter_hz; }

void a64s_set_counter_hz(uint64_t hz) { counter_hz = hz; }

void a64s_wait_step(void)
{
    if (cur)
        a64m_tick(&model, cur->idx);
    sched_yield(); /* 2 host cores may play 16 CPUs: a spinning CPU hands its core on */
}

void a64s_idle(void)
{
    struct timespec nap = { 0, IDLE_NAP_NS };
    if (cur)
        a64m_tick(&model, cur->idx);
    nanosleep(&nap, NULL);
}
