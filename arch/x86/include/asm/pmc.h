/*
 * AMD's core performance counters, as far as counting SMIs needs them
 * (AMD APM vol. 2, 13.2 "Core Performance Monitoring Counters"; the PPRs
 * of family 17h and 19h, "Core::X86::Pmc::Core::LsSmiRx").
 *
 *  - Four legacy counters: PerfEvtSel0-3 at C001_0000-3, PerfCtr0-3 at
 *    C001_0004-7. With PerfCtrExtCore (CPUID 8000_0001 ECX[23]) six,
 *    interleaved: PerfEvtSel n at C001_0200 + 2n, PerfCtr n at C001_0201 + 2n
 *    (the legacy addresses alias the first four).
 *  - PerfEvtSel: EventSelect[7:0] in bits 7:0 and [11:8] in 35:32,
 *    UnitMask 15:8, Usr 16, Os 17, En 22. The counters are 48 bits wide.
 *  - PMCx02B LsSmiRx, "SMIs received", no unit mask: in the PPRs of family
 *    17h (Zen, Zen 2) and 19h (Zen 3, Zen 4), the families of the AMD CPUID
 *    dumps in ../shared/data/cpuid, and in Linux's amdzen1-5 event lists.
 *    Not in earlier families' documents: they are not tried.
 */
#ifndef TLBSCOPE_ARCH_X86_PMC_H
#define TLBSCOPE_ARCH_X86_PMC_H

#include <stdbool.h>
#include <stdint.h>

#define AMD_PERF_CTL_LEGACY 0xc0010000u
#define AMD_PERF_CTR_LEGACY 0xc0010004u
#define AMD_PERF_CTL_EXT 0xc0010200u
#define AMD_PERF_CTR_EXT 0xc0010201u
#define AMD_EVTSEL_USR (1ull << 16)
#define AMD_EVTSEL_OS (1ull << 17)
#define AMD_EVTSEL_EN (1ull << 22)
#define AMD_PMC_MASK ((1ull << 48) - 1)
#define AMD_EVENT_LS_SMI_RX 0x02bu
#define AMD_CPUID_PERFCTR_EXT_CORE (1u << 23) /* 8000_0001 ECX */
#define AMD_LS_SMI_RX_FAMILY 0x17u            /* first family whose PPR documents it */

struct amd_pmc {
    uint32_t ctl, ctr; /* PerfEvtSel and PerfCtr MSRs of one counter */
};

static inline uint32_t amd_pmc_counters(bool ext_core) { return ext_core ? 6u : 4u; }

static inline struct amd_pmc amd_pmc_msrs(bool ext_core, uint32_t index)
{
    struct amd_pmc p;
    p.ctl = ext_core ? AMD_PERF_CTL_EXT + 2 * index : AMD_PERF_CTL_LEGACY + index;
    p.ctr = ext_core ? AMD_PERF_CTR_EXT + 2 * index : AMD_PERF_CTR_LEGACY + index;
    return p;
}

/* The PerfEvtSel value that counts `event` at every privilege level (SMIs interrupt any). */
static inline uint64_t amd_pmc_select(uint32_t event)
{
    return (event & 0xffu) | ((uint64_t)((event >> 8) & 0xfu) << 32) | AMD_EVTSEL_USR |
           AMD_EVTSEL_OS | AMD_EVTSEL_EN;
}

#endif
