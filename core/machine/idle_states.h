/*
 * What the machine says about its idle states, for ipi_target_state: which
 * core C-state an MWAIT hint enters on this model, its exit latency and the
 * target residency Linux gives it, and so how long the target must sleep
 * before a ping can find it there (the settle time).
 *
 * Sources, in the order they are used:
 *  - Linux intel_idle's per-model tables (drivers/idle/intel_idle.c: the
 *    name, "MWAIT 0xHH", exit_latency and target_residency of each state),
 *    for the Intel server and client models below: the core C-state of a
 *    hint is model-specific (on Skylake-SP hint 0x20 is core C6), and
 *    CPUID leaf 5 only counts sub-states;
 *  - the FADT's P_LVL2_LAT / P_LVL3_LAT (ACPI 6.5 5.2.9), the only C-state
 *    latencies firmware publishes outside AML, for the AMD I/O-port state;
 *    Linux's acpi_idle takes 2 x the latency as target residency
 *    (drivers/acpi/processor_idle.c, latency_factor). `_CST` and `_LPI`
 *    are AML objects (methods or packages in the DSDT/SSDTs): the tool has
 *    no AML interpreter and does not read them;
 *  - otherwise IPI_SETTLE_US (10 us, core/machine/ipi.h), labelled "default".
 */
#ifndef TLBSCOPE_CORE_IDLE_STATES_H
#define TLBSCOPE_CORE_IDLE_STATES_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpuid.h"

struct idle_state_info {
    const char *name;          /* "C1", "C1E", "C6"...: what the hint enters on this model */
    uint32_t exit_latency_us;
    uint32_t target_residency_us;
    uint32_t core_cstate;      /* the core residency counter that proves it (3, 6, 7), 0: none */
};

/* The state MWAIT `hint` enters on this CPU per Linux intel_idle's table; false: no entry. */
bool idle_state_lookup(const struct cpu_features *f, uint32_t hint, struct idle_state_info *out);

struct idle_settle {
    uint32_t us;
    const char *source; /* "linux_intel_idle", "acpi_fadt_p_lvl2_lat", "default" */
};

/* Settle time of an MWAIT hint: the table's target residency, else the default. */
void idle_settle_mwait(const struct cpu_features *f, uint32_t hint, struct idle_settle *out);
/*
 * Settle time of the I/O-port C-state: 2 x P_LVL2_LAT when the FADT
 * publishes one (at most 100 us, else the state is "not supported", ACPI
 * 6.5 Table 5.9), else the default. `p_lvl2_lat` 0: no FADT.
 */
void idle_settle_ioport(uint32_t p_lvl2_lat, struct idle_settle *out);

#endif
