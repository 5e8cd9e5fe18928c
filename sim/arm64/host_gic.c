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
 *
 * Security as on Arm servers with TF-A: two security states (GICD_CTLR.DS
 * 0) and the SGIs of the secure mask (8-15 unless --gic-secure-sgis says
 * otherwise) Secure: the non-secure world's writes to their bits of
 * GICR_IGROUPR0, GICR_IGRPMODR0 and GICR_ISENABLER0 are ignored and read 0,
 * and an SGI sent on one never arrives. gic_cpu_init writes what
 * gic_v3.c writes into those modelled registers and reads them back through
 * the drivers' own check (arch/arm64/gic_sgi.c). The app using an SGI of 8
 * or above at all is refused (a64s_gic_refusals: a model error, a run error
 * in the report): on a real server it would be the firmware's.
 *
 * The range selector (--gic-rss): with GICD_TYPER.RSS and ICC_CTLR_EL1.RSS (both, by default,
 * as a GIC-600's) an SGI reaches any Aff0; without either, ICC_SGI1R_EL1's RS field is RES0 and
 * only Aff0 0-15 can be named, so an SGI meant for Aff0 above 15 is lost, and counted as a
 * refusal. gic_cpu_init answers as gic_v3.c does, through the same check (gic_rss_check).
 */
#include "sim/arm64/host_arch.h"

#include <stdio.h>

#include "asm/gic.h"
#include "asm/irq.h"
#include "asm/timer.h"
#include "core/mutant.h"

#define WFI_DEADLINE_NS 50000000ull /* 50 ms of host time, then the wait loop looks again */
#define NO_ACTIVE 0xffffffffu
#define PMR_RESET 0xf0u /* the secondaries' mask (gic_cpu_init): SGI_PRIO passes */
#define SECURE_SGIS_TFA 0xff00u /* TF-A's platforms: SGIs 8-15 Secure */
#define GICD_CTLR_NS_VIEW 0x12u /* ARE_NS [4], EnableGrp1A [1]; DS [6] RES0 with two states */

unsigned gic_version;

static uint32_t secure_sgis = SECURE_SGIS_TFA;

static struct {
    uint32_t pending; /* bit i: SGI i */
    uint32_t active;  /* acknowledged, not yet ended; NO_ACTIVE */
    uint32_t pmr;
    /* the redistributor's SGI registers as the non-secure world sees them */
    uint32_t igroupr0, igrpmodr0, isenabler0;
} __attribute__((aligned(PERCPU_ALIGN))) cpu_if[MAX_CPUS];

static bool rss_gicd = true, rss_icc = true;

static uint32_t refusals;
static char first_refusal[160];

void a64s_gic_rss(bool gicd, bool icc)
{
    rss_gicd = gicd;
    rss_icc = icc;
}

void a64s_gic_secure_sgis(uint32_t mask)
{
    secure_sgis = mask & 0xffffu;
}

void a64s_gic_reset(unsigned n)
{
    unsigned i;
    gic_version = 3;
    gic_security = (struct gic_security){ true, false, "GICD_CTLR.DS", GICD_CTLR_NS_VIEW };
    refusals = 0;
    first_refusal[0] = 0;
    for (i = 0; i < MAX_CPUS; i++) {
        cpu_if[i].pending = 0;
        cpu_if[i].active = NO_ACTIVE;
        cpu_if[i].pmr = PMR_RESET;
        /* as TF-A leaves them: every non-secure SGI Non-secure Group 1, none enabled (the
         * Secure ones' bits read 0 from here) */
        cpu_if[i].igroupr0 = ~secure_sgis & 0xffffu;
        cpu_if[i].igrpmodr0 = 0;
        cpu_if[i].isenabler0 = 0;
    }
    (void)n;
}

unsigned a64s_gic_refusals(const char **first)
{
    unsigned n = __atomic_load_n(&refusals, __ATOMIC_ACQUIRE);
    if (first)
        *first = first_refusal;
    return n;
}

static void refuse(unsigned intid)
{
    if (__atomic_fetch_add(&refusals, 1, __ATOMIC_ACQ_REL) == 0)
        snprintf(first_refusal, sizeof(first_refusal),
                 "SGI %u: SGIs 8-15 are the secure firmware's on Arm servers (a non-secure write to one "
                 "is ignored)", intid);
}

static void refuse_rs(uint64_t mpidr, unsigned intid)
{
    if (__atomic_fetch_add(&refusals, 1, __ATOMIC_ACQ_REL) == 0)
        snprintf(first_refusal, sizeof(first_refusal),
                 "SGI %u to MPIDR 0x%llx: Aff0 %u > 15 without the range selector (GICD_TYPER.RSS %u, "
                 "ICC_CTLR_EL1.RSS %u): lost", intid, (unsigned long long)mpidr, (unsigned)(mpidr & 0xff),
                 (unsigned)rss_gicd, (unsigned)rss_icc);
}

/* gic3_cpu_init on the modelled redistributor: the same writes, the Secure SGIs' bits
 * ignored, then the drivers' own readback check */
int gic_cpu_init(struct percpu *pc)
{
    unsigned c = pc->idx;
    uint32_t ns = ~secure_sgis;
    struct gic_sgi_regs rb;
    unsigned i;
    for (i = SGI_FIRST_SECURE; i < 16; i++)
        if (SGI_BITS & (1u << i))
            refuse(i);
    cpu_if[c].igroupr0 |= SGI_BITS & ns;
    cpu_if[c].igrpmodr0 &= ~(SGI_BITS & ns);
    cpu_if[c].isenabler0 |= SGI_BITS & ns;
    rb = (struct gic_sgi_regs){ "GICR_IGROUPR0", "GICR_IGRPMODR0", "GICR_ISENABLER0", cpu_if[c].igroupr0 & ns,
                                cpu_if[c].igrpmodr0 & ns, cpu_if[c].isenabler0 & ns };
    if (gic_sgi_readback(&rb, &gic_sgi_check[c]))
        return -3;
    return gic_rss_check(pc->mpidr, rss_gicd, rss_icc);
}

static unsigned me(void)
{
    return this_cpu()->idx;
}

/* ICC_SGI1R_EL1 from the non-secure world: a Secure SGI is not forwarded */
static void set_pending(unsigned cpu, unsigned intid)
{
    if (intid >= SGI_FIRST_SECURE)
        refuse(intid);
    if (cpu < ncpus && intid < 16 && !(secure_sgis & (1u << intid)))
        __atomic_fetch_or(&cpu_if[cpu].pending, 1u << intid, __ATOMIC_RELEASE);
}

/* pending and enabled: what the CPU interface can signal */
static uint32_t deliverable(unsigned c)
{
    return __atomic_load_n(&cpu_if[c].pending, __ATOMIC_ACQUIRE) & cpu_if[c].isenabler0;
}

void gic_send_sgi(uint64_t mpidr, unsigned intid)
{
    unsigned i;
    if ((mpidr & 0xff) > 15 && !(rss_gicd && rss_icc)) {
        refuse_rs(mpidr, intid);
        return;
    }
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
    return cpu_if[c].active == NO_ACTIVE && SGI_PRIO < cpu_if[c].pmr && deliverable(c) != 0;
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
    p = deliverable(c);
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
