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
 * most awake thread: a sibling running or in HLT keeps it in C0/C1), for
 * the time the whole core was there (core_change()). A thread stays in its
 * MWAIT state between two MWAITs of its idle loop and leaves it at its next
 * cpu_relax() outside MWAIT (hostpower_running()); the package
 * counters (0x60D, 0x3F8-0x3FA) read 0 and never grow (the BSP runs), MSR
 * 0xE2 reads limit 7 with auto-demotion off. Every such number is the
 * model's and the report of a modelled run is labelled simulated.
 *
 * The waits of arch/x86/include/asm/cpu.h live here too (cpu_relax(),
 * cpu_irq_window(), cpu_halt_until_irq()): every wait is where a CPU's idle
 * state changes, and with them here sim/hostcpu.c never calls this file.
 */
#include <sched.h>

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
#include "sim/lapic.h"
#include "sim/machine.h"
#include "sim/storebuf.h"

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

static void core_change(struct sim_machine *m, uint32_t cpu, uint32_t to);

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
        if (i < RC_CORE_COUNT && sim_current_cpu() < m->ncpus) {
            uint32_t cpu = sim_current_cpu();
            /* the counters as they stand now: the core's time up to this read credited */
            core_change(m, cpu, __atomic_load_n(&m->cstate_now[cpu], __ATOMIC_ACQUIRE));
            *value = __atomic_load_n(&m->core_residency[core_of(m, cpu)][i], __ATOMIC_RELAXED);
        }
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

/* the residency counter a core state counts in: C3, C6, C7 (and deeper), or none (3) */
static uint32_t residency_slot(uint32_t core_cstate)
{
    return core_cstate >= 7 ? 2 : core_cstate >= 6 ? 1 : core_cstate >= 3 ? 0 : 3;
}

/*
 * `cpu` goes to core C-state `to` (0: running). As the hardware counts, the
 * core's counters grow by the time the whole core spent in a state, the
 * shallowest of its threads': the time since the core's last change is
 * credited to the state it was in, then the change is made. A thread's
 * sleep is not judged by the core's state at its wake-up (one sibling
 * awake at that instant, as a loaded host makes likely, cost the whole
 * sleep), and what a sibling already counted is never counted again.
 */
static void core_change(struct sim_machine *m, uint32_t cpu, uint32_t to)
{
    uint32_t core = core_of(m, cpu), slot;
    uint64_t now;
    while (__atomic_test_and_set(&m->core_lock[core], __ATOMIC_ACQUIRE))
        sched_yield();
    now = tsc_now();
    slot = residency_slot(core_state(m, cpu));
    if (slot < 3 && now > m->core_since[core] && !MUTANT(residency_unmodelled))
        __atomic_fetch_add(&m->core_residency[core][slot], now - m->core_since[core],
                           __ATOMIC_RELAXED);
    m->core_since[core] = now;
    __atomic_store_n(&m->cstate_now[cpu], to, __ATOMIC_RELEASE);
    __atomic_clear(&m->core_lock[core], __ATOMIC_RELEASE);
}

void hostpower_running(void)
{
    struct sim_machine *m;
    uint32_t cpu;
    if (in_mwait)
        return; /* an interrupt handler inside the sleep: the core is not counted awake */
    m = sim_current_machine();
    cpu = sim_current_cpu();
    if (m && cpu < m->ncpus && __atomic_load_n(&m->cstate_now[cpu], __ATOMIC_ACQUIRE))
        core_change(m, cpu, 0);
}

void power_monitor(const volatile void *addr) { (void)addr; }

/* never called on the model: MSR C001_0073 reads as a #GP there, so no I/O C-state is offered */
void power_io_cstate_enter(uint16_t port) { (void)inb(port); }

void power_mwait_until_irq(uint32_t hint)
{
    struct sim_machine *m = sim_current_machine();
    struct idle_state_info s;
    uint32_t cpu;
    if (!models_residency(m) || !idle_state_lookup(m->features, hint, &s) || !s.core_cstate) {
        cpu_halt_until_irq();
        return;
    }
    cpu = sim_current_cpu();
    core_change(m, cpu, s.core_cstate);
    in_mwait = true;
    cpu_halt_until_irq();
    in_mwait = false;
    core_change(m, cpu, s.core_cstate); /* counted up to the wake-up; still in it until cpu_relax() */
}

/* ---- how a modelled CPU waits: PAUSE, the interrupt window, HLT ---- */

void cpu_relax(void)
{
    struct sim_machine *m = sim_current_machine();
    if (m)
        tlbm_tick(&m->model, sim_current_cpu());
    sim_sb_event(); /* stores held this many events drain (sim/storebuf.h) */
    hostpower_running();
    sim_poll_interrupts();
    sched_yield();
}

/* "sti; nop; cli": the modelled CPU takes interrupts where it yields. */
void cpu_irq_window(void)
{
    hostcpu_set_if(true);
    cpu_relax();
    hostcpu_set_if(false);
}

/*
 * "sti; hlt": wake on the next interrupt; the spin loops around it re-check their condition.
 * HLT is not serialising, but a core asleep commits its store buffer (sim/storebuf.h).
 */
void cpu_halt_until_irq(void)
{
    lapic_drain_stores();
    hostcpu_set_if(true);
    cpu_relax();
}
