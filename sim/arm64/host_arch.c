/* The aarch64 app's smp, timer and paging interface on the host: see host_arch.h. */
#include "sim/arm64/host_arch.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "asm/gic.h"
#include "asm/paging.h"
#include "asm/psci.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "asm/tlbi.h"

#define VA_BASE 0x40000000ull /* where the test region sits in the modelled address space */

static struct percpu percpu_table[MAX_CPUS];
struct percpu *percpu = percpu_table;
unsigned ncpus;

struct region rgn;

static bool model_ok;
static pthread_t threads[MAX_CPUS];
static bool started[MAX_CPUS];
static volatile uint32_t stopping;

/* ---- smp: the app's own smp_post / smp_wait (arch/arm64/mailbox.c) over these threads ---- */

/* arch/arm64/smp.c's secondary_main on a host thread: the mailbox first, else an SGI
 * acknowledged so it does not stay pending, else wait (its WFI) until one is signalled */
static void *secondary(void *arg)
{
    struct percpu *pc = arg;
    uint32_t last = 0;
    a64s_play(pc);
    pc->checkin_tick = ticks();
    pc->gic_rc = gic_cpu_init(pc); /* before checking in, as smp.c's secondary_main */
    pc->gic_ok = pc->gic_rc == 0;
    __atomic_store_n(&pc->state, CPU_ONLINE, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
        uint32_t seq = __atomic_load_n(&pc->cmd_seq, __ATOMIC_ACQUIRE), irq;
        if (seq != last) {
            last = seq;
            if (pc->fn)
                pc->fn(pc);
            __atomic_store_n(&pc->ack_seq, seq, __ATOMIC_RELEASE);
            continue;
        }
        irq = pc->gic_ok ? gic_ack() : GIC_SPURIOUS; /* without its SGIs it polls the mailbox */
        if (irq < 1020)
            gic_eoi(irq);
        else
            a64s_idle(); /* its WFI: off the host's cores until the next command or SGI */
    }
    a64s_play(NULL);
    return NULL;
}

/* the thread of CPU idx, from the model's CPU_ON (host_psci.c) */
static bool start_cpu(unsigned idx)
{
    if (started[idx]) /* its thread ended at CPU_OFF (or at a park): collected first */
        pthread_join(threads[idx], NULL);
    started[idx] = pthread_create(&threads[idx], NULL, secondary, &percpu[idx]) == 0;
    return started[idx];
}

bool a64s_machine_start(const struct a64m_config *cfg, unsigned n, const uint64_t *mpidr)
{
    unsigned i;
    if (n < 1 || n > MAX_CPUS || n > A64M_MAX_CPUS)
        return false;
    memset(percpu_table, 0, sizeof(percpu_table));
    percpu = percpu_table;
    memset(&rgn, 0, sizeof(rgn));
    ncpus = n;
    arch_el = 1; /* the model executes the EL1 forms */
    stopping = 0;
    if (!a64m_init(a64s_model(), cfg, n, REGION_PAGES, 2 * REGION_PAGES, VA_BASE))
        return false;
    model_ok = true;
    for (i = 0; i < REGION_PAGES; i++)
        a64m_map_initial(a64s_model(), i, i); /* pool 0 */
    rgn.va = VA_BASE;
    rgn.l3 = a64m_pte_ptr(a64s_model(), 0);
    a64s_gic_reset(n);
    a64s_psci_reset(start_cpu);
    for (i = 0; i < n; i++) {
        percpu[i].idx = i;
        percpu[i].el = 1;
        percpu[i].mpidr = mpidr[i] & MPIDR_AFF_MASK;
    }
    a64s_play(&percpu[0]);
    percpu[0].gic_ok = 1;
    percpu[0].state = CPU_ONLINE;
    return true;
}

unsigned a64s_boot_secondaries(int64_t *psci_rc)
{
    unsigned i, online = 1;
    psci_rc[0] = PSCI_SUCCESS;
    for (i = 1; i < ncpus; i++) {
        struct percpu *pc = &percpu[i];
        if (psci_affinity_info(pc->mpidr) == PSCI_AFF_OFF) {
            /* a fresh image's block; one whose CPU PSCI still has ON keeps what it reads */
            struct percpu keep = { .idx = pc->idx, .el = pc->el, .mpidr = pc->mpidr };
            *pc = keep;
        }
        pc->state = CPU_STARTING;
        psci_rc[i] = psci_cpu_on(pc->mpidr, 0, i);
    }
    /* check-in, as smp_boot_secondaries waits for it (1 s of host time) */
    for (i = 1; i < ncpus; i++) {
        uint64_t end = ticks() + tick_freq();
        while (!percpu_usable(i) && psci_rc[i] == PSCI_SUCCESS && ticks() < end)
            sched_yield();
        online += percpu_usable(i);
    }
    return online;
}

void a64s_machine_stop(void)
{
    unsigned i;
    __atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
    for (i = 1; i < MAX_CPUS; i++)
        if (started[i]) {
            pthread_join(threads[i], NULL);
            started[i] = false;
        }
}

void a64s_machine_free(void)
{
    if (model_ok)
        a64m_free(a64s_model());
    model_ok = false;
    a64s_play(NULL);
}

/* ---- paging (asm/paging.h) on the model's test region ---- */

uint64_t frame_pa(unsigned pool, unsigned i)
{
    return ((uint64_t)pool * REGION_PAGES + i) << PAGE_SHIFT;
}

uint64_t frame_tag(unsigned pool, unsigned i)
{
    return a64m_tag(pool * REGION_PAGES + i);
}

void region_set_pte(unsigned i, unsigned pool)
{
    pte_store(&rgn.l3[i], a64m_pte(pool * REGION_PAGES + i) | rgn.ng);
}

void region_clear_pte(unsigned i)
{
    pte_store(&rgn.l3[i], 0);
}

int pt_current_asid(void)
{
    if (a64s_model()->el == 2) /* the EL2 regime has no ASIDs without HCR_EL2.E2H */
        return -1;
    return this_cpu() ? (int)a64s_model()->cpu[this_cpu()->idx].asid : A64S_ASID;
}

void pt_set_asid(uint16_t asid)
{
    a64m_set_asid(a64s_model(), this_cpu()->idx, asid);
}
