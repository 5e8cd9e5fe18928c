/*
 * What the measurement conditions and the target states need from the CPU:
 * model-specific registers read and written through the #GP probe
 * (arch/x86/include/asm/probe.h), and MONITOR/MWAIT. The host build (tlbscope-sim) gets sim/hostpower.c: a
 * modelled CPU has none of these MSRs (they read as a #GP, which the report
 * labels simulated) and its MWAIT is a halt.
 */
#ifndef TLBSCOPE_ARCH_X86_POWER_H
#define TLBSCOPE_ARCH_X86_POWER_H

#include <stdint.h>

#define MSR_SMI_COUNT 0x34u            /* Intel: SMIs since reset (Nehalem and later) */
#define MSR_MPERF 0xe7u                /* counts at the TSC's reference rate in C0 */
#define MSR_APERF 0xe8u                /* counts at the actual clock in C0 */
#define MSR_PKG_CST_CONFIG 0xe2u       /* Intel: package C-state limit, bits 2:0 (or 3:0) */
#define MSR_MISC_ENABLE 0x1a0u         /* Intel: bit 38 turbo mode disable */
#define MISC_ENABLE_TURBO_DISABLE (1ull << 38)
#define MSR_AMD_CSTATE_BASE 0xc0010073u /* AMD 15h-19h: CStateBaseAddr, bits 15:0 (BKDG, PPR) */
#define MSR_AMD_CSTATE_CONFIG 0xc0010296u /* AMD 17h/19h: CCR0-2, the action of each I/O offset */
#define MSR_AMD_HWCR 0xc0010015u       /* AMD: bit 25 CpbDis (core performance boost off) */
#define AMD_HWCR_CPB_DIS (1ull << 25)

/* RDMSR with a fault as a result: PROBE_OK (0), or the vector + 1 (#GP: 14). */
uint32_t power_read_msr(uint32_t msr, uint64_t *value);
/* WRMSR likewise (the SMI counter of AMD's core PMC is programmed so: arch/x86/include/asm/pmc.h). */
uint32_t power_write_msr(uint32_t msr, uint64_t value);

/* MONITOR on the line of `addr`, then "sti; mwait" with `hint` (EAX): sleeps until an interrupt. */
void power_monitor(const volatile void *addr);
void power_mwait_until_irq(uint32_t hint);
/*
 * AMD's I/O-port C-state entry: an IN from CStateBaseAddr + n, with
 * interrupts off, as Linux's acpi_idle enters a SystemIO _CST state; a
 * pending interrupt ends the state (IF is set again afterwards by the
 * caller, which then takes it).
 */
void power_io_cstate_enter(uint16_t port);

#endif
