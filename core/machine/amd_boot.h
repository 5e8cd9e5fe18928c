/*
 * Two settings Linux's init_amd() makes at boot that change what the tool
 * measures, made the same way on every CPU the tool takes over and undone
 * when it gives the CPU back (issue 32, items 5 and 8):
 *
 *   EFER.TCE (bit 15), where CPUID 8000_0001 ECX[17] enumerates it: with the
 *     translation cache extension INVLPG and INVLPGB drop only the
 *     page-walk cache entries on the invalidated address's path; without it
 *     every one, a walk refill Linux never pays (msr_set_bit(MSR_EFER,
 *     _EFER_TCE)).
 *   DE_CFG[1] (MSR C001_1029) on AMD and Hygon, unless CPUID 8000_0021
 *     EAX[2] says LFENCE is always dispatch-serialising: only with it does
 *     LFENCE wait for earlier instructions, which the timestamps rely on
 *     (msr_set_bit(MSR_AMD64_DE_CFG, MSR_AMD64_DE_CFG_LFENCE_SERIALIZE_BIT)).
 *     Read and written through the #GP probe: a hypervisor may lack it.
 *     On Intel LFENCE is dispatch-serialising by the architecture.
 *
 * Per CPU: what the firmware left (found) and what the measurements run
 * with, read back (used); core/run/method.c gathers them into the report.
 */
#ifndef TLBSCOPE_CORE_AMD_BOOT_H
#define TLBSCOPE_CORE_AMD_BOOT_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpuid.h"

#define MSR_AMD_DE_CFG 0xc0011029u
#define DE_CFG_LFENCE_SERIALIZE (1ull << 1)

struct percpu;

/* What the firmware had, to give back: only what the tool wrote. */
struct amd_boot_saved {
    uint64_t efer, de_cfg;
    bool efer_written, de_cfg_written;
};

/* Where LFENCE's dispatch serialisation comes from on this CPU. */
enum lfence_source {
    LFENCE_ARCHITECTURAL = 0, /* Intel and others: by the architecture */
    LFENCE_CPUID,             /* AMD: CPUID 8000_0021 EAX[2], always */
    LFENCE_DE_CFG,            /* AMD and Hygon: DE_CFG[1] */
};
enum lfence_source amd_boot_lfence_source(const struct cpu_features *f);
const char *lfence_source_name(enum lfence_source s);

/*
 * On the CPU being taken over, with the tool's IDT and per-CPU block loaded
 * (the DE_CFG probe needs both): sets both where they apply, records found
 * and used in pc (tce_found, tce_used, lfence_found, lfence_used).
 */
void amd_boot_enter(const struct cpu_features *f, struct percpu *pc, struct amd_boot_saved *s,
                    bool bsp);
/* Gives back what amd_boot_enter() wrote, before the firmware's IDT is back. */
void amd_boot_leave(struct amd_boot_saved *s);

#endif
