/*
 * arch/x86/power.h on the modelled machine: it has no SMI counter, no
 * performance counters, no APERF/MPERF and no turbo control, so every one
 * of those MSRs reads and writes as a #GP, the answer of a CPU without
 * them (the report labels the whole run simulated); MWAIT waits for an
 * interrupt like HLT.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/power.h"
#include "arch/x86/probe.h"

uint32_t power_read_msr(uint32_t msr, uint64_t *value)
{
    (void)msr;
    *value = 0;
    return PROBE_FAULTED(13);
}

uint32_t power_write_msr(uint32_t msr, uint64_t value)
{
    (void)msr;
    (void)value;
    return PROBE_FAULTED(13);
}

void power_monitor(const volatile void *addr) { (void)addr; }

void power_mwait_until_irq(uint32_t hint)
{
    (void)hint;
    cpu_halt_until_irq();
}
