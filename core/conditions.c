#include "core/conditions.h"
#include "arch/x86/cpu.h"
#include "arch/x86/power.h"
#include "arch/x86/probe.h"
#include "core/atomic.h"
#include "core/ipi.h"
#include "core/mutant.h"
#include "core/runner.h"
#include "core/strbuf.h"
#include "core/timing.h"

/* The detector's window after each experiment, by profile (default, quick, full). */
static const uint32_t hiccup_window_us[] = { 5000, 1000, 20000 };

uint64_t hiccup_scan(uint64_t (*clock)(void *ctx), void *ctx, uint64_t window_ticks,
                     uint64_t threshold_ticks, uint64_t *max_gap)
{
    uint64_t start = clock(ctx), prev = start, now, gaps = 0;
    *max_gap = 0;
    do {
        now = clock(ctx);
        if (now - prev > threshold_ticks) {
            gaps++;
            if (now - prev > *max_gap)
                *max_gap = now - prev;
        }
        prev = now;
    } while (now - start < window_ticks);
    return gaps;
}

bool conditions_prepare(struct runner *r, struct experiment_record *rec)
{
    rec->cond_samples = mem_zalloc(2 * (size_t)r->smp->count * sizeof(struct cond_cpu_sample));
    return rec->cond_samples != NULL;
}

void conditions_release(struct experiment_record *rec)
{
    mem_free(rec->cond_samples);
    rec->cond_samples = NULL;
}

/* Runs on each CPU: MPERF then APERF back to back, and the TSC next to them. */
static int64_t read_clock_msrs(struct percpu *self, void *arg)
{
    struct cond_cpu_sample *s = arg;
    (void)self;
    s->tsc = tsc_now();
    s->fault = power_read_msr(MSR_MPERF, &s->mperf);
    if (s->fault == PROBE_OK)
        s->fault = power_read_msr(MSR_APERF, &s->aperf);
    s->taken = true;
    return 0;
}

static void sample_clocks(struct runner *r, struct cond_cpu_sample *out)
{
    struct smp *s = r->smp;
    uint32_t i;
    for (i = 0; i < s->count; i++) {
        if (!smp_usable(s, i))
            continue;
        if (i == 0)
            read_clock_msrs(s->cpu[0], &out[0]);
        else
            smp_call(s, i, CMD_PROBE, read_clock_msrs, &out[i], NULL);
    }
}

static void record_boost(struct runner *r, struct exp_conditions *c)
{
    const struct cpu_features *f = &r->run->cpu;
    uint64_t v = 0;
    uint32_t msr, fault;
    bool intel = f->vendor_id == VENDOR_INTEL;
    if (!intel && f->vendor_id != VENDOR_AMD && f->vendor_id != VENDOR_HYGON) {
        c->boost = "unknown";
        fmt_into(c->boost_evidence, sizeof(c->boost_evidence), "vendor %s: no boost MSR known",
                 f->vendor);
        return;
    }
    msr = intel ? MSR_MISC_ENABLE : MSR_AMD_HWCR;
    fault = power_read_msr(msr, &v);
    if (fault != PROBE_OK) {
        c->boost = "unknown";
        fmt_into(c->boost_evidence, sizeof(c->boost_evidence), "MSR 0x%x: exception %u when read",
                 msr, fault - 1);
        return;
    }
    /* AMD: only a CPU that enumerates core performance boost has one to enable */
    if (!intel && !(f->evidence.ext7_edx & (1u << 9))) {
        c->boost = "unknown";
        fmt_into(c->boost_evidence, sizeof(c->boost_evidence),
                 "no boost enumerated (CPUID 8000_0007 EDX[9] = 0), MSR 0xc0010015 = 0x%llx",
                 (unsigned long long)v);
        return;
    }
    if (intel && !(v & MISC_ENABLE_TURBO_DISABLE) && !(c->leaf6_eax & 2u)) {
        c->boost = "unknown";
        fmt_into(c->boost_evidence, sizeof(c->boost_evidence),
                 "no turbo enumerated (CPUID 6 EAX[1] = 0), MSR 0x1a0 bit 38 = 0");
        return;
    }
    c->boost = (v & (intel ? MISC_ENABLE_TURBO_DISABLE : AMD_HWCR_CPB_DIS)) ? "disabled"
                                                                            : "enabled";
    fmt_into(c->boost_evidence, sizeof(c->boost_evidence), "MSR 0x%x = 0x%llx (bit %u)", msr,
             (unsigned long long)v, intel ? 38u : 25u);
}

static void record_smt(struct runner *r, struct exp_conditions *c)
{
    struct smp *s = r->smp;
    uint32_t i, j;
    c->smt_cores = 0;
    for (i = 0; i < s->count; i++) {
        bool first_of_core = smp_usable(s, i), has_sibling = false;
        for (j = 0; j < s->count && first_of_core; j++) {
            if (j == i || !smp_usable(s, j))
                continue;
            if (cpu_topo_class(&s->topo->cpus[i], &s->topo->cpus[j]) == TOPO_SMT_SIBLING) {
                has_sibling = true;
                if (j < i)
                    first_of_core = false; /* counted with its lower-numbered sibling */
            }
        }
        if (first_of_core && has_sibling)
            c->smt_cores++;
    }
    c->smt = c->smt_cores ? "active" : "off";
}

void conditions_begin(struct runner *r, struct experiment_record *rec)
{
    struct exp_conditions *c = &rec->conditions;
    const struct cpu_features *f = &r->run->cpu;
    if (MUTANT(conditions_unrecorded))
        return;
    mem_zero(c, sizeof(*c));
    c->leaf6_eax = f->evidence.leaf6_eax;
    c->leaf6_ecx = f->evidence.leaf6_ecx;
    c->target_wait = r->run->method.target_wait;
    c->tsc_mhz = r->run->tsc_hz / 1000000;
    record_smt(r, c);
    record_boost(r, c);
    if (f->vendor_id != VENDOR_INTEL) {
        c->smi_absent = "MSR 0x34 (SMI count) is Intel's; not tried on this vendor";
    } else {
        c->smi_fault = power_read_msr(MSR_SMI_COUNT, &c->smi_before);
        c->smi_counter = c->smi_fault == PROBE_OK;
        if (!c->smi_counter)
            c->smi_absent = "MSR 0x34 (SMI count) faulted when read";
    }
    if (f->aperfmperf && rec->cond_samples)
        sample_clocks(r, rec->cond_samples);
    c->recorded = true;
}

struct hiccup_job {
    uint64_t window, threshold, gaps, max_gap;
};

static uint64_t read_tsc(void *ctx)
{
    (void)ctx;
    return tsc_now();
}

/* On an idle CPU, interrupts off (the command loop runs commands so): only SMIs and the host remain. */
static int64_t run_hiccup(struct percpu *self, void *arg)
{
    struct hiccup_job *j = arg;
    (void)self;
    j->gaps = hiccup_scan(read_tsc, NULL, j->window, j->threshold, &j->max_gap);
    return 0;
}

static void summarise_clocks(struct runner *r, struct experiment_record *rec)
{
    struct exp_conditions *c = &rec->conditions;
    struct cond_cpu_sample *before = rec->cond_samples, *after = before + r->smp->count;
    uint64_t sum = 0;
    uint32_t i;
    c->ncpus = 0;
    for (i = 0; i < r->smp->count; i++) {
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
        if (!dm)
            continue; /* a CPU that never left a C-state: no C0 cycles to compare */
        pm = da * 1000 / dm;
        if (!c->ncpus || pm < c->eff_permille_min)
            c->eff_permille_min = pm;
        if (pm > c->eff_permille_max)
            c->eff_permille_max = pm;
        sum += pm;
        c->ncpus++;
    }
    c->aperfmperf = c->ncpus > 0;
    if (c->ncpus)
        c->eff_permille_mean = sum / c->ncpus;
}

void conditions_end(struct runner *r, struct experiment_record *rec)
{
    struct exp_conditions *c = &rec->conditions;
    struct smp *s = r->smp;
    uint32_t i;
    if (!c->recorded)
        return;
    if (c->smi_counter && power_read_msr(MSR_SMI_COUNT, &c->smi_after) != PROBE_OK)
        c->smi_counter = false;
    if (r->run->cpu.aperfmperf && rec->cond_samples) {
        sample_clocks(r, rec->cond_samples + s->count);
        summarise_clocks(r, rec);
    }
    if (c->smi_counter)
        return;
    /* no SMI counter: the hiccup detector on the highest-numbered usable CPU (the BSP alone) */
    for (i = s->count; i-- > 0;) {
        struct hiccup_job j;
        uint32_t p = (unsigned)r->run->cfg.profile < 3 ? (unsigned)r->run->cfg.profile : 0;
        if (!smp_usable(s, i))
            continue;
        j.window = us_to_ticks(hiccup_window_us[p]);
        j.threshold = us_to_ticks(HICCUP_THRESHOLD_NS / 1000);
        j.gaps = j.max_gap = 0;
        if (i == 0)
            run_hiccup(s->cpu[0], &j); /* interrupts are off on the BSP here too */
        else if (smp_call(s, i, CMD_PROBE, run_hiccup, &j, NULL) != WAIT_OK)
            return;
        c->hiccup_ran = true;
        c->hiccup_cpu = i;
        c->hiccup_window_us = hiccup_window_us[p];
        c->hiccups = j.gaps;
        c->hiccup_max_ns = j.max_gap * 1000000000ull / (r->run->tsc_hz ? r->run->tsc_hz : 1);
        return;
    }
}
