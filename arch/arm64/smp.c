/*
 * PSCI CPU_ON bring-up, check-in with a deadline, and the secondaries'
 * command loop (mailbox + SGI wake-up): see asm/smp.h and asm/percpu.h.
 */
#include "asm/smp.h"
#include "asm/barrier.h"
#include "asm/gic.h"
#include "asm/psci.h"
#include "asm/secondary_tcr.h"
#include "asm/timer.h"

_Static_assert(__builtin_offsetof(struct boot_params, mair) == BP_MAIR, "BP_MAIR");
_Static_assert(__builtin_offsetof(struct boot_params, tcr) == BP_TCR, "BP_TCR");
_Static_assert(__builtin_offsetof(struct boot_params, ttbr0) == BP_TTBR0, "BP_TTBR0");
_Static_assert(__builtin_offsetof(struct boot_params, sctlr) == BP_SCTLR, "BP_SCTLR");
_Static_assert(__builtin_offsetof(struct boot_params, vbar) == BP_VBAR, "BP_VBAR");
_Static_assert(__builtin_offsetof(struct boot_params, hcr) == BP_HCR, "BP_HCR");
_Static_assert(__builtin_offsetof(struct boot_params, cptr) == BP_CPTR, "BP_CPTR");
_Static_assert(__builtin_offsetof(struct boot_params, entry) == BP_ENTRY, "BP_ENTRY");
_Static_assert(__builtin_offsetof(struct boot_params, ttbr1) == BP_TTBR1, "BP_TTBR1");
_Static_assert(__builtin_offsetof(struct boot_params, stack_top) == BP_STACK, "BP_STACK");
_Static_assert(__builtin_offsetof(struct boot_params, percpu) == BP_PERCPU, "BP_PERCPU");
_Static_assert(BP_MAX_CPUS == MAX_CPUS, "one table size");

struct percpu *percpu;
unsigned ncpus;
struct boot_params boot_params __attribute__((aligned(64)));
static uint8_t *stacks; /* ncpus * STACK_SIZE, from the firmware */

#ifndef SKIP_CPU
#define SKIP_CPU -1 /* build with -DSKIP_CPU=n to test the check-in deadline */
#endif
/* build with -DFAULT_CPU=n to test the fault path: CPU n reads a VA nothing maps
 * (level-0 slot 254 of a 48-bit space: the firmware maps RAM and MMIO far
 * below, our test region sits in slot 511) before it checks in */
#ifdef FAULT_CPU
#define FAULT_VA 0x7f0000000000ull
#endif

void smp_setup(struct percpu *table, uint8_t *stack_mem, const uint64_t *slot_mpidr, unsigned n)
{
    unsigned i;
    percpu = table;
    stacks = stack_mem;
    ncpus = n < MAX_CPUS ? n : MAX_CPUS;
    for (i = 0; i < ncpus; i++) {
        percpu[i].idx = i;
        percpu[i].mpidr = slot_mpidr[i] & MPIDR_AFF_MASK;
        percpu[i].state = CPU_OFF;
    }
    percpu[0].el = arch_el;
    percpu[0].state = CPU_ONLINE;
    EL_WRITE(TPIDR, &percpu[0]);
}

/* C entry of every secondary, on its own stack with the MMU on */
__attribute__((noreturn)) void secondary_main(struct percpu *pc);
void secondary_main(struct percpu *pc)
{
    uint32_t last = 0;
    EL_WRITE(TPIDR, pc);
#ifdef FAULT_CPU
    if (pc->idx == FAULT_CPU)
        (void)*(volatile uint64_t *)FAULT_VA;
#endif
    pc->el = cur_el();
    pc->checkin_tick = ticks();
    /* GIC first, then check in: once the BSP sees CPU_ONLINE it also sees
     * gic_ok, so it knows whether a command needs an SGI to wake us
     * (publishing "online" earlier let the BSP post a command without the
     * wake SGI while we were already in WFI: a store-buffering race) */
    pc->gic_rc = gic_cpu_init(pc);
    pc->gic_ok = pc->gic_rc == 0;
    __atomic_store_n(&pc->state, CPU_ONLINE, __ATOMIC_RELEASE);

    /* spin-ok: the secondary's service loop for the whole run; it idles in WFI and ends at power off */
    for (;;) {
        uint32_t seq = __atomic_load_n(&pc->cmd_seq, __ATOMIC_ACQUIRE);
        uint32_t irq;
        if (seq != last) {
            last = seq;
            if (pc->fn)
                pc->fn(pc);
            else
                pc->result[0] = ticks(); /* a ping */
            __atomic_store_n(&pc->ack_seq, seq, __ATOMIC_RELEASE);
            continue;
        }
        if (!pc->gic_ok) {
            cpu_relax();
            continue;
        }
        /* Idle in WFI: a pending SGI wakes it even with PSTATE.I masked (Arm
         * ARM, "Wait for Interrupt": WFI wake-up events), and QEMU really
         * halts the vCPU on WFI (WFE is only a yield there, burning host
         * CPU), which keeps idle CPUs off the host. The SGI is acknowledged
         * so it does not stay pending, or WFI would return at once forever. */
        irq = gic_ack();
        if (irq < 1020)
            gic_eoi(irq);
        else
            __asm__ volatile("wfi" ::: "memory");
    }
}

void cpu_park_masked(void)
{
    __asm__ volatile("msr daifset, #0xf" ::: "memory");
    for (;;) /* spin-ok: a parked CPU never leaves; the BSP has named it in the report */
        __asm__ volatile("wfi");
}

unsigned smp_boot_secondaries(uint64_t deadline_ticks, int64_t *psci_rc)
{
    struct boot_params *bp = &boot_params;
    unsigned i, online = 1;
    uint64_t deadline;
    bp->mair = EL_READ(MAIR);
    bp->ttbr0 = EL_READ(TTBR0);
    bp->sctlr = EL_READ(SCTLR);
    bp->vbar = (uint64_t)exception_vectors;
    if (arch_el == 2) {
        bp->hcr = read_sysreg(HCR_EL2);
        bp->cptr = read_sysreg(CPTR_EL2);
    } else {
        bp->cptr = read_sysreg(CPACR_EL1);
        /* never walked (EPD1, below), but where the firmware set TCR_EL1.A1 the ASID is
         * TTBR1's: the secondaries must tag their entries with the BSP's, which the tool's
         * TLBIs name (asm/secondary_tcr.h) */
        bp->ttbr1 = read_sysreg(TTBR1_EL1);
    }
    /* EPD1 set: their TTBR1 is UNKNOWN out of CPU_ON (asm/secondary_tcr.h) */
    bp->tcr = secondary_tcr(EL_READ(TCR), arch_el, arch_el == 2 ? bp->hcr : 0);
    bp->entry = (uint64_t)secondary_main;
    for (i = 1; i < ncpus; i++) { /* slot 0, the BSP, keeps the firmware's stack */
        bp->stack_top[i] = (uint64_t)(stacks + (uint64_t)(i + 1) * STACK_SIZE);
        bp->percpu[i] = (uint64_t)&percpu[i];
    }
    /* What a CPU reads with its MMU off must be in memory, not only in our
     * cache: the stub's code and boot_params. percpu[] and the stacks are
     * first touched with the MMU on (coherent), so they need nothing. */
    dcache_clean_poc(bp, sizeof *bp);
    dcache_clean_poc(entry_text_start, (uint64_t)(entry_text_end - entry_text_start));

    psci_rc[0] = PSCI_SUCCESS;
    for (i = 1; i < ncpus; i++) {
        psci_rc[i] = PSCI_SUCCESS;
        if ((int)i == SKIP_CPU)
            continue;
        percpu[i].state = CPU_STARTING;
        dsb_ish();
        /* the entry point is a physical address: the firmware map is 1:1 */
        psci_rc[i] = psci_cpu_on(percpu[i].mpidr, (uint64_t)secondary_entry, i);
    }
    /* the check-in deadline runs from the last CPU_ON for everybody */
    deadline = ticks() + deadline_ticks;
    for (i = 1; i < ncpus; i++) {
        while (!percpu_usable(i) && percpu[i].state != CPU_PARKED && psci_rc[i] == PSCI_SUCCESS &&
               ticks() < deadline)
            cpu_relax();
        online += percpu_usable(i);
    }
    return online;
}
