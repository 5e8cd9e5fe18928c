/*
 * Decisions about how a run measures, made the same way on a machine
 * (efi/session.c) and on the model (sim/session.c): PCID or not (and the
 * numbering), the depth of the page tables, what the instruction probes
 * mean for the methods, and how long one CPU may take to answer.
 */
#ifndef TLBSCOPE_CORE_METHOD_H
#define TLBSCOPE_CORE_METHOD_H

#include "core/run/run.h"

struct smp;

/*
 * Whether method_choose_pcids() needs the boot CPU's microcode revision: the
 * CPU has PCID and is a model of the INVLPG/global erratum (core/machine/cpu_errata.h).
 */
bool method_pcid_needs_microcode(const struct run *r);
/*
 * PCID on where the CPU has it, with Linux's numbering (kernel PCID = ASID +
 * 1 = 1, user = kernel | bit 11), except where the INVLPG/global erratum
 * applies to this microcode (the boot CPU's): then off, as Linux does.
 * method.pcid_reason says which and why, method.pcid_erratum the evidence.
 */
void method_choose_pcids(struct run *r, bool microcode_known, uint32_t microcode);
/*
 * Copies each CPU's microcode revision (read at check-in) into the CPU table,
 * warns when they differ, and when PCID is on while a CPU runs a revision
 * below the erratum's fix.
 */
void method_collect_microcode(struct run *r, const struct smp *smp);
/*
 * EFER.TCE and LFENCE's serialisation as each CPU that took part found them
 * and ran with them (set at takeover as Linux does, core/machine/amd_boot.h):
 * method.efer_tce and method.lfence, and a warning where one could not be set.
 */
void method_collect_cpu_settings(struct run *r, const struct smp *smp);
/* Depth of the tool's page tables: that of the firmware's paging mode (CR4.LA57: 5). */
unsigned method_paging_levels(uint64_t firmware_cr4);
/*
 * Records what the probes found (PROBE_OK or vector + 1, arch/x86/include/asm/probe.h;
 * pass PROBE_OK for an instruction CPUID does not claim, it is not probed)
 * and picks the full-flush method from it.
 */
void method_apply_probes(struct run *r, uint32_t invpcid, uint32_t invlpgb, uint32_t tlbsync);
/* Deadline for one answer from one CPU, in ms: a vCPU or a modelled CPU may wait for the host. */
uint64_t method_answer_timeout_ms(const struct run *r);
/*
 * The IPI mode Linux would pick on this machine (core/machine/linux_apic.h),
 * from the run's CPU, firmware and ACPI facts; why into reason
 * (method.linux_ipi_mode).
 */
const char *method_linux_ipi_mode(const struct run *r, char *reason, size_t cap);
/*
 * Whether a shootdown experiment sends its flush IPIs in x2APIC cluster mode:
 * Linux would pick it here (method_linux_ipi_mode) and the APIC runs in
 * x2APIC mode, where logical destinations exist (issue 32: every shootdown
 * experiment sends IPIs the way Linux would on the machine).
 */
bool method_linux_cluster_ipis(const struct run *r);

#endif
