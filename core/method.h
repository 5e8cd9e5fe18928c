/*
 * Decisions about how a run measures, made the same way on a machine
 * (efi/session.c) and on the model (sim/session.c): the PCID numbering,
 * what the instruction probes mean for the methods, and how long one CPU
 * may take to answer.
 */
#ifndef TLBSCOPE_CORE_METHOD_H
#define TLBSCOPE_CORE_METHOD_H

#include "core/run.h"

/* Linux's numbering when the CPU has PCID: kernel PCID = ASID + 1 = 1, user = kernel | bit 11. */
void method_choose_pcids(struct run *r);
/*
 * Records what the probes found (PROBE_OK or vector + 1, arch/x86/probe.h;
 * pass PROBE_OK for an instruction CPUID does not claim, it is not probed)
 * and picks the full-flush method from it.
 */
void method_apply_probes(struct run *r, uint32_t invpcid, uint32_t invlpgb, uint32_t tlbsync);
/* Deadline for one answer from one CPU, in ms: a vCPU or a modelled CPU may wait for the host. */
uint64_t method_answer_timeout_ms(const struct run *r);

#endif
