/*
 * Per-CPU data of the aarch64 app. Each CPU's block, mailbox included, sits
 * in its own 128-byte-aligned slot: 128 covers the largest Cache Writeback
 * Granule data caches use in practice (CTR_EL0.CWG; QEMU reports 64), so a
 * CPU polling its mailbox never shares a line another CPU writes.
 * TPIDR_EL1 (EL2: TPIDR_EL2) holds the running CPU's pointer.
 *
 * The mailbox carries a function: the BSP (or an experiment) fills fn and
 * arg, then bumps cmd_seq (release) and sends SGI_CMD; the CPU runs fn(pc),
 * which fills result, then sets ack_seq = cmd_seq (release). The function is
 * what core/exp/arm64/ wants the CPU to do, so the arch code knows nothing
 * of the experiments.
 */
#ifndef TLBSCOPE_ARM64_PERCPU_H
#define TLBSCOPE_ARM64_PERCPU_H

#include <stdint.h>

#include "asm/irq.h"
#include "asm/sysreg.h"

/*
 * The most CPUs one run drives: a compile-time bound only for the small tables indexed by
 * CPU (boot_params, the experiments' target lists, the MADT copy); percpu[] and the
 * secondaries' stacks are sized from the MADT and allocated from the firmware before any
 * CPU starts (efi/arm64/main.c). 512 is four times the largest server the tool meets
 * (Grace: 144, Altra Max: 128, Graviton: 64); a MADT with more is named in run.warnings and
 * the CPUs past the bound recorded as not started (core/run/bringup_arm64.c).
 */
#define MAX_CPUS 512
#define PERCPU_ALIGN 128

/* CPU_PARKED: our exception vector took a fault on the CPU (fault_* below) */
enum percpu_state { CPU_OFF = 0, CPU_STARTING, CPU_ONLINE, CPU_PARKED };

struct percpu;
typedef void (*percpu_fn)(struct percpu *pc);

struct percpu {
    uint32_t idx;
    uint32_t el;
    uint64_t mpidr;
    uint64_t gicr; /* this CPU's redistributor RD_base */
    volatile uint32_t state;
    volatile uint32_t gic_ok;
    uint32_t gic_cpumask; /* GICv2: this CPU interface's bit in GICD_ITARGETSR / GICD_SGIR */
    uint32_t gic_iar;     /* GICv2: the last GICC_IAR value, for GICC_EOIR */
    int32_t gic_rc;       /* gic_cpu_init's answer on this CPU (asm/gic.h), 0: SGIs reach it */
    uint64_t checkin_tick;
    percpu_fn fn;
    uint64_t arg[4];
    volatile uint32_t cmd_seq;
    volatile uint32_t ack_seq;
    volatile uint64_t result[4];
    /* filled by the fault handler before the CPU parks */
    uint64_t fault_esr, fault_far, fault_elr, fault_vector;
    /* asm/abort.h: set while a translation fault on the test region is recovered, not parked
     * on; the faults recovered since the window opened */
    volatile uint32_t abort_window;
    volatile uint32_t aborts;
    /* its IRQ handler's counts (asm/irq.h), in a line of their own */
    struct irq_slot irq;
} __attribute__((aligned(PERCPU_ALIGN)));

_Static_assert(__alignof__(struct irq_slot) == PERCPU_ALIGN, "an irq_slot fills its own lines");

extern struct percpu *percpu; /* ncpus slots, from the firmware (the host model: its own) */
extern unsigned ncpus;         /* per-CPU slots in use: the BSP = index 0, then the MADT's CPUs */

#ifdef TLBSCOPE_HOST
/* the host build: the modelled CPU the calling thread plays (sim/arm64/host_smp.c) */
struct percpu *this_cpu(void);
#else
static inline struct percpu *this_cpu(void)
{
    return (struct percpu *)EL_READ(TPIDR);
}
#endif

#endif
