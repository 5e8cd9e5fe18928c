/*
 * The aarch64 run's experiments on the loop both apps run (core/run/exp_loop.h):
 * the table, what each needs to be supported, the measurement around each
 * (its record's points reserved, its RUN line, its end), the SKIPs of x86's
 * questions aarch64 has no mechanism for (shootdown_lazy, invlpgb_range), and
 * what becomes of CPUs that stop answering.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/linux_tlbi.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/run/bootstrap.h"
#include "core/run/exp_loop.h"

/* supported() conditions: a reason when false */
static bool need_others(struct arm64_run *run, char *reason, size_t cap, const char *why)
{
    unsigned others[MAX_CPUS];
    (void)run;
    if (a64_others(others))
        return true;
    fmt_into(reason, cap, "one CPU: %s", why);
    return false;
}

static bool ipi_supported(struct arm64_run *run, char *reason, size_t cap)
{
    return need_others(run, reason, cap, "no target for an IPI");
}

static bool shootdown_supported(struct arm64_run *run, char *reason, size_t cap)
{
    return need_others(run, reason, cap, "no other CPU to shoot down");
}

static bool concurrent_supported(struct arm64_run *run, char *reason, size_t cap)
{
    return need_others(run, reason, cap, "no concurrent initiators");
}

static bool range_supported(struct arm64_run *run, char *reason, size_t cap)
{
    if (run->cpu.tlbi_range)
        return true;
    fmt_into(reason, cap, "no FEAT_TLBIRANGE: ID_AA64ISAR0_EL1.TLB [59:56] = %llu (ID_AA64ISAR0_EL1 = 0x%llx)",
             (unsigned long long)((run->cpu.isar0 >> 56) & 0xf), (unsigned long long)run->cpu.isar0);
    return false;
}

static bool kpti_supported(struct arm64_run *run, char *reason, size_t cap)
{
    (void)run;
    if (pt_current_asid() >= 0)
        return true;
    fmt_into(reason, cap, "at EL2: its translation regime has no ASIDs without HCR_EL2.E2H, so there is no user "
                          "ASID to invalidate (Linux's KPTI runs at EL1)");
    return false;
}

/* x86's questions with no aarch64 mechanism: said so, as x86 says why it cannot run one */
static bool lazy_supported(struct arm64_run *run, char *reason, size_t cap)
{
    (void)run;
    fmt_into(reason, cap, "not applicable on aarch64: broadcast TLBI reaches every CPU in hardware; there is no IPI "
                          "to a lazy CPU to skip");
    return false;
}

static bool invlpgb_supported(struct arm64_run *run, char *reason, size_t cap)
{
    (void)run;
    fmt_into(reason, cap, "not applicable on aarch64: INVLPGB and TLBSYNC are AMD x86 instructions; the broadcast "
                          "invalidation aarch64 has, TLBI ...IS and its range forms, is measured by "
                          "tlbi_broadcast_vs_ipi and tlbi_range");
    return false;
}

/* The table, in the report's order; the IPI experiments' titles name GICv3, on GICv2 gic_titles()'s. */
static const struct exp_desc descs[] = {
    { "ipi_roundtrip", "IPI round trip (GICv3 SGI, IRQ entry on the target) per initiator/target pair", "target",
      "initiator", 0 },
    { "ipi_broadcast", "IPI to k CPUs (GICv3 SGI): until every target answered", "targets", "mode", 0 },
    { "stale_detector_control", "Remap without invalidation: the verifier must see stale reads", 0, 0, 0 },
    { "tlbi_broadcast_vs_ipi", "Broadcast TLBI versus IPIs with local TLBI: shootdown latency", "pages", "method",
      0 },
    { "tlbi_range", "Range TLBI (RVAE1IS) versus one TLBI per page", "pages", "method", 0 },
    { "tlbi_concurrent", "Concurrent broadcast TLBIs from m initiators", "initiators", 0, 0 },
    { "flush_ceiling", "Flush ceiling: p per-page TLBIs vs one full flush, each with the refill after", "pages",
      "mode", 0 },
    { "pti_double_invalidation", "KPTI's double invalidation: one TLBI a page or two (kernel and user ASID)",
      "pages", "variant", 0 },
    { "shootdown_lazy", "Shootdown skipping lazy-TLB CPUs", 0, 0, 0 },
    { "invlpgb_range", "INVLPGB range flush versus IPIs", 0, 0, 0 },
};

static const struct {
    bool (*supported)(struct arm64_run *run, char *reason, size_t cap); /* NULL: always */
    void (*run)(struct arm64_run *run, struct experiment_record *e);      /* NULL: never (SKIP) */
    bool verifies; /* every CPU reads the remapped pages after each shootdown */
} methods[] = {
    { ipi_supported, exp_ipi_roundtrip, false },
    { ipi_supported, exp_ipi_broadcast, false },
    { 0, exp_stale_control, true },
    { shootdown_supported, exp_tlbi_broadcast_vs_ipi, true },
    { range_supported, exp_tlbi_range, true },
    { concurrent_supported, exp_tlbi_concurrent, true },
    { 0, exp_flush_ceiling, true },
    { kpti_supported, exp_pti_double_invalidation, true },
    { lazy_supported, 0, false },
    { invlpgb_supported, 0, false },
};

_Static_assert(sizeof(descs) / sizeof(descs[0]) == sizeof(methods) / sizeof(methods[0]),
               "one method per experiment");
_Static_assert(sizeof(descs) / sizeof(descs[0]) <= A64_MAX_EXPS, "run->exps holds every experiment");

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

static const struct {
    const char *id, *title;
} gicv2_titles[] = {
    { "ipi_roundtrip", "IPI round trip (GICv2 SGI, IRQ entry on the target) per initiator/target pair" },
    { "ipi_broadcast", "IPI to k CPUs (GICv2 SGI): until every target answered" },
};

/* The IPI experiments name the GIC their SGIs go through. */
static void gic_titles(struct arm64_run *run)
{
    uint32_t i, j;
    for (i = 0; run->gic_version == 2 && i < run->nexp; i++)
        for (j = 0; j < sizeof(gicv2_titles) / sizeof(gicv2_titles[0]); j++)
            if (str_eq(run->exps[i].id, gicv2_titles[j].id))
                run->exps[i].title = gicv2_titles[j].title;
}

/* run->linux_tlbi and linux_repeat_tlbi: Linux's unmap sequence here, for the report's method */
static void describe_linux_tlbi(struct arm64_run *run)
{
    struct linux_tlbi l;
    struct strbuf words;
    linux_tlbi_choose(&run->cpu, pt_current_asid(), &l);
    sb_init_fixed(&words, run->linux_tlbi, sizeof(run->linux_tlbi));
    if (l.ttl)
        sb_puts(&words, "ttl+");
    if (l.range)
        sb_puts(&words, "range+");
    if (l.kpti)
        sb_puts(&words, "kpti+");
    if (l.repeat)
        sb_puts(&words, "repeat+");
    if (words.len)
        run->linux_tlbi[words.len - 1] = 0; /* the last '+' */
    else
        sb_puts(&words, "plain");
    if (l.repeat)
        fmt_into(run->linux_repeat_tlbi, sizeof(run->linux_repeat_tlbi),
                 "MIDR 0x%llx: %s, erratum %s, in arm64_repeat_tlbi_list", (unsigned long long)run->cpu.midr,
                 l.repeat_part, l.repeat_erratum);
    else
        fmt_into(run->linux_repeat_tlbi, sizeof(run->linux_repeat_tlbi),
                 "MIDR 0x%llx (implementer 0x%02x, part 0x%03x) not in arm64_repeat_tlbi_list",
                 (unsigned long long)run->cpu.midr, run->cpu.implementer, run->cpu.part);
}

static struct exp_loop loop;

static bool loop_supported(void *ctx, uint32_t index, char *reason, size_t cap, bool *emulated)
{
    struct arm64_run *run = ctx;
    *emulated = run->hypervisor != 0;
    return (!methods[index].supported || methods[index].supported(run, reason, cap)) && methods[index].run;
}

static void loop_measure(void *ctx, uint32_t index, struct experiment_record *rec, bool emulated)
{
    struct arm64_run *run = ctx;
    uint64_t t0;
    unsigned others[MAX_CPUS];
    run->experiments_left = loop.left; /* the next shares split what is left among those still to run */
    a64_exp_begin(run, rec, methods[index].verifies);
    exp_loop_print_start(&loop, rec, emulated);
    t0 = ticks();
    if (rec->status == RESULT_SUCCESS)
        methods[index].run(run, rec);
    a64_exp_end(run, rec, t0);
    exp_loop_conclude(rec, a64_others(others) + 1, false, run->budget_s);
}

static void loop_print(void *ctx, const char *text)
{
    struct arm64_run *run = ctx;
    if (run->print)
        run->print(text);
}

void a64_run_experiments(struct arm64_run *run)
{
    static const struct stats_hook hook = { 0, p50_interval, 0 };
    uint32_t i;
    loop = (struct exp_loop){
        .descs = descs, .count = sizeof(descs) / sizeof(descs[0]), .records = run->exps, .cfg = &run->cfg, .arch = "aarch64",
        .warnings = &run->warnings, .errors = &run->errors, .simulated = run->sim != 0,
        .supported = loop_supported, .measure = loop_measure, .print = loop_print, .ctx = run,
    };
    interval_run = run;
    stats_set_hook(&hook);
    a64_topology_places(run); /* before any experiment: the report has them whichever runs */
    describe_linux_tlbi(run);
    exp_loop_check_selection(&loop);
    exp_loop_init_records(&loop);
    run->nexp = loop.count;
    gic_titles(run);
    for (i = 0; i < loop.count; i++) /* aarch64 has no CPUID hypervisor bit: an emulator named by
                                      * the firmware tables makes every timing an emulated one */
        run->exps[i].emulated = run->hypervisor != 0;
    run->budget_end = ticks() + (uint64_t)run->run_budget_s * tick_freq();
    exp_loop_run(&loop);
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
