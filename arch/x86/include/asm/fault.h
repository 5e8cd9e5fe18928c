/* Test-only: raise a given exception on purpose (inject=fault:CPU:VECTOR). */
#ifndef TLBSCOPE_ARCH_X86_FAULT_H
#define TLBSCOPE_ARCH_X86_FAULT_H

#include <stdbool.h>
#include <stdint.h>

/* Vectors that can be raised faithfully: real faults for #DE, #UD, #GP, #PF,
 * INT n for vectors that push no error code. */
bool arch_can_raise(uint32_t vector);
void arch_raise_exception(uint32_t vector);

#endif
