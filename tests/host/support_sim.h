/*
 * A modelled machine for protocol tests (sim/machine.h): N threads play
 * CPUs, each with a CPU of the strict TLB model, a modelled local APIC and a
 * per-CPU block; the test's main thread is CPU 0, the BSP. Page tables and
 * the test region are ordinary heap memory. Every CPU is taken over by the
 * tool's own core/machine/takeover.c (the BSP in sim_init, each AP by its thread)
 * into x2APIC mode with the ICR fence, on APICs that order like Intel's
 * (an unfenced x2APIC ICR write is a violation), and handed back to the
 * firmware in sim_shutdown.
 */
#ifndef TLBSCOPE_TESTS_SUPPORT_SIM_H
#define TLBSCOPE_TESTS_SUPPORT_SIM_H

#include "asm/paging.h"
#include "core/machine/cpu_table.h"
#include "core/exp/common.h"
#include "core/machine/smp.h"
#include "core/machine/takeover.h"
#include "core/machine/testmem.h"
#include "sim/aps.h"
#include "tests/host/support_host.h"

struct sim {
    uint32_t ncpus;
    struct sim_machine mach;
    struct config cfg;
    struct smp smp;
    struct pt_ctx pt;
    struct testmem tm;
    struct tool_env env;
    struct takeover takeover;
};

/* CPUs 0..n-1 with the model's defaults (no PCID, as QEMU's TCG); `timeout_ms` bounds every answer. */
void sim_init(struct sim *m, uint32_t n, uint32_t timeout_ms);
/* The same with a given model (features, errata, seed); PCIDE on when the model has PCID. */
void sim_init_model(struct sim *m, uint32_t n, uint32_t timeout_ms, const struct tlbm_config *cfg);
/* The same with given APICs, the mode the tool runs them in and whether it fences ICR writes. */
void sim_init_apic(struct sim *m, uint32_t n, uint32_t timeout_ms, const struct tlbm_config *cfg,
                   const struct sim_lapic_config *apic, enum apic_mode mode, bool icr_fence);
/* Starts an AP thread running the command loop (skip one to simulate a dead CPU). */
void sim_start(struct sim *m, uint32_t index);
/*
 * Releases the APs, joins their threads and gives the BSP back; then checks
 * every CPU is back in the firmware's state (sim_check_handback). Returns
 * the model's violations over the whole life of the machine.
 */
uint32_t sim_shutdown(struct sim *m);
/*
 * A shootdown bench: a model of n CPUs, the protocol on it (with the kernel
 * and user PCIDs when the model has PCID), every AP spinning as a target of
 * CPU 0, all TLBs synchronised.
 */
struct sim_bench {
    struct sim m;
    struct shootdown sd;
    struct target_set ts;
    struct runner r;
    struct run run;
};
void sim_bench_start(struct sim_bench *b, uint32_t n, const struct tlbm_config *cfg,
                     uint32_t ceiling);
/*
 * Stops the targets, collects every CPU's verification counts into *rec and
 * tears the machine down; returns the model's violations (faults a CPU would take).
 */
uint32_t sim_bench_stop(struct sim_bench *b, struct experiment_record *rec);

/* What CPU i's model counted since sim_clear_counts(). */
const struct tlbm_counts *sim_counts(struct sim *m, uint32_t i);
void sim_clear_counts(struct sim *m);
/* Test-page reads of every CPU so far, read under each CPU's lock: callable while they run. */
uint64_t sim_reads_now(struct sim *m);

#endif
