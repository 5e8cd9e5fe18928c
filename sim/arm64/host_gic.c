/*
 * The GIC on the host (asm/gic.h, GICv3 as the app drives it): just what the
 * app's SGIs need. Per CPU a word of pending SGIs (INTIDs 0..15), the one it
 * acknowledged and has not yet ended (EOImode 0: until the EOI the CPU
 * interface signals nothing of the same priority, so an un-ended SGI_PING
 * keeps the next one pending, as on hardware) and its priority mask
 * (ICC_PMR_EL1: an SGI at SGI_PRIO is signalled only when SGI_PRIO < PMR).
 * A sender sets the target's pending bit; the target's gic_ack takes the
 * lowest pending INTID. irq_wait is WFI: wait until an SGI is signalled or
 * WFI_DEADLINE_NS pass (WFI may complete for no reason: Arm ARM, "Wait for
 * Interrupt"), then take it through the app's own handler, irq_handle
 * (arch/arm64/irq.c).
 */
#include "sim/arm64/host_arch.h"

#include "asm/gic.h"
#include "asm/irq.h"
#include "asm/timer.h"
#include "core/mutant.h"

#define WFI_DEADLINE_NS 50000000ull /* 50 ms of host time, then the wait loop looks again */
#define NO_ACTIVE 0xffffffffu
#define PMR_RESET 0xf0u /* the secondaries' mask (gic_cpu_init): SGI_PRIO passes */

unsigned gic_version;

static struct {
    uint32_t pending; /* bit i: SGI i */
    uint32_t active;  /* acknowledged, not yet ended; NO_ACTIVE */
    uint32_t pmr;
} __attribute__((aligned(PERCPU_ALIGN))) cpu_if[MAX_CPUS];

void a64s_gic_reset(unsigned n)
{
    unsigned i;
    gic_version = 3;
    for (i = 0; i < MAX_CPUS; i++) {
        cpu_if[i].pending = 0;
        cpu_if[i].active = NO_ACTIVE;
        cpu_if[i].pmr = PMR_RESET;
    }
    (void)n;
}

static unsigned me(void)
{
    return this_cpu()->idx;
}

static void set_pending(unsigned cpu, unsigned intid)
{
    if (cpu < ncpus && intid < 16)
        __atomic_fetch_or(&cpu_if[cpu].pending, 1u << intid, __ATOMIC_RELEASE);
}

void gic_send_sgi(uint64_t mpidr, unsigned intid)
{
    unsigned i;
    for (i = 0; i < ncpus; i++)
        if (percpu[i].mpidr == (mpidr & MPIDR_AFF_MASK))
            set_pending(i, intid);
}

/* GICv3: one ICC_SGI1R_EL1 write per Aff3.Aff2.Aff1 cluster and RS group of 16 Aff0 values */
unsigned gic_send_sgi_list(const uint64_t *mpidr, unsigned n, unsigned intid)
{
    uint64_t groups[MAX_CPUS];
    unsigned i, j, writes = 0;
    for (i = 0; i < n; i++) {
        uint64_t g = (mpidr[i] >> 8) << 4 | ((mpidr[i] & 0xff) >> 4);
        for (j = 0; j < writes && groups[j] != g; j++)
            ;
        if (j == writes && writes < MAX_CPUS)
            groups[writes++] = g;
        gic_send_sgi(mpidr[i], intid);
    }
    return writes;
}

void gic_send_sgi_others(unsigned intid)
{
    unsigned i, self = me();
    for (i = 0; i < ncpus; i++)
        if (i != self)
            set_pending(i, intid);
}

bool a64s_sgi_signalled(void)
{
    unsigned c = me();
    return cpu_if[c].active == NO_ACTIVE && SGI_PRIO < cpu_if[c].pmr &&
           __atomic_load_n(&cpu_if[c].pending, __ATOMIC_ACQUIRE) != 0;
}

uint32_t gic_ack(void)
{
    unsigned c = me();
    uint32_t p, intid;
    if (!a64s_sgi_signalled()) {
        /* the app polls this with nothing else in its loop (a64_serve_pings): a poll that
         * finds nothing is a wait iteration, and 2 host cores may play 16 polling CPUs */
        a64s_wait_step();
        return GIC_SPURIOUS;
    }
    p = __atomic_load_n(&cpu_if[c].pending, __ATOMIC_ACQUIRE);
    intid = (uint32_t)__builtin_ctz(p);
    __atomic_fetch_and(&cpu_if[c].pending, ~(1u << intid), __ATOMIC_ACQ_REL);
    cpu_if[c].active = intid;
    return intid;
}

void gic_eoi(uint32_t intid)
{
    unsigned c = me();
    if (cpu_if[c].active == intid)
        cpu_if[c].active = NO_ACTIVE;
}

uint32_t gic_pmr(void) { return cpu_if[me()].pmr; }
void gic_set_pmr(uint32_t pmr) { cpu_if[me()].pmr = pmr; }

/* WFI, then the IRQ taken through the app's handler when one is signalled */
void irq_wait(void)
{
    uint64_t end = ticks() + WFI_DEADLINE_NS;
    while (!a64s_sgi_signalled() && ticks() < end)
        a64s_wait_step();
    if (a64s_sgi_signalled() && !MUTANT(a64sim_wfi_skips_handler))
        irq_handle();
}
