/*
 * arch/x86/include/asm/power.h on the modelled machine: it has no SMI counter, no
 * performance counters, no APERF/MPERF and no turbo control, so every one
 * of those MSRs reads and writes as a #GP, the answer of a CPU without
 * them (the report labels the whole run simulated); MWAIT waits for an
 * interrupt like HLT.
 *
 * Idle-state residency is modelled where the real CPU has it: on an Intel
 * profile whose model has a C-state table (core/machine/idle_states.c), the core
 * residency MSRs 0x3FC, 0x3FD, 0x3FE count, in TSC ticks, the time a CPU
 * spends in an MWAIT whose hint enters core C3, C6 or C7, and only as deep
 * as the shallowest of the core's threads (a core goes no deeper than its
 * most awake thread: a sibling running or in HLT keeps it in C0/C1). A
 * thread stays in its MWAIT state between two MWAITs of its idle loop and
 * leaves it at its next cpu_relax() outside MWAIT (hostpower_running());
 * the package
 * counters (0x60D, 0x3F8-0x3FA) read 0 and never grow (the BSP runs), MSR
 * 0xE2 reads limit 7 with auto-demotion off. Every such number is the
 * model's and the report of a modelled run is labelled simulated.
 */
#include "asm/cpu.h"
#include "asm/power.h"
#include "asm/probe.h"
#include "core/machine/amd_boot.h"
#include "core/machine/idle_states.h"
#include "core/mutant.h"
#include "core/machine/residency.h"
#include "core/machine/timing.h"
#include "sim/hostcpu.h"
#include "sim/hostdesc.h"
#include "sim/machine.h"

#define SIM_CST_CONFIG 0x7ull /* package C-state limit 7 (none), auto-demotion off, unlocked */

static bool models_residency(const struct sim_machine *m)
{
    struct idle_state_info s;
    return m && m->features && idle_state_lookup(m->features, 0x00, &s);
}

/* The index of the first thread of `cpu`'s core: where the core's counters live. */
static uint32_t core_of(const struct sim_machine *m, uint32_t cpu)
{
    const struct cpu_info *me = &m->topo.cpus[cpu];
    uint32_t i;
    for (i = 0; i < m->ncpus; i++)
        if (m->topo.cpus[i].package == me->package && m->topo.cpus[i].core == me->core)
            return i;
    return cpu;
}

/* The core's state now: the shallowest of its threads'. */
static uint32_t core_state(const struct sim_machine *m, uint32_t cpu)
{
    const struct cpu_info *me = &m->topo.cpus[cpu];
    uint32_t i, state = __atomic_load_n(&m->cstate_now[cpu], __ATOMIC_ACQUIRE);
    for (i = 0; i < m->ncpus; i++) {
        const struct cpu_info *o = &m->topo.cpus[i];
        uint32_t s;
        if (i == cpu || o->package != me->package || o->core != me->core)
            continue;
        s = __atomic_load_n(&m->cstate_now[i], __ATOMIC_ACQUIRE);
        if (s < state)
            state = s;
    }
    return state;
}

/*
 * DE_CFG (MSR C001_1029) exists on the AMD and Hygon profiles; bit 1 (LFENCE
 * dispatch-serialising) is the only one the tool may set. Elsewhere a #GP.
 */
static bool models_de_cfg(const struct sim_machine *m, uint32_t msr)
{
    return msr == MSR_AMD_DE_CFG && m && m->features && sim_current_cpu() < m->ncpus &&
           (m->features->vendor_id == VENDOR_AMD || m->features->vendor_id == VENDOR_HYGON);
}

uint32_t power_read_msr(uint32_t msr, uint64_t *value)
{
    struct sim_machine *m = sim_current_machine();
    uint32_t i;
    *value = 0;
    if (m)
        sim_check_probe_context(m, sim_current_cpu(), "a read", msr);
    if (models_de_cfg(m, msr)) {
        *value = m->de_cfg[sim_current_cpu()];
        return PROBE_OK;
    }
    if (m && msr == MSR_EFER && sim_current_cpu() < m->ncpus) {
        *value = tlbm_read_efer(&m->model, sim_current_cpu()); /* the model's (sim/tlb_model.h) */
        return PROBE_OK;
    }
    if (!models_residency(m))
        return PROBE_FAULTED(13);
    if (msr == MSR_PKG_CST_CONFIG) {
        *value = SIM_CST_CONFIG;
        return PROBE_OK;
    }
    for (i = 0; i < RC_COUNT; i++) {
        if (residency_msr[i] != msr)
            continue;
        if (i < RC_CORE_COUNT)
            *value = __atomic_load_n(&m->core_residency[core_of(m, sim_current_cpu())][i],
                                     __ATOMIC_RELAXED);
        return PROBE_OK;
    }
    return PROBE_FAULTED(13);
}

uint32_t power_write_msr(uint32_t msr, uint64_t value)
{
    struct sim_machine *m = sim_current_machine();
    if (m)
        sim_check_probe_context(m, sim_current_cpu(), "a write", msr);
    if (models_de_cfg(m, msr)) {
        if (value & ~DE_CFG_LFENCE_SERIALIZE)
            tlbm_violation(&m->model, sim_current_cpu(),
                           "WRMSR DE_CFG 0x%llx: bits other than 1 (LFENCE) are not the tool's",
                           (unsigned long long)value);
        else
            m->de_cfg[sim_current_cpu()] = value;
        return PROBE_OK;
    }
    if (m && msr == MSR_EFER && sim_current_cpu() < m->ncpus) {
        tlbm_write_efer(&m->model, sim_current_cpu(), value); /* TCE where reserved: a violation */
        return PROBE_OK;
    }
    return PROBE_FAULTED(13);
}

static _Thread_local bool in_mwait;

void hostpower_running(void)
{
    struct sim_machine *m;
    if (in_mwait)
        return;
    m = sim_current_machine();
    if (m && sim_current_cpu() < m->ncpus)
        __atomic_store_n(&m->cstate_now[sim_current_cpu()], 0, __ATOMIC_RELEASE);
}

void power_monitor(const volatile void *addr) { (void)addr; }

/* never called on the model: MSR C001_0073 reads as a #GP there, so no I/O C-state is offered */
void power_io_cstate_enter(uint16_t port) { (void)inb(port); }

void power_mwait_until_irq(uint32_t hint)
{
    struct sim_machine *m = sim_current_machine();
    struct idle_state_info s;
    uint32_t cpu, state, slot, core;
    uint64_t t0, now, last;
    if (!models_residency(m) || !idle_state_lookup(m->features, hint, &s) || !s.core_cstate) {
        cpu_halt_until_irq();
        return;
    }
    cpu = sim_current_cpu();
    __atomic_store_n(&m->cstate_now[cpu], s.core_cstate, __ATOMIC_RELEASE);
    t0 = tsc_now();
    in_mwait = true;
    cpu_halt_until_irq();
    in_mwait = false;
    /* what the core was in while this thread slept, judged at the wake-up */
    state = core_state(m, cpu);
    slot = state >= 7 ? 2 : state >= 6 ? 1 : state >= 3 ? 0 : 3;
    core = core_of(m, cpu);
    now = tsc_now();
    /* the core's time, not each thread's: what a sibling already counted is not counted again */
    last = __atomic_exchange_n(&m->core_credited[core], now, __ATOMIC_RELAXED);
    if (last > t0)
        t0 = last;
    if (slot < 3 && now > t0 && !MUTANT(residency_unmodelled))
        __atomic_fetch_add(&m->core_residency[core][slot], now - t0, __ATOMIC_RELAXED);
}
