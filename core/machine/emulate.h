/*
 * Test-only emulation (emulate=invlpgb,invpcid) of instructions QEMU's TCG
 * does not have, so that CI runs the real code paths of the experiments.
 *
 * The #UD these instructions raise is caught (arch/x86/trap.c), the
 * instruction decoded (arch/x86/insn.c) with its registers from the trap
 * frame, and its effect performed:
 *   INVLPGB  decodes rAX/ECX/EDX (arch/x86/include/asm/invlpgb.h), invalidates locally
 *            and posts the request to every other usable CPU through the
 *            tool's IPI path; like the real instruction it does not wait;
 *   TLBSYNC  waits until every CPU has processed this CPU's requests;
 *   INVPCID  decodes type and descriptor and performs it locally (with
 *            CR4.PCIDE clear only PCID 0 exists, as on the real CPU:
 *            a non-zero PCID for types 0 and 1 is a #GP, left unhandled;
 *            with CR4.PCIDE, on a CPU with PCID but no INVPCID, types 0
 *            and 1 switch CR3 to the PCID named for the INVLPG or the
 *            flushing CR3 write, types 2 and 3 toggle CR4.PGE).
 * Invalid operands (a page count above the emulated maximum, reserved
 * descriptor bits) are not emulated: the #UD then stands, as a #GP would.
 * Every result produced this way is labelled emulated in the report.
 */
#ifndef TLBSCOPE_CORE_EMULATE_H
#define TLBSCOPE_CORE_EMULATE_H

#include "core/machine/emulate_mask.h"
#include "core/machine/smp.h"

/* What Zen 3/4 report in CPUID 8000_0008 EDX[15:0] (7) + 1: the emulated maximum. */
#define EMULATED_INVLPGB_MAX_PAGES 8

struct emulation_counts {
    uint64_t invlpgb, tlbsync, invpcid, rejected;
};

/* Installs the #UD hook and the IPI handler; `mask` is EMULATE_* from core/run/config.h. */
void emulate_install(struct smp *s, uint32_t mask);
const struct emulation_counts *emulate_counts(void);

#endif
