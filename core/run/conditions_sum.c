/*
 * The per-CPU readings of an experiment's conditions, summed up
 * (core/run/conditions.h, conditions_summarise): pure, so the bookkeeping is
 * host-tested on recorded MSR values (tests/host/test_conditions.c).
 */
#include "asm/pmc.h"
#include "core/run/conditions.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"

static const char *method_text(enum smi_method m)
{
    return m == SMI_METHOD_PMC ? "AMD PMC LsSmiRx (PMCx02B)" : "MSR 0x34 (SMI count)";
}

/* What stopped CPU `cpu`'s count, in words, after `prefix`. */
static void describe_failure(char *buf, size_t cap, const char *prefix, uint32_t cpu,
                             const struct cond_cpu_sample *s, bool ext_core)
{
    switch (s->smi_failure) {
    case SMI_READ_FAULT:
    case SMI_WRITE_FAULT:
        fmt_into(buf, cap, "%sCPU %u: %s 0x%x took exception %u", prefix, cpu,
                 s->smi_failure == SMI_READ_FAULT ? "RDMSR" : "WRMSR", s->smi_msr,
                 s->smi_fault - 1);
        break;
    case SMI_SELECT_LOST:
        fmt_into(buf, cap, "%sCPU %u: PerfEvtSel%u (MSR 0x%x) read back 0x%llx after 0x%llx "
                           "was written (the write was dropped: it does not count)",
                 prefix, cpu, s->pmc_index, s->smi_msr, (unsigned long long)s->pmc_select_read,
                 (unsigned long long)s->pmc_select);
        break;
    case SMI_NO_FREE_COUNTER:
        fmt_into(buf, cap, "%sCPU %u: all %u counters were enabled already (in use)", prefix,
                 cpu, amd_pmc_counters(ext_core));
        break;
    default:
        fmt_into(buf, cap, "%sCPU %u: not counted", prefix, cpu);
        break;
    }
}

static void summarise_smi(struct exp_conditions *c, const struct cond_cpu_sample *before,
                          const struct cond_cpu_sample *after, uint32_t n)
{
    const struct cond_cpu_sample *bad = NULL;
    uint64_t mask = c->smi_method == SMI_METHOD_PMC ? AMD_PMC_MASK : UINT64_MAX;
    uint32_t i, bad_cpu = 0;
    char prefix[160];
    c->smi_cpus = 0;
    c->smi_total = 0;
    c->smi_ncpu = c->smi_per_cpu ? n : 0;
    for (i = 0; i < c->smi_ncpu; i++)
        c->smi_per_cpu[i] = SMI_NOT_COUNTED;
    if (c->smi_method == SMI_METHOD_NONE)
        return; /* conditions_begin said why */
    for (i = 0; i < n; i++) {
        const struct cond_cpu_sample *f;
        uint64_t delta;
        if (!before[i].taken || !after[i].taken)
            continue;
        f = before[i].smi_failure != SMI_COUNTED ? &before[i] : &after[i];
        if (f->smi_failure != SMI_COUNTED) {
            if (!bad) {
                bad = f;
                bad_cpu = i;
            }
            continue;
        }
        if (MUTANT(smi_bsp_only) && i != 0)
            continue; /* the old way: one CPU's counter stood for all */
        delta = (after[i].smi - before[i].smi) & mask;
        if (c->smi_per_cpu)
            c->smi_per_cpu[i] = delta;
        c->smi_total += delta;
        c->smi_cpus++;
        if (c->smi_method == SMI_METHOD_PMC && !c->pmc_ctl) {
            struct amd_pmc p = amd_pmc_msrs(c->pmc_ext_core, before[i].pmc_index);
            c->pmc_ctl = p.ctl;
            c->pmc_ctr = p.ctr;
            c->pmc_event = AMD_EVENT_LS_SMI_RX;
        }
    }
    c->smi_counter = !bad && c->smi_cpus && !c->smi_blocked;
    if (bad && (bad->smi_failure == SMI_READ_FAULT || bad->smi_failure == SMI_WRITE_FAULT))
        c->smi_fault = bad->smi_fault;
    if (c->smi_counter) {
        c->smi_absent[0] = '\0';
        return;
    }
    if (c->smi_blocked)
        fmt_into(prefix, sizeof(prefix), "%s: %s; tried anyway: ", method_text(c->smi_method),
                 c->smi_blocked);
    else
        fmt_into(prefix, sizeof(prefix), "%s: ", method_text(c->smi_method));
    if (bad)
        describe_failure(c->smi_absent, sizeof(c->smi_absent), prefix, bad_cpu, bad,
                         c->pmc_ext_core);
    else if (c->smi_cpus)
        fmt_into(c->smi_absent, sizeof(c->smi_absent),
                 "%scounted %llu on %u CPUs, not trusted", prefix,
                 (unsigned long long)c->smi_total, c->smi_cpus);
    else
        fmt_into(c->smi_absent, sizeof(c->smi_absent), "%sno CPU sampled", prefix);
}

static void summarise_clock(struct exp_conditions *c, const struct cond_cpu_sample *before,
                            const struct cond_cpu_sample *after, uint32_t n)
{
    uint64_t sum_a = 0, sum_m = 0, sum_ratio = 0;
    uint32_t i, r;
    c->ncpus = 0;
    c->aperfmperf = false;
    for (r = 0; r < COND_ROLES; r++)
        c->role[r] = (struct cond_role_clock){ 0, 0, 0 };
    if (!(c->leaf6_ecx & 1u))
        return; /* no APERF/MPERF: nothing was read */
    for (i = 0; i < n; i++) {
        uint64_t da, dm, pm;
        if (!before[i].taken || !after[i].taken)
            continue;
        if (before[i].fault || after[i].fault) {
            c->aperf_fault = before[i].fault ? before[i].fault : after[i].fault;
            c->ncpus = 0;
            return;
        }
        da = after[i].aperf - before[i].aperf;
        dm = after[i].mperf - before[i].mperf;
        r = i == c->initiator ? COND_ROLE_INITIATOR : COND_ROLE_TARGETS;
        c->role[r].cpus++;
        c->role[r].aperf += da;
        c->role[r].mperf += dm;
        if (!dm)
            continue; /* a CPU that never left a C-state: no C0 cycles to compare */
        pm = cond_permille(da, dm);
        if (!c->ncpus || pm < c->eff_permille_min)
            c->eff_permille_min = pm;
        if (pm > c->eff_permille_max)
            c->eff_permille_max = pm;
        sum_a += da;
        sum_m += dm;
        sum_ratio += pm;
        c->ncpus++;
    }
    c->aperfmperf = c->ncpus > 0;
    /* weighted by time awake: the sums' ratio, not the ratios' mean */
    c->eff_permille_all = MUTANT(clock_mean_of_ratios) && c->ncpus ? sum_ratio / c->ncpus
                                                                    : cond_permille(sum_a, sum_m);
}

void conditions_summarise(struct exp_conditions *c, const struct cond_cpu_sample *before,
                          const struct cond_cpu_sample *after, uint32_t n)
{
    summarise_smi(c, before, after, n);
    summarise_clock(c, before, after, n);
}
