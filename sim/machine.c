#include "sim/machine.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch/x86/cpu.h"
#include "arch/x86/trap.h"
#include "sim/hostcpu.h"

/* One machine at a time: interrupt handlers are process-wide, as an IDT is. */
static struct sim_machine *machine;

struct sim_thread {
    struct sim_machine *m;
    uint32_t cpu;
    bool in_handler;
};
static _Thread_local struct sim_thread self = { NULL, UINT32_MAX, false };


bool sim_machine_init(struct sim_machine *m, uint32_t n, const struct tlbm_config *cfg,
                      uint32_t threads, uint32_t cores)
{
    uint32_t i;
    memset(m, 0, sizeof(*m));
    if (n == 0 || n > TLBM_MAX_CPUS || !tlbm_init(&m->model, cfg, n))
        return false;
    if (threads == 0)
        threads = 1;
    if (cores == 0)
        cores = n;
    m->ncpus = n;
    m->topo.count = n;
    m->topo.cpus = m->infos;
    for (i = 0; i < n; i++) {
        struct cpu_info *c = &m->infos[i];
        c->index = i;
        c->apic_id = i;
        c->thread = i % threads;
        c->core = (i / threads) % cores;
        c->package = i / (threads * cores);
        c->bsp = i == 0;
        c->numa_node = -1;
        c->state = CPU_OK;
    }
    machine = m;
    return true;
}

void sim_machine_free(struct sim_machine *m)
{
    tlbm_free(&m->model);
    if (machine == m)
        machine = NULL;
}

void sim_bind(struct sim_machine *m, uint32_t cpu, struct arch_percpu *pc)
{
    self.m = m;
    self.cpu = cpu;
    self.in_handler = false;
    hostcpu_bind(pc);
}

void sim_unbind(void)
{
    self.m = NULL;
    self.cpu = UINT32_MAX;
    hostcpu_bind(NULL);
}

uint32_t sim_current_cpu(void) { return self.cpu; }
struct sim_machine *sim_current_machine(void) { return self.m; }

void sim_enter_env(const struct sim_env *env)
{
    /* the same order as core/takeover.c enter_cpu(): PCIDE only while CR3[11:0] = 0 */
    write_cr3(env->cr3_root);
    if (env->pcide) {
        write_cr4(read_cr4() | CR4_PCIDE);
        write_cr3(env->cr3_root | env->kernel_pcid);
    }
}

void sim_leave_env(const struct sim_env *env)
{
    if (env->pcide) {
        write_cr3(env->cr3_root); /* PCID 0 before PCIDE goes away */
        write_cr4(read_cr4() & ~CR4_PCIDE);
    }
}

/* ---- IPIs ---- */

void sim_send_ipi(uint32_t dest, uint8_t vector)
{
    struct sim_machine *m = machine;
    uint32_t i;
    if (!m || vector < 0xf0)
        return;
    if (self.m)
        tlbm_note_ipi(&m->model, self.cpu, dest, vector);
    for (i = 0; i < m->ncpus; i++) {
        bool hit = dest == UINT32_MAX ? i != self.cpu : m->infos[i].apic_id == dest;
        if (hit)
            __atomic_fetch_or(&m->pending[i], 1u << (vector - 0xf0), __ATOMIC_SEQ_CST);
    }
}

/* Like an interrupt gate: the handler runs with interrupts off, never nested. */
void sim_poll_interrupts(void)
{
    struct sim_machine *m = self.m;
    uint32_t bits;
    if (!m || self.in_handler || !irq_enabled())
        return;
    bits = __atomic_exchange_n(&m->pending[self.cpu], 0, __ATOMIC_ACQUIRE);
    while (bits) {
        uint32_t b = (uint32_t)__builtin_ctz(bits);
        bits &= bits - 1;
        self.in_handler = true;
        irq_disable();
        hostcpu_deliver((uint8_t)(0xf0 + b));
        irq_enable();
        self.in_handler = false;
    }
}

/* ---- threads ---- */

struct thread_start {
    void *(*fn)(void *);
    void *arg;
};

bool sim_start_thread(struct sim_machine *m, uint32_t cpu, void *(*fn)(void *), void *arg)
{
    if (cpu >= m->ncpus || m->started[cpu])
        return false;
    if (pthread_create(&m->threads[cpu], NULL, fn, arg) != 0)
        return false;
    m->started[cpu] = true;
    return true;
}

void sim_join_all(struct sim_machine *m)
{
    uint32_t i;
    __atomic_store_n(&m->stopping, 1, __ATOMIC_RELEASE);
    for (i = 0; i < m->ncpus; i++) {
        if (m->started[i]) {
            pthread_join(m->threads[i], NULL);
            m->started[i] = false;
        }
    }
}

/* ---- exceptions ---- */

void sim_raise_exception(uint32_t vector, uint64_t rip)
{
    struct trap_frame f;
    memset(&f, 0, sizeof(f));
    f.vector = vector;
    f.rip = rip;
    f.cs = 0x38;
    hostcpu_exception(&f); /* returns only when nobody could take it */
    if (self.cpu == 0) {
        /* the BSP runs the tool: without a recovery point the run is over */
        fprintf(stderr, "tlbscope-sim: the BSP took exception %u outside any recovery point\n",
                vector);
        exit(2);
    }
    /*
     * On the machine this CPU would now halt for good in the tool's handler
     * (arch/x86/trap.c); its owner's deadline names it. Park the thread until
     * the machine is torn down.
     */
    irq_disable();
    while (!self.m || !__atomic_load_n(&self.m->stopping, __ATOMIC_ACQUIRE)) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    pthread_exit(NULL);
}
