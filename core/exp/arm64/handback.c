/*
 * The end of a run, before its report: every secondary gives back its GIC state and is
 * turned off with PSCI CPU_OFF, the BSP asking AFFINITY_INFO until each is OFF
 * (arch/arm64/cpu_off.c), so the firmware gets the machine back whole: a second run of the
 * app, or an OS booted afterwards, can start every CPU again with CPU_ON. A CPU that stays
 * on is named (run.errors, its topology note) and the app still ends. The app's main and
 * tlbscope-sim --arch aarch64 call this same code; the BSP's own state (distributor,
 * TTBR0, VBAR, pages) is the app's (efi/arm64/main.c).
 */
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/experiments.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

/* CPU_OFF takes a CPU down in microseconds on hardware and under QEMU; a second is the
 * bring-up's own check-in deadline, and a CPU still ON after it is not coming down */
#define CPU_OFF_MS 1000

static const char *why_not_off(const struct smp_off_result *r, char *buf, size_t len)
{
    switch (r->outcome) {
    case SMP_OFF_REFUSED:
        fmt_into(buf, len, "its CPU_OFF returned %s (%lld): parked in WFI", psci_strerror(r->rc), (long long)r->rc);
        break;
    case SMP_OFF_QUERY_FAILED:
        fmt_into(buf, len, "AFFINITY_INFO returned %s (%lld)", psci_strerror(r->rc), (long long)r->rc);
        break;
    default:
        fmt_into(buf, len, "PSCI still has it %s after %u ms%s", r->rc == PSCI_AFF_ON_PENDING ? "ON_PENDING" : "ON",
                 CPU_OFF_MS, r->told ? "" : " (never told: not usable)");
    }
    return buf;
}

void a64_hand_back_cpus(struct arm64_run *run)
{
    static struct smp_off_result res[MAX_CPUS];
    struct a64_handback *h = &run->handback;
    char why[96];
    uint32_t i;
    h->ran = true;
    h->deadline_ms = CPU_OFF_MS;
    if (!run->psci_smp) /* nothing was started, and AFFINITY_INFO may be one of the absent functions */
        return;
    (void)smp_cpus_off(tick_freq() / 1000 * CPU_OFF_MS, res);
    for (i = 0; i < run->ntopo; i++) {
        struct a64_topo_cpu *t = &run->topo[i];
        const struct smp_off_result *r;
        if (t->percpu <= 0)
            continue;
        r = &res[t->percpu];
        if (r->told && !r->gic_settled) {
            h->gic_unsettled++;
            msg_add(&run->warnings, "handback", "cpu %d (MPIDR 0x%llx): its GIC restore did not settle within 100 ms",
                    t->percpu, (unsigned long long)t->mpidr);
        }
        if (r->outcome == SMP_OFF_DONE)
            h->cpus_off++;
        if (r->outcome == SMP_OFF_DONE || r->outcome == SMP_OFF_NOT_ON)
            continue;
        h->not_off[h->cpus_not_off++] = i;
        why_not_off(r, why, sizeof(why));
        msg_add(&run->errors, "handback", "cpu %d (MPIDR 0x%llx) not turned off: %s", t->percpu,
                (unsigned long long)t->mpidr, why);
        fmt_into(t->note + str_len(t->note), sizeof(t->note) - str_len(t->note), "%snot turned off: %s",
                 t->note[0] ? "; " : "", why);
    }
}
