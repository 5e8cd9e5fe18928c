/* Microcode revision of the calling CPU (MSR 0x8B, read through a probe). */
#ifndef TLBSCOPE_ARCH_X86_MICROCODE_H
#define TLBSCOPE_ARCH_X86_MICROCODE_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpuid.h"

/*
 * Intel: write 0 to IA32_BIOS_SIGN_ID, execute CPUID(1), read the revision
 * from the high half (SDM vol. 3A, 10.11.7.1). AMD/Hygon: PATCH_LEVEL, low
 * half. Needs the tool's IDT (a fault becomes `false`).
 */
bool arch_read_microcode(const struct cpu_features *f, uint32_t *revision);

#endif
