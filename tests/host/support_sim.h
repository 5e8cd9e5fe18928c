/*
 * A simulated machine for protocol tests: N threads play CPUs, each with a
 * fake CPU (simulated TLB) and a per-CPU block; IPIs are bits polled in
 * cpu_relax() while the thread's "interrupts" are on; the BSP is the test's
 * main thread. The test region and page tables are ordinary heap memory.
 */
#ifndef TLBSCOPE_TESTS_SUPPORT_SIM_H
#define TLBSCOPE_TESTS_SUPPORT_SIM_H

#include <pthread.h>

#include "arch/x86/paging.h"
#include "core/cpu_table.h"
#include "core/smp.h"
#include "core/testmem.h"
#include "tests/host/support_host.h"

#define SIM_MAX_CPUS 8

struct sim {
    uint32_t ncpus;
    struct cpu_table topo;
    struct cpu_info infos[SIM_MAX_CPUS];
    struct config cfg;
    struct smp smp;
    struct fake_cpu *fake[SIM_MAX_CPUS];
    volatile uint32_t pending[SIM_MAX_CPUS]; /* bit v - 0xf0 = vector v pending */
    pthread_t threads[SIM_MAX_CPUS];
    bool started[SIM_MAX_CPUS];
    struct pt_ctx pt;
    struct testmem tm;
};

/* Sets up CPUs 0..n-1 (APIC ID = index), page tables and the test region;
 * the calling thread becomes CPU 0. `timeout_ms` bounds every answer. */
void sim_init(struct sim *m, uint32_t n, uint32_t timeout_ms);
/* Starts an AP thread running the command loop (skip one to simulate a dead CPU). */
void sim_start_ap(struct sim *m, uint32_t index);
/* Releases the APs and joins their threads. */
void sim_shutdown(struct sim *m);

#endif
