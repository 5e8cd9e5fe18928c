/*
 * The hand-back of the secondaries (asm/smp.h smp_cpus_off): plain C over percpu[], the
 * mailbox, the GIC and PSCI, so tlbscope-sim --arch aarch64 runs this same code on its
 * modelled PSCI (sim/arm64/host_psci.c), as it runs mailbox.c.
 *
 * Without it the app returned to the firmware with every secondary in WFI inside the
 * unloaded image, on the tool's tables: PSCI still counted them ON, so the next CPU_ON of
 * each (a second run, or an OS booted afterwards) got ALREADY_ON.
 */
#include "asm/gic.h"
#include "asm/psci.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/mutant.h"

/* result[] of the "turn off" command: written by the CPU before PSCI takes it, read by
 * the BSP only after AFFINITY_INFO or the deadline (CPU_OFF cleans the CPU's caches) */
#define OFF_GIC_RC 0   /* gic_cpu_restore's answer, + 1 once written */
#define OFF_RETURNED 1 /* CPU_OFF returned: its error + 1 << 32 */

/* On the secondary, from its mailbox: its GIC state back as the firmware had it, then off.
 * CPU_OFF returns only when it fails; the CPU interface is given back by then, so the CPU
 * can never serve the mailbox again: it parks. */
static void turn_off_here(struct percpu *pc)
{
    int64_t rc = PSCI_SUCCESS;
    int g = gic_cpu_restore(pc);
    __atomic_store_n(&pc->result[OFF_GIC_RC], (uint64_t)(g == 0) + 1, __ATOMIC_RELEASE);
    if (!MUTANT(a64_cpu_off_skipped))
        rc = psci_cpu_off();
    __atomic_store_n(&pc->result[OFF_RETURNED], (uint64_t)(uint32_t)rc | 1ull << 32, __ATOMIC_RELEASE);
    cpu_park_masked();
}

/* false while cpu is still to be settled */
static bool settle(unsigned cpu, struct smp_off_result *r)
{
    struct percpu *pc = &percpu[cpu];
    uint64_t ret = r->told ? __atomic_load_n(&pc->result[OFF_RETURNED], __ATOMIC_ACQUIRE) : 0;
    int64_t aff = psci_affinity_info(pc->mpidr);
    r->rc = aff;
    if (aff == PSCI_AFF_OFF) {
        r->outcome = r->told ? SMP_OFF_DONE : SMP_OFF_NOT_ON;
        r->rc = 0;
        __atomic_store_n(&pc->state, CPU_OFF, __ATOMIC_RELEASE); /* never posted to again */
        return true;
    }
    if (ret) {
        r->outcome = SMP_OFF_REFUSED;
        r->rc = (int32_t)(uint32_t)ret;
        return true;
    }
    if (aff < 0) {
        r->outcome = SMP_OFF_QUERY_FAILED;
        return true;
    }
    return false;
}

unsigned smp_cpus_off(uint64_t deadline_ticks, struct smp_off_result *out)
{
    bool done[MAX_CPUS] = { false };
    unsigned i, off = 0, left = 0;
    uint64_t deadline;
    for (i = 1; i < ncpus; i++) {
        out[i] = (struct smp_off_result){ SMP_OFF_STILL_ON, 0, percpu_usable(i), false };
        if (out[i].told)
            smp_post(i, turn_off_here, 0, 0, 0); /* no ack will come: AFFINITY_INFO answers */
    }
    deadline = ticks() + deadline_ticks;
    do {
        left = 0;
        for (i = 1; i < ncpus; i++)
            if (!done[i] && !(done[i] = settle(i, &out[i])))
                left++;
    } while (left && ticks() < deadline);
    for (i = 1; i < ncpus; i++) {
        uint64_t g = __atomic_load_n(&percpu[i].result[OFF_GIC_RC], __ATOMIC_ACQUIRE);
        out[i].gic_settled = out[i].told && g == 2;
        off += out[i].outcome == SMP_OFF_DONE || out[i].outcome == SMP_OFF_NOT_ON;
    }
    return off;
}
