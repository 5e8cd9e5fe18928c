/*
 * GICv3 (Arm IHI 0069, "GIC architecture specification v3/v4"): just enough
 * for SGIs between CPUs. The distributor is left as firmware configured it
 * (ARE and Group 1 enabled are checked); each CPU wakes its own
 * redistributor and enables its system-register CPU interface.
 */
#ifndef TLBSCOPE_ARM64_GIC_H
#define TLBSCOPE_ARM64_GIC_H

#include <stdint.h>

#include "asm/percpu.h"

#define SGI_CMD 8  /* "look at your mailbox" */
#define SGI_PING 9 /* the IPI round-trip test */
#define SGI_PRIO 0x20
#define GIC_SPURIOUS 1023

/* BSP: distributor checks; each percpu[].gicr not yet known is found in the
 * GICR discovery range. 0, or negative: -1 no affinity routing, -2 a
 * redistributor missing, -3 the distributor did not take Group 1 enable. */
int gic_init(uint64_t gicd, uint64_t gicr_range, uint64_t gicr_range_len);
int gic_cpu_init(struct percpu *pc); /* on each CPU, for itself */
void gic_send_sgi(uint64_t mpidr, unsigned intid);
uint32_t gic_ack(void);       /* ICC_IAR1_EL1 */
void gic_eoi(uint32_t intid); /* ICC_EOIR1_EL1 */

#endif
