/* The CPU the calling thread plays, the host clock and a wait step: see host_arch.h. */
#include "sim/arm64/host_arch.h"

#include <sched.h>
#include <time.h>

#include "asm/timer.h"

#define IDLE_NAP_NS 50000 /* an idle CPU's nap: 50 us of host time between looks */

static struct a64_model model;
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
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t tick_freq(void) { return 1000000000ull; }

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
