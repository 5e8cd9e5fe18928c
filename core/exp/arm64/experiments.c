/*
 * The aarch64 run: the experiments in order, the SKIPs of x86's questions
 * aarch64 has no mechanism for (shootdown_lazy, invlpgb_range), the
 * run's result, and what becomes of CPUs that stop answering.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/run/bootstrap.h"

/* x86's questions with no aarch64 mechanism: said so, as x86 says why it cannot run one */
static void not_applicable(struct arm64_run *run, const char *id, const char *title, const char *why)
{
    struct experiment_record *e = a64_exp_begin(run, id, title, 0, 0, false);
    record_set_status(e, RESULT_SKIP, "not applicable on aarch64: %s", why);
    e->emulated = run->hypervisor != 0;
}

static void exp_shootdown_lazy(struct arm64_run *run)
{
    not_applicable(run, "shootdown_lazy", "Shootdown skipping lazy-TLB CPUs",
                   "broadcast TLBI reaches every CPU in hardware; there is no IPI to a lazy CPU to skip");
}

static void exp_invlpgb_range(struct arm64_run *run)
{
    not_applicable(run, "invlpgb_range", "INVLPGB range flush versus IPIs",
                   "INVLPGB and TLBSYNC are AMD x86 instructions; the broadcast invalidation aarch64 has, TLBI ...IS "
                   "and its range forms, is measured by tlbi_broadcast_vs_ipi and tlbi_range");
}

/* experiments= (run->selected): an experiment left out is absent from the report, as on x86 */
static bool selected(const struct arm64_run *run, const char *id)
{
    uint32_t i;
    if (!run->nselected)
        return true;
    for (i = 0; i < run->nselected; i++)
        if (str_eq(run->selected[i], id))
            return true;
    return false;
}

static const struct {
    const char *id;
    void (*run)(struct arm64_run *run);
} table[] = {
    { "ipi_roundtrip", exp_ipi_roundtrip },
    { "ipi_broadcast", exp_ipi_broadcast },
    { "stale_detector_control", exp_stale_control },
    { "tlbi_broadcast_vs_ipi", exp_tlbi_broadcast_vs_ipi },
    { "tlbi_range", exp_tlbi_range },
    { "tlbi_concurrent", exp_tlbi_concurrent },
    { "flush_ceiling", exp_flush_ceiling },
    { "pti_double_invalidation", exp_pti_double_invalidation },
    { "shootdown_lazy", exp_shootdown_lazy },
    { "invlpgb_range", exp_invlpgb_range },
};

bool a64_experiment_known(const char *id)
{
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (str_eq(table[i].id, id))
            return true;
    return false;
}

/*
 * Every metric's p50 gets its seeded bootstrap interval (core/run/bootstrap.h), as on x86
 * (core/run/record_samples.c): stats_from_array() asks this hook.
 */
static struct arm64_run *interval_run;
static int64_t interval_reps[BOOT_REPLICATES];

static bool p50_interval(void *ctx, const uint64_t *sorted, uint32_t n, uint64_t *low, uint64_t *high)
{
    uint64_t t0 = ticks();
    bool ok = boot_median(interval_reps, sorted, n, interval_run->order_seed, low, high);
    (void)ctx;
    interval_run->p50_intervals += ok;
    interval_run->p50_interval_ticks += ticks() - t0;
    return ok;
}

void a64_run_experiments(struct arm64_run *run)
{
    static const struct stats_hook hook = { 0, p50_interval, 0 };
    interval_run = run;
    stats_set_hook(&hook);
    a64_topology_places(run); /* before any experiment: the report has them whichever runs */
    run->experiments_left = 0;
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        run->experiments_left += selected(run, table[i].id);
    run->budget_end = ticks() + (uint64_t)run->run_budget_s * tick_freq();
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (!selected(run, table[i].id))
            continue;
        table[i].run(run);
        run->experiments_left--; /* the next shares split what is left among those still to run */
    }
    stats_set_hook(0);
}

static struct a64_topo_cpu *topo_of(struct arm64_run *run, unsigned cpu)
{
    uint32_t i;
    for (i = 0; i < run->ntopo; i++)
        if (run->topo[i].percpu == (int)cpu)
            return &run->topo[i];
    return 0;
}

void a64_cpu_lost(struct arm64_run *run, unsigned cpu, const char *where)
{
    struct a64_topo_cpu *t = topo_of(run, cpu);
    bool parked = __atomic_load_n(&percpu[cpu].state, __ATOMIC_ACQUIRE) == CPU_PARKED;
    run->partial = true;
    if (!parked) /* no longer posted to: it may come back at any time */
        __atomic_store_n(&percpu[cpu].state, CPU_OFF, __ATOMIC_RELEASE);
    if (t && t->state == A64_CPU_OK) {
        t->state = parked ? A64_CPU_FAULTED : A64_CPU_HUNG;
        fmt_into(t->note, sizeof(t->note), "%s during %s", parked ? "faulted" : "stopped answering", where);
    }
    msg_add(&run->warnings, where, "cpu %u %s; the run goes on without it", cpu,
            parked ? "faulted" : "did not answer within the timeout");
}

void a64_topology_settle(struct arm64_run *run)
{
    uint32_t i;
    for (i = 0; i < run->ntopo; i++) {
        struct a64_topo_cpu *t = &run->topo[i];
        struct percpu *pc;
        if (t->percpu < 0)
            continue;
        pc = &percpu[t->percpu];
        if (__atomic_load_n(&pc->state, __ATOMIC_ACQUIRE) == CPU_PARKED) {
            if (t->state == A64_CPU_OK || t->state == A64_CPU_HUNG || t->state == A64_CPU_ABSENT) {
                t->state = A64_CPU_FAULTED;
                run->partial = true;
            }
            t->has_fault = true;
            t->esr = pc->fault_esr;
            t->far = pc->fault_far;
            t->elr = pc->fault_elr;
            t->vector = pc->fault_vector;
        }
    }
}
