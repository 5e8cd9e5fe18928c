/*
 * Which modelled CPU the calling thread plays, and the state that goes with
 * the thread rather than with an instruction: its machine and CPU number,
 * whether it is inside an interrupt handler (delivery is never nested), its
 * RFLAGS.IF, its GS base while it plays no CPU, and parking it when the CPU
 * stops for good. Everything else in sim/ asks here; this file calls only the
 * store buffer (sim/storebuf.h), so nothing it serves calls back into it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "asm/cpu.h"
#include "sim/hostcpu.h"
#include "sim/machine.h"
#include "sim/storebuf.h"

struct sim_thread {
    struct sim_machine *m;
    uint32_t cpu;
    bool in_handler;
};
static _Thread_local struct sim_thread self = { NULL, UINT32_MAX, false };
static _Thread_local struct arch_percpu *unbound_gs; /* the GS base of a thread that plays no CPU */
static _Thread_local bool irq_on;

void hostcpu_bind(struct arch_percpu *pc)
{
    unbound_gs = pc;
    irq_on = false;
}

void sim_bind(struct sim_machine *m, uint32_t cpu, struct arch_percpu *pc)
{
    self.m = m;
    self.cpu = cpu;
    self.in_handler = false;
    m->regs[cpu].gs_base = (uint64_t)(uintptr_t)pc;
    hostcpu_bind(NULL);
    sim_sb_bind(cpu);
}

void sim_unbind(void)
{
    self.m = NULL;
    self.cpu = UINT32_MAX;
    hostcpu_bind(NULL);
    sim_sb_bind(UINT32_MAX);
}

uint32_t sim_current_cpu(void) { return self.cpu; }
struct sim_machine *sim_current_machine(void) { return self.m; }
bool sim_in_handler(void) { return self.in_handler; }
void sim_set_in_handler(bool in) { self.in_handler = in; }

/* %gs:0 on the machine: the block the calling CPU's GS base points at (its `self`). */
uint64_t *sim_gs_base(void)
{
    struct sim_machine *m = sim_current_machine();
    return m ? &m->regs[sim_current_cpu()].gs_base : (uint64_t *)(void *)&unbound_gs;
}

void hostcpu_set_if(bool on) { irq_on = on; }
void irq_disable(void) { irq_on = false; }
bool irq_enabled(void) { return irq_on; }

void sim_stop_cpu(void)
{
    if (self.cpu == 0) {
        /* the BSP runs the tool: without a recovery point the run is over */
        fprintf(stderr,
                "tlbscope-sim: the BSP stopped (an exception outside any recovery point)\n");
        exit(2);
    }
    /*
     * On the machine this CPU would now halt for good in the tool's handler
     * (arch/x86/trap.c); its owner's deadline names it. Park the thread until
     * the machine is torn down.
     */
    irq_disable();
    sim_sb_drain(); /* the parked CPU's stores: another waits on them until its deadline */
    if (self.m)
        self.m->stopped[self.cpu] = true;
    while (!self.m || !__atomic_load_n(&self.m->stopping, __ATOMIC_ACQUIRE)) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    pthread_exit(NULL);
}
