/*
 * The modelled local APIC's timer (sim/lapic.c owns the rest of the APIC):
 * 1 GHz / divide, on the host's monotonic clock; one-shot and periodic, its
 * vector set in the IRR when it runs out and its LVT entry is not masked.
 */
#include "sim/lapic_timer.h"

#include <time.h>

#define LVT_MASKED (1u << 16) /* as sim/lapic.c: the LVT entry's mask bit */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t timer_divisor(uint32_t dcr)
{
    uint32_t code = (dcr & 3) | ((dcr >> 1) & 4);
    return code == 7 ? 1 : 2u << code;
}

void lapic_timer_start(struct sim_lapic *l, uint32_t count)
{
    l->timer_init = count;
    l->timer_period_ns = (uint64_t)count * timer_divisor(l->timer_div);
    l->timer_due_ns = count ? now_ns() + l->timer_period_ns : 0;
}

uint32_t lapic_timer_current(const struct sim_lapic *l)
{
    uint64_t now;
    if (!l->timer_due_ns)
        return 0;
    now = now_ns();
    if (now >= l->timer_due_ns)
        return 0;
    return (uint32_t)((l->timer_due_ns - now) / timer_divisor(l->timer_div));
}

void lapic_timer_tick(struct sim_lapic *l)
{
    uint32_t lvt = l->lvt[1];
    uint64_t now;
    if (!l->timer_due_ns)
        return;
    now = now_ns();
    if (now < l->timer_due_ns)
        return;
    if (!(lvt & LVT_MASKED) && (lvt & 0xff) >= 16)
        __atomic_fetch_or(&l->irr[(lvt & 0xff) / 32], 1u << ((lvt & 0xff) % 32), __ATOMIC_RELEASE);
    if (((lvt >> 17) & 3) == 1 && l->timer_period_ns) /* periodic */
        l->timer_due_ns = now + l->timer_period_ns;
    else
        l->timer_due_ns = 0;
}
