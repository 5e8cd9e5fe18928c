#include "core/run/conditions.h"
#include "asm/cpu.h"
#include "asm/power.h"
#include "asm/probe.h"
#include "asm/pmc.h"
#include "core/lib/atomic.h"
#include "core/run/conditions_smi.h"
#include "core/machine/ipi.h"
#include "core/mutant.h"
#include "core/run/runner.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

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
    uint32_t n = r->smp->count;
    rec->cond_samples = mem_zalloc(2 * (size_t)n * sizeof(struct cond_cpu_sample));
    /* kept with the record: the report lists the SMIs per CPU */
    rec->conditions.smi_per_cpu = mem_zalloc((size_t)n * sizeof(uint64_t));
    return rec->cond_samples != NULL && rec->conditions.smi_per_cpu != NULL;
}

void conditions_release(struct experiment_record *rec)
{
    mem_free(rec->cond_samples);
    rec->cond_samples = NULL;
}

/* What each CPU does at the start or the end (one CPU at a time: smp_call waits). */
struct cond_job {
    const struct exp_conditions *c;
    bool clocks, end;
    const struct cond_cpu_sample *start; /* the end: this CPU's start sample */
    struct cond_cpu_sample *s;
};

/* Runs on each CPU: the SMI counter, then MPERF and APERF back to back, the TSC next to them. */
static int64_t sample_cpu(struct percpu *self, void *arg)
{
    struct cond_job *j = arg;
    struct cond_cpu_sample *s = j->s;
    (void)self;
    if (j->end)
        smi_counter_stop(j->c->smi_method, j->c->pmc_ext_core, j->start, s);
    else
        smi_counter_start(j->c->smi_method, j->c->pmc_ext_core, s);
    s->tsc = tsc_now();
    if (j->clocks) {
        s->fault = power_read_msr(MSR_MPERF, &s->mperf);
        if (s->fault == PROBE_OK)
            s->fault = power_read_msr(MSR_APERF, &s->aperf);
    }
    s->taken = true;
    return 0;
}

/* Every usable CPU: its start sample (end false) or its end sample, after `start`. */
static void sample_cpus(struct runner *r, struct exp_conditions *c, struct cond_cpu_sample *out,
                        const struct cond_cpu_sample *start, bool end)
{
    struct smp *s = r->smp;
    struct cond_job j;
    uint32_t i;
    j.c = c;
    j.clocks = r->run->cpu.aperfmperf;
    j.end = end;
    for (i = 0; i < s->count; i++) {
        if (!smp_usable(s, i))
            continue;
        j.s = &out[i];
        j.start = start ? &start[i] : NULL;
        if (end && !start[i].taken)
            continue; /* not started: nothing to stop */
        if (i == 0)
            sample_cpu(s->cpu[0], &j);
        else if (smp_call(s, i, CMD_PROBE, sample_cpu, &j, NULL) != WAIT_OK)
            out[i].taken = false;
    }
}

/* Something to read on every CPU: an SMI counter to try, or APERF/MPERF (else no CPU is woken). */
static bool per_cpu_readings(const struct runner *r, const struct exp_conditions *c)
{
    return c->smi_method != SMI_METHOD_NONE || r->run->cpu.aperfmperf;
}

/*
 * Which SMI counter this CPU has, or why none (then c->smi_absent says so).
 * Under a hypervisor the AMD counter is still tried, for the evidence of
 * what the hypervisor does with it, but not trusted.
 */
static void choose_smi_method(const struct cpu_features *f, struct exp_conditions *c)
{
    c->pmc_ext_core = (f->evidence.ext1_ecx & AMD_CPUID_PERFCTR_EXT_CORE) != 0;
    if (f->vendor_id == VENDOR_INTEL) {
        c->smi_method = SMI_METHOD_MSR34;
        return;
    }
    if (f->vendor_id != VENDOR_AMD && f->vendor_id != VENDOR_HYGON) {
        fmt_into(c->smi_absent, sizeof(c->smi_absent),
                 "no SMI counter known for vendor %s (Intel: MSR 0x34; AMD: PMCx02B)", f->vendor);
        return;
    }
    if (f->family < AMD_LS_SMI_RX_FAMILY) {
        fmt_into(c->smi_absent, sizeof(c->smi_absent),
                 "AMD PMC LsSmiRx (PMCx02B) is documented from family 17h; family 0x%x (CPUID.1 "
                 "EAX = 0x%08x): not tried",
                 f->family, f->evidence.leaf1_eax);
        return;
    }
    c->smi_method = SMI_METHOD_PMC;
    if (f->hypervisor)
        c->smi_blocked = "not trusted under a hypervisor (CPUID.1:ECX[31] = 1): a guest's "
                         "counter does not see the host's SMIs";
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

void conditions_begin(struct runner *r, struct experiment_record *rec, uint32_t initiator)
{
    struct exp_conditions *c = &rec->conditions;
    const struct cpu_features *f = &r->run->cpu;
    uint64_t *per_cpu = c->smi_per_cpu;
    if (MUTANT(conditions_unrecorded))
        return;
    mem_zero(c, sizeof(*c));
    c->smi_per_cpu = per_cpu;
    c->leaf6_eax = f->evidence.leaf6_eax;
    c->leaf6_ecx = f->evidence.leaf6_ecx;
    c->target_wait = r->run->method.target_wait;
    c->tsc_mhz = r->run->tsc_hz / 1000000;
    c->initiator = initiator;
    record_smt(r, c);
    record_boost(r, c);
    choose_smi_method(f, c);
    if (rec->cond_samples && per_cpu_readings(r, c))
        sample_cpus(r, c, rec->cond_samples, NULL, false);
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

void conditions_end(struct runner *r, struct experiment_record *rec)
{
    struct exp_conditions *c = &rec->conditions;
    struct smp *s = r->smp;
    uint32_t i;
    if (!c->recorded)
        return;
    if (rec->cond_samples) {
        if (per_cpu_readings(r, c))
            sample_cpus(r, c, rec->cond_samples + s->count, rec->cond_samples, true);
        conditions_summarise(c, rec->cond_samples, rec->cond_samples + s->count, s->count);
    } else if (c->smi_method != SMI_METHOD_NONE) {
        fmt_into(c->smi_absent, sizeof(c->smi_absent), "no memory for the per-CPU readings");
    }
    if (c->smi_counter)
        return;
    /* no count: the hiccup detector on the highest-numbered usable CPU (the BSP alone) */
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
