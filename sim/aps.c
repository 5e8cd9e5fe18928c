#include "sim/aps.h"

#include <stdlib.h>
#include <time.h>

#include "asm/cpu.h"

struct ap_start {
    struct sim_machine *m;
    struct takeover *t;
    uint32_t cpu;
};

static void *ap_thread(void *arg)
{
    struct ap_start a = *(struct ap_start *)arg;
    free(arg);
    sim_bind(a.m, a.cpu, NULL); /* the firmware's state: GS base 0, its IDT and APIC mode */
    takeover_ap_main(a.t);
    sim_unbind();
    return NULL;
}

bool sim_start_ap(struct sim_machine *m, struct takeover *t, uint32_t i)
{
    struct ap_start *a;
    if (i == 0 || i >= m->ncpus)
        return false;
    a = malloc(sizeof(*a));
    if (!a)
        return false;
    *a = (struct ap_start){ m, t, i };
    if (!sim_start_thread(m, i, ap_thread, a)) {
        free(a);
        return false;
    }
    return true;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sim_calibrate_tsc(void)
{
    uint64_t t0 = now_ns(), c0 = rdtsc_raw(), t1, c1;
    struct timespec pause = { 0, 20 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    t1 = now_ns();
    c1 = rdtsc_raw();
    if (t1 <= t0 || c1 <= c0)
        return 1000000000ull;
    return (c1 - c0) * 1000000000ull / (t1 - t0);
}
