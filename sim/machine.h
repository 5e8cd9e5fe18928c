/*
 * A modelled machine: host threads play the CPUs, each bound to one CPU of
 * the strict TLB model (sim/tlb_model.h) and to its modelled local APIC
 * (sim/lapic.h), with its own descriptor-table and segment registers and GS
 * base: the tool's real core/machine/takeover.c and arch/x86/apic.c, desc.c and
 * trap.c run on them (sim/hostcpu.c, sim/hostdesc.c take the instructions).
 *
 * An IPI lands in the target's modelled IRR; the target's thread takes it
 * when it next calls cpu_relax() or enables interrupts with interrupts on
 * (every wait in tlbscope spins through cpu_relax(), so a CPU waiting with
 * interrupts enabled takes them as hardware would): the APIC accepts the
 * highest-priority vector, and it is delivered through the IDT the CPU has
 * loaded (the tool's: arch/x86/trap.c trap_dispatch(), which EOIs it; the
 * firmware's: a violation). A handler runs with interrupts off and is not
 * re-entered. An exception a CPU raises goes through its IDT the same way
 * (smp_record_fault, then the recovery point the CPU armed: sim/host_jmp.S
 * plays the iretq); one nobody takes stops the CPU for good (cpu_stop()),
 * like a CPU halted in the tool's exception handler.
 *
 * Used by tlbscope-sim (sim/session.c) and the host tests (tests/host).
 */
#ifndef TLBSCOPE_SIM_MACHINE_H
#define TLBSCOPE_SIM_MACHINE_H

#include <pthread.h>

#include "asm/desc.h"
#include "asm/percpu.h"
#include "core/machine/cpu_table.h"
#include "sim/lapic.h"
#include "sim/tlb_model.h"

/* A CPU's registers beyond CR3, CR4 (the TLB model's) and the APIC: its own thread's alone. */
struct sim_cpu_regs {
    struct desc_ptr gdtr, idtr;
    uint16_t cs, ds, es, ss;
    uint64_t gs_base;
};

/* CPUID as the modelled CPUs answer it (the APIC ID fields are each CPU's own). */
typedef void (*sim_cpuid_fn)(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

struct sim_machine {
    uint32_t ncpus;
    struct tlb_model model;
    struct cpu_table topo;
    struct cpu_info infos[TLBM_MAX_CPUS];
    struct sim_lapic lapic[TLBM_MAX_CPUS];
    struct sim_lapic_config apic_cfg;
    struct sim_cpu_regs regs[TLBM_MAX_CPUS];
    uint8_t pic_mask[2];                      /* the 8259s' masks (ports 0x21 and 0xa1) */
    sim_cpuid_fn cpuid;                       /* NULL: the host's CPUID */
    void *cpuid_ctx;
    /* the firmware's tables, which the CPUs have loaded when the tool starts */
    uint64_t firmware_gdt[8] __attribute__((aligned(16)));
    struct idt_gate firmware_idt[256];
    pthread_t threads[TLBM_MAX_CPUS];
    bool started[TLBM_MAX_CPUS];
    bool stopped[TLBM_MAX_CPUS];              /* stopped for good (cpu_stop): never handed back */
    volatile uint32_t stopping;               /* threads parked after a fault may leave */
    /* what MSR 0x8B reads on every modelled CPU (arch_read_microcode on the host) */
    bool microcode_valid;
    uint32_t microcode;
    const struct cpu_features *features;      /* the decoded profile, for the APs' reads */
    /*
     * Idle-state residency (sim/hostpower.c), on Intel profiles whose model
     * has a C-state table: each CPU's core C-state while it is in MWAIT (0:
     * running), and each core's C3/C6/C7 residency counters (MSRs
     * 0x3FC-0x3FE), kept at the index of the core's first thread with the
     * TSC of the core's last change of state and the lock its threads take
     * to change it.
     */
    volatile uint32_t cstate_now[TLBM_MAX_CPUS];
    volatile uint64_t core_residency[TLBM_MAX_CPUS][3];
    uint64_t core_since[TLBM_MAX_CPUS];      /* the core in its present state since this TSC */
    volatile uint8_t core_lock[TLBM_MAX_CPUS];
    /* AMD and Hygon profiles: each CPU's DE_CFG (MSR C001_1029, sim/hostpower.c); the
     * modelled firmware leaves it 0 (LFENCE not dispatch-serialising until bit 1 is set) */
    uint64_t de_cfg[TLBM_MAX_CPUS];
};

/* The firmware's selectors (OVMF's): what a CPU has loaded before the takeover. */
#define SIM_FIRMWARE_CS 0x38
#define SIM_FIRMWARE_DS 0x30
/* The 8259 masks OVMF leaves: the timer (IRQ 0) and the cascade open. */
#define SIM_FIRMWARE_PIC_MASTER 0xfa
#define SIM_FIRMWARE_PIC_SLAVE 0xff

/*
 * Sets up the model and a CPU table of n CPUs (APIC ID = index), grouped as
 * `threads` SMT siblings per core and `cores` cores per package, every CPU
 * in the firmware's state: the firmware's GDT and IDT, GS base 0, its APIC
 * enabled in xAPIC mode on a CPU with x2APIC (sim_machine_set_apic changes
 * that). The calling thread is not bound yet (sim_bind).
 */
bool sim_machine_init(struct sim_machine *m, uint32_t n, const struct tlbm_config *cfg,
                      uint32_t threads, uint32_t cores);
void sim_machine_free(struct sim_machine *m);

/*
 * A machine description beyond threads and cores (issue 21): packages of
 * `l3s` L3 caches each, `cores_per_l3` cores of `threads` SMT threads
 * sharing each L3; `nodes` NUMA nodes, the packages split evenly among
 * them (0: no SRAT, numa_node -1 everywhere), or, when there are more
 * nodes than packages, each package split into nodes of whole cores, as
 * under Intel SNC2/4 (an L3 may then span nodes, as CPUID reports it
 * there) and AMD NPS2/4 (whole L3s per node). APIC ID = index stays: the
 * CPUs are numbered thread, core, L3, package, as on a server whose
 * firmware numbers them in APIC ID order.
 */
struct sim_shape {
    uint32_t packages, l3s, cores_per_l3, threads, nodes;
};
/* Relabels the CPU table with the shape; false when it does not describe exactly m->ncpus CPUs. */
bool sim_machine_shape(struct sim_machine *m, const struct sim_shape *sh);
/* Parses "PxLxCxT" (packages x L3s per package x cores per L3 x threads per core). */
bool sim_shape_parse(const char *s, struct sim_shape *out);
/* Before any CPU runs: the APICs' features and the firmware's mode; `seed` for their choices. */
void sim_machine_set_apic(struct sim_machine *m, const struct sim_lapic_config *cfg, uint64_t seed);
/* Before any CPU runs: where CPUID answers come from (a CPU profile). */
void sim_machine_set_cpuid(struct sim_machine *m, sim_cpuid_fn fn, void *ctx);

/*
 * sim/thread_cpu.c: which CPU the calling thread plays.
 * Makes the calling thread CPU `cpu`. `pc` is what its GS base points at:
 * NULL as the firmware leaves it (core/machine/takeover.c loads the per-CPU block),
 * or the block itself for a test that skips the takeover.
 */
void sim_bind(struct sim_machine *m, uint32_t cpu, struct arch_percpu *pc);
void sim_unbind(void);
/* The CPU the calling thread plays, or UINT32_MAX. */
uint32_t sim_current_cpu(void);
struct sim_machine *sim_current_machine(void);
/* Inside an interrupt handler sim_poll_interrupts() delivers nothing (an interrupt gate). */
bool sim_in_handler(void);
void sim_set_in_handler(bool in);

/*
 * After the run, every thread joined: each CPU that did not stop for good
 * must be back in the firmware's state (its GDT, IDT, selectors, GS base 0,
 * CR3, CR4 and EFER, its APIC as lapic_check_handback() wants it, the 8259 masks):
 * a violation for each difference.
 */
void sim_check_handback(struct sim_machine *m);

/* Runs fn(arg) on a new thread bound to `cpu` (an AP). */
bool sim_start_thread(struct sim_machine *m, uint32_t cpu, void *(*fn)(void *), void *arg);
/* Lets parked threads go and joins every started thread. */
void sim_join_all(struct sim_machine *m);

/* Interrupts on: the calling CPU takes what its APIC delivers, through its IDT. */
void sim_poll_interrupts(void);

/* Raises an exception on the calling CPU (arch_raise_exception on the host). */
void sim_raise_exception(uint32_t vector, uint64_t rip);
/* The calling CPU stops for good (cpu_stop() on the host): the BSP ends the run (sim/thread_cpu.c). */
void sim_stop_cpu(void) __attribute__((noreturn));

#endif
