/*
 * Test-only fault injection (inject= in the configuration): what a CPU is
 * told to do wrong. Apart from the configuration because the machine layer
 * (core/machine/smp.c hands each CPU its own fault) must not depend on how a run is
 * configured.
 */
#ifndef TLBSCOPE_CORE_INJECT_H
#define TLBSCOPE_CORE_INJECT_H

#include <stdint.h>

#define CONFIG_MAX_INJECT 4

/*
 * Test-only faults. Per CPU: hang, fault, slow (every answer two timeouts
 * late), late (its first SMP_INJECTED_LATE answers 1.5 timeouts late, then
 * on time: a vCPU the hypervisor did not run for a while), absent (the AP
 * never checks in; under INIT-SIPI the tool skips its SIPI, an AP that never
 * answers). Machine-wide, no CPU field: no_mp (MP services not found), mp_fail
 * (StartupAllAPs fails), mp_partial:N (the last N APs return from the MP
 * services procedure at once: never arrive). The machine-wide ones stand for
 * firmware faults that OVMF never shows.
 */
enum inject_kind {
    INJECT_NONE = 0,
    INJECT_HANG,
    INJECT_FAULT,
    INJECT_SLOW,
    INJECT_LATE,
    INJECT_ABSENT,
    INJECT_NO_MP,
    INJECT_MP_FAIL,
    INJECT_MP_PARTIAL,
};
struct injection {
    enum inject_kind kind;
    uint32_t cpu;    /* dense CPU index, as in the report */
    uint32_t vector; /* INJECT_FAULT only */
    uint32_t count;  /* INJECT_MP_PARTIAL only: APs that never arrive */
};

#endif
