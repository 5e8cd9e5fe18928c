#include "sim/aps.h"

#include <stdlib.h>
#include <time.h>

#include "arch/x86/cpu.h"
#include "arch/x86/microcode.h"
#include "core/atomic.h"

struct ap_start {
    struct sim_machine *m;
    struct percpu *pc;
};

static void *ap_thread(void *arg)
{
    struct ap_start *a = arg;
    struct sim_machine *m = a->m;
    struct percpu *pc = a->pc;
    uint64_t release;
    free(a);
    sim_bind(m, pc->index, &pc->arch);
    sim_enter_env(&m->env);
    /* as core/takeover.c does on the machine: each AP reads its revision once in */
    pc->microcode_valid = arch_read_microcode(m->features, &pc->microcode);
    if (!smp_checkin(pc)) {
        sim_leave_env(&m->env);
        return NULL; /* check-in closed before this CPU came: it stays out */
    }
    release = smp_ap_loop(pc);
    sim_leave_env(&m->env);
    if (release)
        store_release(&pc->ack.ack_seq, release);
    sim_unbind();
    return NULL;
}

bool sim_start_ap(struct sim_machine *m, struct smp *s, uint32_t i)
{
    struct ap_start *a;
    if (i == 0 || i >= s->count || !s->cpu[i])
        return false;
    a = malloc(sizeof(*a));
    if (!a)
        return false;
    a->m = m;
    a->pc = s->cpu[i];
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
