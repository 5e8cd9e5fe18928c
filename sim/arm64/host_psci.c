/*
 * PSCI on the host (asm/psci.h psci_call, for tlbscope-sim --arch aarch64): what the app's
 * bring-up and hand-back call (arch/arm64/psci_fn.c, cpu_off.c), with the rules a firmware
 * enforces and the ones the tool must keep, refused as model errors:
 *   CPU_ON of a CPU PSCI counts ON: ALREADY_ON, and a model error (the CPU was never turned
 *          off: a second run of the app, or an OS, would find it so); of a CPU without the
 *          function (PSCI_FEATURES said so, or version 0.1): NOT_SUPPORTED, a model error
 *   CPU_OFF on the BSP: DENIED, a model error; on a CPU whose GIC state was not given back
 *          first (gic_cpu_restore): a model error; otherwise the CPU is OFF and its thread ends
 *   AFFINITY_INFO: ON or OFF as the calls above left it
 * The version and which functions exist are configurable (a64s_psci_configure), so a test
 * can give the app a PSCI 0.1 or one without CPU_ON. The GIC's hand-back halves live here
 * too: the host GIC (host_gic.c) has nothing of the firmware's to give back, so restoring
 * only records that the CPU did it.
 */
#include "sim/arm64/host_arch.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "asm/gic.h"
#include "asm/psci.h"
#include "asm/smp.h"

static struct {
    int64_t version;
    bool has_cpu_on, has_cpu_off, has_affinity_info;
    bool on[MAX_CPUS];          /* PSCI's view: the CPU is ON */
    bool gic_restored[MAX_CPUS];
    uint32_t errors;
    char error[A64S_PSCI_MAX_ERRORS][160];
} psci;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t machine_mpidr[MAX_CPUS]; /* a64s_psci_machine; none: percpu[]'s are the machine's */
static unsigned machine_cpus;

void a64s_psci_machine(const uint64_t *mpidr, unsigned n)
{
    unsigned i;
    machine_cpus = n < MAX_CPUS ? n : MAX_CPUS;
    for (i = 0; i < machine_cpus; i++)
        machine_mpidr[i] = mpidr[i] & MPIDR_AFF_MASK;
}

static bool on_machine(uint64_t mpidr)
{
    unsigned i;
    for (i = 0; i < machine_cpus; i++)
        if (machine_mpidr[i] == (mpidr & MPIDR_AFF_MASK))
            return true;
    return machine_cpus == 0;
}
static bool (*start_cpu)(unsigned idx); /* host_arch.c's: a CPU's thread, from CPU_ON */

void a64s_psci_configure(int64_t version, bool cpu_on, bool cpu_off, bool affinity_info)
{
    psci.version = version;
    psci.has_cpu_on = cpu_on;
    psci.has_cpu_off = cpu_off;
    psci.has_affinity_info = affinity_info;
}

void a64s_psci_reset(bool (*start)(unsigned idx))
{
    unsigned i;
    start_cpu = start;
    for (i = 0; i < MAX_CPUS; i++) {
        psci.on[i] = i == 0; /* the BSP runs */
        psci.gic_restored[i] = false;
    }
    psci.errors = 0;
}

void a64s_psci_clear_errors(void) { psci.errors = 0; }
uint32_t a64s_psci_errors(void) { return psci.errors; }
const char *a64s_psci_error(uint32_t i) { return i < psci.errors && i < A64S_PSCI_MAX_ERRORS ? psci.error[i] : ""; }

static void refuse(const char *fmt, unsigned cpu, uint64_t mpidr)
{
    pthread_mutex_lock(&lock);
    if (psci.errors < A64S_PSCI_MAX_ERRORS)
        snprintf(psci.error[psci.errors], sizeof(psci.error[0]), fmt, cpu, (unsigned long long)mpidr);
    psci.errors++;
    pthread_mutex_unlock(&lock);
}

static int cpu_of(uint64_t mpidr)
{
    unsigned i;
    for (i = 0; i < ncpus; i++)
        if (percpu[i].mpidr == (mpidr & MPIDR_AFF_MASK))
            return (int)i;
    return -1;
}

static int64_t cpu_on(uint64_t mpidr)
{
    int c = cpu_of(mpidr);
    if (c < 0 || !on_machine(mpidr))
        return -2; /* INVALID_PARAMETERS: no CPU of the machine has that MPIDR */
    if (!psci.has_cpu_on || psci.version < PSCI_VER(0, 2)) {
        refuse("PSCI CPU_ON of cpu %u (MPIDR 0x%llx), a function this PSCI does not have", (unsigned)c, mpidr);
        return PSCI_NOT_SUPPORTED;
    }
    if (psci.on[c]) {
        refuse("PSCI CPU_ON of cpu %u (MPIDR 0x%llx), which is still ON: it was never turned off", (unsigned)c, mpidr);
        return PSCI_ALREADY_ON;
    }
    psci.on[c] = true;
    psci.gic_restored[c] = false;
    if (!start_cpu((unsigned)c)) {
        psci.on[c] = false;
        return -6; /* INTERNAL_FAILURE */
    }
    return PSCI_SUCCESS;
}

static int64_t cpu_off(void)
{
    struct percpu *pc = this_cpu();
    unsigned c = pc ? pc->idx : 0;
    if (!psci.has_cpu_off)
        refuse("PSCI CPU_OFF on cpu %u (MPIDR 0x%llx), a function this PSCI does not have", c, pc ? pc->mpidr : 0);
    if (c == 0) {
        refuse("PSCI CPU_OFF on cpu %u (MPIDR 0x%llx), the BSP", c, pc ? pc->mpidr : 0);
        return PSCI_DENIED;
    }
    if (!psci.gic_restored[c])
        refuse("PSCI CPU_OFF on cpu %u (MPIDR 0x%llx) with the tool's GIC state still in place", c, pc->mpidr);
    __atomic_store_n(&psci.on[c], false, __ATOMIC_RELEASE);
    cpu_park_masked(); /* its thread ends: the CPU is off */
}

int64_t psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    int c;
    (void)a2;
    (void)a3;
    switch (fn) {
    case PSCI_VERSION:
        return psci.version;
    case PSCI_FEATURES:
        if (psci.version < PSCI_VER(1, 0))
            break;
        if (a1 == PSCI_CPU_ON_64)
            return psci.has_cpu_on ? 0 : PSCI_NOT_SUPPORTED;
        if (a1 == PSCI_CPU_OFF)
            return psci.has_cpu_off ? 0 : PSCI_NOT_SUPPORTED;
        if (a1 == PSCI_AFFINITY_INFO_64)
            return psci.has_affinity_info ? 0 : PSCI_NOT_SUPPORTED;
        return a1 == PSCI_VERSION || a1 == PSCI_FEATURES ? 0 : PSCI_NOT_SUPPORTED;
    case PSCI_CPU_ON_64:
        return cpu_on(a1);
    case PSCI_CPU_OFF:
        return cpu_off();
    case PSCI_AFFINITY_INFO_64:
        c = cpu_of(a1);
        sched_yield(); /* asked in a loop: the CPU going off gets the host's core */
        if (!psci.has_affinity_info)
            refuse("PSCI AFFINITY_INFO of cpu %u (MPIDR 0x%llx), a function this PSCI does not have",
                   (unsigned)(c < 0 ? 0 : c), a1);
        if (c < 0)
            return -2;
        return __atomic_load_n(&psci.on[c], __ATOMIC_ACQUIRE) ? PSCI_AFF_ON : PSCI_AFF_OFF;
    default:
        break;
    }
    return PSCI_NOT_SUPPORTED;
}

void cpu_park_masked(void)
{
    a64s_play(NULL);
    pthread_exit(NULL);
}

/* ---- the GIC's hand-back halves (asm/gic.h) on the host GIC ---- */

int gic_cpu_restore(struct percpu *pc)
{
    psci.gic_restored[pc->idx] = true;
    return 0;
}

int gic_dist_restore(void)
{
    return 0;
}
