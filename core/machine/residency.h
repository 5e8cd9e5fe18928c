/*
 * Residency bookkeeping: did a CPU really reach the idle state it was put
 * in? Intel counts the time each core spends in C3, C6 and C7 (MSRs 0x3FC,
 * 0x3FD, 0x3FE, at the TSC's rate; SDM vol. 4, MSR_CORE_Cx_RESIDENCY) and
 * each package in PC2, PC3, PC6, PC7 (0x60D, 0x3F8, 0x3F9, 0x3FA). The
 * target reads them on itself before and after a state's samples; the
 * deltas, against the time the target was meant to spend in the state (the
 * settles before its pings: `expected`), say:
 *   reached       the wanted core state's counter and the deeper ones grew
 *                 by at least 0.8 of the expected time (RESIDENCY_REACHED_SHARE);
 *   partly_reached they grew, but by less: the core was in the state for
 *                 part of the time it should have been (both numbers in the
 *                 reason; issue 32: any growth used to be "reached");
 *   demoted       only a shallower counter grew: the CPU entered a lighter
 *                 state than asked (firmware auto-demotion, MSR 0xE2 bits
 *                 25/26, or a C-state limit);
 *   not_reached   no core counter grew: the core stayed in C0/C1/C1E (a
 *                 busy SMT sibling keeps the core there: the shallowest
 *                 thread decides);
 *   unverified    the state has no counter (C1, C1E, AMD's states: the
 *                 tool knows no documented AMD CC6 residency MSR), or the
 *                 counter faulted (#GP: under QEMU TCG none of these MSRs
 *                 exist), or the core counters grew by more than the
 *                 elapsed TSC time (they count at the TSC's rate: such a
 *                 delta proves nothing), with the reason. Never a guess.
 * The package counters are recorded beside the verdict, never part of it:
 * a package leaves PC6 whenever any of its cores runs (the BSP does).
 */
#ifndef TLBSCOPE_CORE_RESIDENCY_H
#define TLBSCOPE_CORE_RESIDENCY_H

#include <stddef.h>
#include <stdint.h>

enum residency_counter {
    RC_CORE_C3 = 0, RC_CORE_C6, RC_CORE_C7, RC_PKG_C2, RC_PKG_C3, RC_PKG_C6, RC_PKG_C7,
    RC_COUNT
};
#define RC_CORE_COUNT 3 /* the first three are the core's, shallowest first */

extern const uint32_t residency_msr[RC_COUNT];

/* One CPU's counters at one moment; probe[i] is PROBE_OK or the fault's vector + 1. */
struct residency_reading {
    uint64_t value[RC_COUNT];
    uint32_t probe[RC_COUNT];
    uint64_t tsc;
};

enum residency_verdict {
    RESIDENCY_REACHED = 0, RESIDENCY_DEMOTED, RESIDENCY_NOT_REACHED, RESIDENCY_UNVERIFIED,
    RESIDENCY_PARTLY_REACHED
};
/* reached: the counters cover at least this part (permille) of the expected time */
#define RESIDENCY_REACHED_SHARE 800
const char *residency_verdict_name(enum residency_verdict v);

/* Room for a verdict's reason: the longest a why_none (target_states.h) or a counter delta makes */
#define RESIDENCY_REASON_LEN 240

struct residency_result {
    enum residency_verdict verdict;
    uint32_t permille;   /* of the interval counted in the state judged (reached or demoted to) */
    uint32_t expected_permille; /* of the interval the target was meant to be in the state */
    uint64_t delta[RC_COUNT]; /* counter growth, 0 where unreadable */
    char reason[RESIDENCY_REASON_LEN];
};

/*
 * Judges one interval. `core_cstate`: 3, 6 or 7, the core state the CPU was
 * asked for; 0 when it has no counter (`why_none` then says why, e.g. "C1
 * has no core residency counter"). `expected`: TSC ticks of the interval
 * the CPU was meant to spend in the state (at most the interval).
 */
void residency_judge(uint32_t core_cstate, const char *why_none,
                     const struct residency_reading *before, const struct residency_reading *after,
                     uint64_t expected, struct residency_result *out);

/* MSR 0xE2 (MSR_PKG_CST_CONFIG_CONTROL) decoded: "limit 3, C1/C3 auto-demotion on, locked". */
void residency_describe_cst_config(uint64_t v, char *buf, size_t cap);

#endif
