/*
 * A PL011's data register, written directly: the one output secondaries and
 * the fault handler have, since UEFI boot services belong to the BSP alone
 * (they are neither multiprocessor-safe nor reentrant). The base comes from
 * the ACPI SPCR table (QEMU virt: 0x09000000); 0 means no output.
 */
#ifndef TLBSCOPE_ARM64_UART_H
#define TLBSCOPE_ARM64_UART_H

#include <stdint.h>

void uart_set_base(uint64_t pl011_base);
/* one line from any CPU, under a lock (needs the MMU on: exclusives) */
void uart_puts(const char *s);

#endif
