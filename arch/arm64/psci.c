/* PSCI calls through SMCCC: see asm/psci.h. */
#include "asm/psci.h"

static bool conduit_hvc = true;

void psci_init(bool use_hvc)
{
    conduit_hvc = use_hvc;
}

bool psci_uses_hvc(void)
{
    return conduit_hvc;
}

/*
 * SMCCC 1.0 (DEN 0028, "Register use in AArch64 SMC and HVC calls"): arguments in x0..x3 (x0 = function
 * id), result in x0, x0..x17 may be corrupted by the callee; x18..x30 and SP
 * are preserved. So everything up to x17 is clobbered here.
 */
#define SMCCC_CLOBBERS "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "memory"

int64_t psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    register uint64_t x0 __asm__("x0") = fn;
    register uint64_t x1 __asm__("x1") = a1;
    register uint64_t x2 __asm__("x2") = a2;
    register uint64_t x3 __asm__("x3") = a3;
    if (conduit_hvc)
        __asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)::SMCCC_CLOBBERS);
    else
        __asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)::SMCCC_CLOBBERS);
    return (int64_t)x0;
}

const char *psci_strerror(int64_t rc)
{
    switch (rc) {
    case 0: return "SUCCESS";
    case -1: return "NOT_SUPPORTED";
    case -2: return "INVALID_PARAMETERS";
    case -3: return "DENIED";
    case -4: return "ALREADY_ON";
    case -5: return "ON_PENDING";
    case -6: return "INTERNAL_FAILURE";
    default: return "unknown";
    }
}

/* CPU_ON (PSCI 1.1, "CPU_ON"): target_cpu is the MPIDR affinity, entry_point a
 * physical address, context_id arrives in the target's x0. */
int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry_pa, uint64_t context_id)
{
    return psci_call(PSCI_CPU_ON_64, mpidr, entry_pa, context_id);
}

void psci_system_reset(void)
{
    psci_call(PSCI_SYSTEM_RESET, 0, 0, 0);
    for (;;) /* SYSTEM_RESET does not return on success (PSCI 1.1, "SYSTEM_RESET") */
        __asm__ volatile("wfi");
}

void psci_system_off(void)
{
    psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
    for (;;) /* SYSTEM_OFF does not return on success (PSCI 1.1, "SYSTEM_OFF") */
        __asm__ volatile("wfi");
}
