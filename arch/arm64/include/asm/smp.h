/*
 * Secondary CPU bring-up with PSCI CPU_ON (the aarch64 counterpart of x86's
 * INIT-SIPI trampoline). The entry stub (arch/arm64/entry.S) runs with the
 * MMU off and reads struct boot_params; the offsets below are shared with it
 * (static_asserts in arch/arm64/smp.c keep them honest).
 */
#ifndef TLBSCOPE_ARM64_SMP_H
#define TLBSCOPE_ARM64_SMP_H

#define BP_MAIR 0
#define BP_TCR 8
#define BP_TTBR0 16
#define BP_SCTLR 24
#define BP_VBAR 32
#define BP_HCR 40  /* EL2 only */
#define BP_CPTR 48 /* CPACR_EL1, or CPTR_EL2 at EL2 */
#define BP_ENTRY 56
#define BP_TTBR1 64 /* EL1 only: the BSP's TTBR1_EL1, for its ASID where TCR_EL1.A1 is set */
#define BP_STACK 72
#define BP_MAX_CPUS 512 /* MAX_CPUS (asm/percpu.h): 8 KiB of pointers */
#define BP_PERCPU (BP_STACK + 8 * BP_MAX_CPUS)

#define STACK_SIZE 16384

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

#include "asm/percpu.h"

struct boot_params {
    uint64_t mair, tcr, ttbr0, sctlr, vbar, hcr, cptr, entry, ttbr1;
    uint64_t stack_top[BP_MAX_CPUS];
    uint64_t percpu[BP_MAX_CPUS];
};

/* percpu[] = table, n slots (n <= MAX_CPUS), slot i for slot_mpidr[i] (slot 0: the BSP,
 * the running CPU); stacks: n * STACK_SIZE bytes, 16-byte aligned (the BSP's unused) */
void smp_setup(struct percpu *table, uint8_t *stacks, const uint64_t *slot_mpidr, unsigned n);
/* CPU_ON of every other CPU, then wait for each to check in until deadline_ticks
 * after the last CPU_ON; psci_rc[i] gets CPU_ON's return code. Returns CPUs online. */
unsigned smp_boot_secondaries(uint64_t deadline_ticks, int64_t *psci_rc);
/* post fn to a CPU's mailbox and wake it with an SGI */
void smp_post(unsigned cpu, percpu_fn fn, uint64_t a0, uint64_t a1, uint64_t a2);
/* spin until the CPU acks, it faults or timeout_ticks pass (0 / -1) */
int smp_wait(unsigned cpu, uint64_t timeout_ticks);
bool percpu_usable(unsigned cpu);

/*
 * The hand-back (arch/arm64/cpu_off.c, the app's and the model's): every usable secondary
 * is told to give back its GIC state (gic_cpu_restore) and call PSCI CPU_OFF; the BSP
 * asks AFFINITY_INFO about every secondary until each is OFF or deadline_ticks have
 * passed, and fills out[i] for i = 1 .. ncpus - 1. Returns the secondaries that are OFF.
 */
enum smp_off_outcome {
    SMP_OFF_DONE,         /* AFFINITY_INFO says OFF after our CPU_OFF */
    SMP_OFF_NOT_ON,       /* OFF, never told: it was never started or already gone */
    SMP_OFF_STILL_ON,     /* still ON (or ON_PENDING) at the deadline */
    SMP_OFF_REFUSED,      /* its CPU_OFF returned an error (rc): parked in WFI instead */
    SMP_OFF_QUERY_FAILED, /* AFFINITY_INFO returned an error (rc) */
};
struct smp_off_result {
    enum smp_off_outcome outcome;
    int64_t rc;        /* CPU_OFF's or AFFINITY_INFO's error, or AFFINITY_INFO's last answer */
    bool told;         /* it was usable and was told to turn off */
    bool gic_settled;  /* told: its GIC restore settled within its deadline */
};
unsigned smp_cpus_off(uint64_t deadline_ticks, struct smp_off_result *out);
/* the calling CPU stops for good with every exception masked (the app: WFI forever; the
 * model: its thread ends) */
__attribute__((noreturn)) void cpu_park_masked(void);

extern struct boot_params boot_params;
void secondary_entry(void); /* entry.S */
extern char exception_vectors[];
extern char entry_text_start[], entry_text_end[];
#endif

#endif
