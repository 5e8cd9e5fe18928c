/*
 * A modelled machine: host threads play the CPUs, each bound to one CPU of
 * the strict TLB model (sim/tlb_model.h).
 *
 * IPIs are bits in the target's pending word, taken when the target's
 * thread next calls cpu_relax() with "interrupts" on (every wait in tlbscope
 * spins through cpu_relax(), so a CPU waiting with interrupts enabled takes
 * them as hardware would). A handler runs with interrupts off and is not
 * re-entered. An exception a CPU raises goes to the hook the tool installed
 * (smp_record_fault); when that CPU armed a recovery point the thread jumps
 * back to it (sim/host_jmp.S), otherwise it stops for good, like a CPU
 * halted in the tool's exception handler.
 *
 * Used by tlbscope-sim (sim/session.c) and the host tests (tests/host).
 */
#ifndef TLBSCOPE_SIM_MACHINE_H
#define TLBSCOPE_SIM_MACHINE_H

#include <pthread.h>

#include "arch/x86/percpu.h"
#include "core/cpu_table.h"
#include "sim/tlb_model.h"

struct sim_env {
    uint64_t cr3_root;     /* the tool's page-table root */
    bool pcide;
    uint32_t kernel_pcid;
};

struct sim_machine {
    uint32_t ncpus;
    struct tlb_model model;
    struct cpu_table topo;
    struct cpu_info infos[TLBM_MAX_CPUS];
    volatile uint32_t pending[TLBM_MAX_CPUS]; /* bit v - 0xf0: vector v is pending */
    pthread_t threads[TLBM_MAX_CPUS];
    bool started[TLBM_MAX_CPUS];
    volatile uint32_t stopping;               /* threads parked after a fault may leave */
    struct sim_env env;
    /* what MSR 0x8B reads on every modelled CPU (arch_read_microcode on the host) */
    bool microcode_valid;
    uint32_t microcode;
    const struct cpu_features *features;      /* the decoded profile, for the APs' reads */
};

/*
 * Sets up the model and a CPU table of n CPUs (APIC ID = index), grouped as
 * `threads` SMT siblings per core and `cores` cores per package. The calling
 * thread is not bound yet (sim_bind).
 */
bool sim_machine_init(struct sim_machine *m, uint32_t n, const struct tlbm_config *cfg,
                      uint32_t threads, uint32_t cores);
void sim_machine_free(struct sim_machine *m);

/* Makes the calling thread CPU `cpu`, with `pc` as its per-CPU anchor (%gs:0). */
void sim_bind(struct sim_machine *m, uint32_t cpu, struct arch_percpu *pc);
void sim_unbind(void);
/* The CPU the calling thread plays, or UINT32_MAX. */
uint32_t sim_current_cpu(void);
struct sim_machine *sim_current_machine(void);

/*
 * What core/takeover.c does to a CPU's paging state on the machine: CR3 to
 * the tool's tables, then CR4.PCIDE and the kernel PCID (sim_leave_env
 * reverses it). Runs on the calling thread's CPU.
 */
void sim_enter_env(const struct sim_env *env);
void sim_leave_env(const struct sim_env *env);

/* Runs fn(arg) on a new thread bound to `cpu` (an AP). */
bool sim_start_thread(struct sim_machine *m, uint32_t cpu, void *(*fn)(void *), void *arg);
/* Lets parked threads go and joins every started thread. */
void sim_join_all(struct sim_machine *m);

/* The model events a thread may not see otherwise: the IPI sink and delivery. */
void sim_send_ipi(uint32_t dest_apic_id, uint8_t vector); /* UINT32_MAX: all but self */
void sim_poll_interrupts(void);

/* Raises an exception on the calling CPU (arch_raise_exception on the host). */
void sim_raise_exception(uint32_t vector, uint64_t rip);

#endif
