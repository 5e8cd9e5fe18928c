/*
 * Instructions that may fault on this CPU, run so that a fault comes back as
 * a return value instead of an exception: vector + 1 when it faulted (6 + 1
 * for #UD, 13 + 1 for #GP), 0 when it executed. Needs the tool's IDT and a
 * per-CPU block (arch/x86/include/asm/percpu.h). Implemented in entry.S.
 */
#ifndef TLBSCOPE_ARCH_X86_PROBE_H
#define TLBSCOPE_ARCH_X86_PROBE_H

#include <stdint.h>

#define PROBE_OK 0u
#define PROBE_FAULTED(v) ((v) + 1u)

uint32_t arch_probe_invpcid(uint64_t type, const void *descriptor);
uint32_t arch_probe_invlpgb(uint64_t rax, uint32_t ecx, uint32_t edx);
uint32_t arch_probe_tlbsync(void);
uint32_t arch_probe_rdmsr(uint32_t msr, uint64_t *value);
uint32_t arch_probe_wrmsr(uint32_t msr, uint64_t value);

#endif
