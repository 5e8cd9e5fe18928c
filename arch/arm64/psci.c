/* PSCI calls through SMCCC, the conduit and the calls that do not return: see asm/psci.h
 * (the functions over psci_call are psci_fn.c's, which the host model shares). */
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

void smccc_call4(uint32_t fn, uint64_t out[4])
{
    register uint64_t x0 __asm__("x0") = fn;
    register uint64_t x1 __asm__("x1") = 0;
    register uint64_t x2 __asm__("x2") = 0;
    register uint64_t x3 __asm__("x3") = 0;
    if (conduit_hvc)
        __asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)::SMCCC_CLOBBERS);
    else
        __asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)::SMCCC_CLOBBERS);
    out[0] = x0;
    out[1] = x1;
    out[2] = x2;
    out[3] = x3;
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
