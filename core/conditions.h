/*
 * The conditions of each experiment's measurement, recorded with it so that
 * two reports can be compared knowing whether their numbers are comparable:
 *
 *  - SMIs: Intel's SMI counter (MSR 0x34) before and after, read through
 *    the #GP probe; where it is absent (the probe faults, or the CPU is not
 *    Intel), a hiccup detector instead: one idle CPU reads the TSC in a
 *    tight loop for a window right after the experiment and counts gaps
 *    above a threshold (what Linux's hwlat tracer does);
 *  - clock: APERF and MPERF on every CPU before and after (effective clock
 *    = TSC rate x dAPERF / dMPERF), where CPUID 6 ECX[0] says they exist
 *    and the probe reads them; boost/turbo enabled or not where an MSR says
 *    so (Intel IA32_MISC_ENABLE bit 38, AMD HWCR bit 25);
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

struct cond_cpu_sample {
    uint64_t tsc, aperf, mperf;
    uint32_t fault;      /* PROBE_FAULTED(vector) of the APERF read, 0 when it read */
    bool taken;
};

struct exp_conditions {
    bool recorded;
    /* SMIs */
    bool smi_counter;          /* MSR 0x34 read before and after */
    uint32_t smi_fault;        /* exception + 1 when the probe faulted; 0 when not tried */
    const char *smi_absent;    /* why there is no counter, when there is none */
    uint64_t smi_before, smi_after;
    bool hiccup_ran;
    uint32_t hiccup_cpu;
    uint64_t hiccup_window_us, hiccups, hiccup_max_ns;
    /* clock */
    bool aperfmperf;           /* CPUID 6 ECX[0] and both reads worked on every CPU */
    uint32_t aperf_fault;      /* exception + 1 of the first failed read */
    uint32_t leaf6_ecx, leaf6_eax;
    uint32_t ncpus;            /* CPUs sampled */
    uint64_t eff_permille_min, eff_permille_max, eff_permille_mean; /* dAPERF/dMPERF x 1000 */
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
/* Readings before and after the experiment's run (tool state). */
void conditions_begin(struct runner *r, struct experiment_record *rec);
void conditions_end(struct runner *r, struct experiment_record *rec);
void conditions_release(struct experiment_record *rec);

/* The TSC ticks a hiccup detector counts as a gap, and the detector itself (pure: host-tested). */
uint64_t hiccup_scan(uint64_t (*clock)(void *ctx), void *ctx, uint64_t window_ticks,
                     uint64_t threshold_ticks, uint64_t *max_gap);

#endif
