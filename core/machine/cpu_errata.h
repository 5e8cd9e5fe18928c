/*
 * CPU errata that change how the tool may drive the hardware, recognised
 * from CPUID and the microcode revision: pure functions, unit-tested in
 * tests/host/test_cpu_errata.c, used the same way on the machine and on the
 * model (core/run/method.c).
 *
 * INVLPG and global translations with PCID (Intel errata ADL063 and RPL042,
 * as Linux cites them): on Alder Lake and Raptor Lake, INVLPG executed with
 * CR4.PCIDE = 1 may leave a global translation of the address in the TLB.
 * Linux ("x86/mm: Avoid incomplete Global INVLPG flushes", 2023) turns PCID
 * off on these models; since "x86/mm: Don't disable PCID when INVLPG has
 * been fixed by microcode" (Linux 6.10) only when the boot CPU's microcode
 * is below the revision that fixes it (arch/x86/mm/init.c,
 * invlpg_miss_ids[] and setup_pcid()). Linux matches every stepping of
 * those models; so does this table. Like Linux's table, it makes no
 * exception under a hypervisor, although the erratum is said not to apply
 * in VMX non-root operation: a guest on such a host runs without PCID too,
 * which costs PTI's measurement there, never a false stale read.
 */
#ifndef TLBSCOPE_CORE_CPU_ERRATA_H
#define TLBSCOPE_CORE_CPU_ERRATA_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpuid.h"

#define ERRATUM_INVLPG_GLOBAL "invlpg_global_pcid"

struct invlpg_global_check {
    char cpu[12];             /* "06-97-02": family-model-stepping, as Linux and Intel's
                               * microcode files name a CPU */
    bool listed;              /* Intel family 6, a model of the table (any stepping) */
    bool affected;            /* listed, and the microcode is below the fix or unknown */
    bool microcode_known;
    uint32_t microcode;       /* when microcode_known */
    uint32_t fixed_microcode; /* the first revision with the fix (when listed) */
    const char *model_name;   /* "Alder Lake (ALDERLAKE)" ... (when listed) */
};

/*
 * Whether the INVLPG/global erratum applies to this CPU with this microcode
 * (the boot CPU's, as Linux reads it). An unknown revision counts as below
 * the fix: Linux compares 0 then, and a CPU that hides its revision may
 * well run the old one.
 */
void errata_check_invlpg_global(const struct cpu_features *f, bool microcode_known,
                                uint32_t microcode, struct invlpg_global_check *out);
/* The first revision with the fix for (family, model), or 0 when the model is not listed. */
uint32_t errata_invlpg_global_fixed(enum cpu_vendor vendor, uint32_t family, uint32_t model);

#endif
