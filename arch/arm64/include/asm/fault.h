/*
 * Test-only: raise a given exception on purpose (x86's inject=fault:CPU:VECTOR,
 * which core/run/config_values.c checks with arch_can_raise). The aarch64 app
 * has no configured fault injection (its faulting-CPU test is the FAULT_CPU
 * build of tests/qemu/aarch64.sh): no vector can be raised, so the config
 * parser refuses inject=fault with its usual message.
 */
#ifndef TLBSCOPE_ARCH_ARM64_FAULT_H
#define TLBSCOPE_ARCH_ARM64_FAULT_H

#include <stdbool.h>
#include <stdint.h>

static inline bool arch_can_raise(uint32_t vector)
{
    (void)vector;
    return false;
}

#endif
