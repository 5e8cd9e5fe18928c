/*
 * The conditions of each experiment's measurement, recorded with it so that
 * two reports can be compared knowing whether their numbers are comparable:
 *
 *  - SMIs, counted on every CPU of the experiment from before its run to
 *    after it (core/run/conditions_smi.c): Intel's SMI counter (MSR 0x34); on
 *    AMD (family 17h and later) core performance counter event PMCx02B
 *    LsSmiRx, programmed on a free counter before and read, disabled and
 *    restored after (arch/x86/include/asm/pmc.h). Per CPU and in total. Under a
 *    hypervisor the AMD counter is tried for the evidence but not trusted
 *    (a guest's counter does not see the host's SMIs). Where nothing could
 *    count them (the probe faulted, the select did not stick, another
 *    vendor or family, a hypervisor), that is said with the evidence, and
 *    a hiccup detector runs instead: one idle CPU reads the TSC in a tight
 *    loop for a window right after the experiment and counts gaps above a
 *    threshold (what Linux's hwlat tracer does): weaker, one CPU, after;
 *  - clock: APERF and MPERF on every CPU before and after, where CPUID 6
 *    ECX[0] says they exist and the probe reads them. The effective clock
 *    is the TSC rate x the sum of dAPERF over the sum of dMPERF, per role
 *    (the experiment's initiator, its other CPUs) and over all: weighted by
 *    the time each CPU was awake (MPERF counts in C0 only), so a CPU that
 *    woke for a few microseconds does not weigh like one that worked the
 *    whole run. The per-CPU ratios give min and max. Boost/turbo enabled
 *    or not where an MSR says so (Intel IA32_MISC_ENABLE bit 38, AMD HWCR
 *    bit 25);
 *  - SMT: whether any core has two usable threads in this run;
 *  - how targets waited (method.target_wait), per experiment.
 * Anything absent is recorded absent with its evidence (the CPUID register
 * or the exception the probe took), never as a zero.
 */
#ifndef TLBSCOPE_CORE_CONDITIONS_H
#define TLBSCOPE_CORE_CONDITIONS_H

#include <stdbool.h>
#include <stdint.h>

#define HICCUP_THRESHOLD_NS 10000 /* hwlat's default threshold: 10 us */

enum smi_method { SMI_METHOD_NONE = 0, SMI_METHOD_MSR34, SMI_METHOD_PMC };

/* What stopped a CPU's SMI count (core/run/conditions_smi.c). */
enum smi_failure {
    SMI_COUNTED = 0,
    SMI_NOT_TRIED,       /* no method on this CPU */
    SMI_READ_FAULT,      /* RDMSR of smi_msr took exception smi_fault - 1 */
    SMI_WRITE_FAULT,     /* WRMSR of smi_msr took exception smi_fault - 1 */
    SMI_SELECT_LOST,     /* the PMC's select read back other than written: it does not count */
    SMI_NO_FREE_COUNTER, /* every PMC was enabled already: someone else's */
};

/* One CPU's readings at the experiment's start (before[]) or end (after[]). */
struct cond_cpu_sample {
    uint64_t tsc, aperf, mperf;
    uint32_t fault;      /* PROBE_FAULTED(vector) of the APERF read, 0 when it read */
    bool taken;
    /* the SMI counter (MSR 0x34, or the PMC's count) */
    uint64_t smi;
    enum smi_failure smi_failure;
    uint32_t smi_fault;  /* PROBE_FAULTED(vector) with the *_FAULT failures */
    uint32_t smi_msr;    /* the MSR the failure concerns */
    /* the PMC (start sample): the counter, what it held (restored at the end), what the
     * select read back after being written */
    uint32_t pmc_index;
    uint64_t pmc_saved_ctl, pmc_saved_ctr, pmc_select, pmc_select_read;
};

#define SMI_NOT_COUNTED UINT64_MAX /* smi_per_cpu of a CPU not counted */
enum cond_role { COND_ROLE_INITIATOR = 0, COND_ROLE_TARGETS, COND_ROLES };

/* The APERF/MPERF deltas of one role's CPUs, summed (CPUs awake longer weigh more). */
struct cond_role_clock {
    uint32_t cpus;       /* CPUs of the role sampled */
    uint64_t aperf, mperf;
};

struct exp_conditions {
    bool recorded;
    /* SMIs */
    enum smi_method smi_method; /* what was tried (NONE: nothing can count them here) */
    bool smi_counter;          /* counted on every CPU sampled, and trusted */
    const char *smi_blocked;   /* why a count that worked is not trusted (a hypervisor) */
    uint32_t smi_cpus;         /* CPUs counted */
    uint64_t smi_total;        /* sum over them */
    uint64_t *smi_per_cpu;     /* by CPU index (SMI_NOT_COUNTED); smi_ncpu entries */
    uint32_t smi_ncpu;
    uint32_t smi_fault;        /* exception + 1 of the first access that faulted; 0 when none */
    bool pmc_ext_core;         /* six counters at C001_0200 (CPUID 8000_0001 ECX[23]) */
    uint32_t pmc_ctl, pmc_ctr; /* the PMC's MSRs on the first CPU counted */
    uint32_t pmc_event;        /* the event it counted (AMD_EVENT_LS_SMI_RX) */
    char smi_absent[320];      /* why there is no count, with the evidence; "" when counted */
    bool hiccup_ran;
    uint32_t hiccup_cpu;
    uint64_t hiccup_window_us, hiccups, hiccup_max_ns;
    /* clock */
    bool aperfmperf;           /* CPUID 6 ECX[0] and both reads worked on every CPU */
    uint32_t aperf_fault;      /* exception + 1 of the first failed read */
    uint32_t leaf6_ecx, leaf6_eax;
    uint32_t ncpus;            /* CPUs sampled that were awake (dMPERF > 0) */
    uint32_t initiator;        /* the CPU whose role is the initiator */
    uint64_t eff_permille_min, eff_permille_max; /* per CPU, dAPERF/dMPERF x 1000 */
    uint64_t eff_permille_all; /* sum of dAPERF / sum of dMPERF x 1000, every CPU */
    struct cond_role_clock role[COND_ROLES];
    uint64_t tsc_mhz;
    const char *boost;         /* "enabled" | "disabled" | "unknown" */
    char boost_evidence[96];
    /* SMT and targets */
    const char *smt;           /* "active" (some core runs two usable threads) | "off" */
    uint32_t smt_cores;        /* cores with more than one usable thread */
    const char *target_wait;
};

struct runner;
struct experiment_record;

/* Allocates what the per-CPU readings need (firmware state, before the measurement). */
bool conditions_prepare(struct runner *r, struct experiment_record *rec);
/* Readings before and after the experiment's run (tool state); `initiator` is the CPU the
 * experiment initiates from (runner_initiator(): passed in, so this file never calls the
 * runner back). */
void conditions_begin(struct runner *r, struct experiment_record *rec, uint32_t initiator);
void conditions_end(struct runner *r, struct experiment_record *rec);
void conditions_release(struct experiment_record *rec);

/* The TSC ticks a hiccup detector counts as a gap, and the detector itself (pure: host-tested). */
uint64_t hiccup_scan(uint64_t (*clock)(void *ctx), void *ctx, uint64_t window_ticks,
                     uint64_t threshold_ticks, uint64_t *max_gap);

/*
 * From the per-CPU readings of n CPUs (before[i], after[i]; CPU i not
 * taken: not sampled): the SMI counts per CPU and in total, and why they
 * are absent; the clock per role and over all (core/run/conditions_sum.c,
 * pure: host-tested on recorded MSR values). c->smi_method, smi_blocked,
 * initiator and smi_per_cpu (n entries, or NULL) are set before.
 */
void conditions_summarise(struct exp_conditions *c, const struct cond_cpu_sample *before,
                          const struct cond_cpu_sample *after, uint32_t n);
/* Effective clock x 1000 of summed deltas; 0 when nothing was awake. */
static inline uint64_t cond_permille(uint64_t aperf, uint64_t mperf)
{
    return mperf ? aperf * 1000 / mperf : 0;
}

#endif
