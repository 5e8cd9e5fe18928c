/*
 * Everything one run knows, from configuration to results: the single model
 * that the report writer (JSON and text) serialises.
 */
#ifndef TLBSCOPE_CORE_RUN_H
#define TLBSCOPE_CORE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpuid.h"
#include "core/run/config.h"
#include "core/machine/cpu_errata.h"
#include "core/machine/cpu_table.h"
#include "core/firmware/firmware_info.h"
#include "core/lib/msglist.h"
#include "core/run/netinfo.h"
#include "core/run/record.h"
#include "core/run/redact.h"
#include "core/run/result.h"
#include "core/run/version.h"


enum tsc_source { TSC_SRC_UNKNOWN = 0, TSC_SRC_CPUID_15H, TSC_SRC_CPUID_16H, TSC_SRC_PM_TIMER,
                  TSC_SRC_FIRMWARE_STALL, TSC_SRC_HOST_CLOCK };

#define SIM_MAX_ERRATA 4

/*
 * Set by tlbscope-sim only: the run happened on the strict TLB model
 * (sim/), not on a machine. Every output labels such a run simulated; its
 * timings are the host's, not any CPU's.
 */
struct simulation_info {
    bool simulated;
    const char *model;        /* TLBM_MODEL_NAME */
    uint32_t model_version;
    const char *profile;      /* --cpu */
    const char *profile_cpu;  /* what the profile is */
    uint64_t seed;
    uint32_t tlb_sets, tlb_ways;
    const char *tlb_source;   /* where the geometry came from: "cpuid_80000006h", ..., "--tlb" */
    uint32_t errata_count;
    const char *errata[SIM_MAX_ERRATA];
    const char *cpuid_override; /* a profile leaf changed on the command line, or NULL */
    bool microcode_known;       /* what the modelled CPUs' MSR 0x8B reads */
    uint32_t microcode;
    const char *microcode_source; /* where that revision comes from */
    bool la57;                  /* the modelled firmware handed over with CR4.LA57 (--la57) */
};

/*
 * EFER.TCE (AMD's translation cache extension, issue 32 item 5): whether
 * CPUID enumerates it, what the firmware left and what the measurements ran
 * with, over the CPUs that took part (method_collect_tce()).
 */
struct efer_tce_info {
    bool supported;       /* CPUID 8000_0001 ECX[17] */
    bool found;           /* set by the firmware on every CPU that took part */
    bool used;            /* set during the measurements on every CPU that took part */
    uint32_t cpus;        /* CPUs that took part */
    uint32_t cpus_found, cpus_used;
};

/*
 * LFENCE's dispatch serialisation, which the timestamps rely on (issue 32
 * item 8): where it comes from ("architectural", "cpuid_8000_0021",
 * "de_cfg": DE_CFG[1], set as Linux does), found and used as for EFER.TCE.
 */
struct lfence_info {
    const char *source;
    bool found, used;
    uint32_t cpus, cpus_found, cpus_used;
};

/*
 * Where the tool's own protocol spends its time (core/exp/protocol_steps.h):
 * per step the p50 and mean in ticks, on the clock the step names.
 */
enum protocol_step {
    PSTEP_ROUNDTRIP = 0, /* the instrumented IPI round trip (initiator) */
    PSTEP_ICR_WRITE,     /* the ICR write, one closing timestamp in it (initiator) */
    PSTEP_HANDLER,       /* the handler's body to its ack store (target) */
    PSTEP_REST,          /* derived: round trip - ICR write - handler */
    PSTEP_EOI,           /* alone: one EOI write (initiator) */
    PSTEP_WAIT_EXIT,     /* alone: a wait on an ack already visible, and its close (initiator) */
    PSTEP_TIMESTAMPS,    /* alone: an opening and a closing timestamp (initiator) */
    PSTEP_SETTLE,        /* before each ping, outside the window (initiator) */
    PSTEP_SD_LATENCY,    /* the 1-page concurrent shootdown to one target (initiator) */
    PSTEP_SD_SEND,       /* its request slots and ICR write */
    PSTEP_SD_HANDLER,    /* its target's flush handler, entry to ack (target) */
    PSTEP_SD_REST,       /* derived: delivery, entry, the ack's way back, the wait's exit */
    PSTEP_COUNT
};
struct protocol_steps {
    bool ipi, shootdown;       /* which parts were measured */
    uint32_t initiator, target, samples, sd_samples;
    uint64_t p50[PSTEP_COUNT], mean[PSTEP_COUNT];
};

/*
 * The idle state of shootdown_lazy's lazy CPUs: the
 * deepest MWAIT state ipi_target_state verified in this run (residency
 * `reached`; it runs first for that: struct experiment.runs_before), else
 * "sti; hlt". `verified_*` is what ipi_target_state found; `state`,
 * `hint` and `reason` what shootdown_lazy used (written as
 * method.lazy_idle once it ran).
 */
struct lazy_idle_info {
    bool verified;            /* ipi_target_state saw a state reached */
    uint32_t verified_hint;
    char verified_state[24];  /* "mwait_20" */
    char verified_reason[240]; /* its residency verdict's reason */
    bool set;                 /* shootdown_lazy chose (it ran) */
    bool mwait;
    uint32_t hint;
    char state[24];           /* "mwait_20" or "hlt" */
    uint32_t settle_us;       /* how long each lazy CPU slept before a timed shootdown */
    char reason[400];
};

struct method_info {
    const char *apic_mode;       /* "xapic" | "x2apic" */
    const char *apic_mode_reason; /* why that mode (core/run/hw_policy.c) */
    const char *firmware_apic_mode;
    const char *icr_fence;       /* "none" | "mfence;lfence" */
    const char *target_wait;     /* "spin" (busy targets) | "hlt" (under a hypervisor) */
    const char *full_flush;      /* "cr3_reload": Linux flush_tlb_local(), the default */
    const char *full_flush_variant; /* "invpcid_single_context" where INVPCID works, else NULL */
    bool full_flush_emulated;    /* the variant's INVPCID is emulated (emulate=invpcid) */
    const char *page_flush;      /* "invlpg" */
    bool pcid_enabled;           /* CR4.PCIDE during measurements */
    struct efer_tce_info efer_tce;
    struct lfence_info lfence;
    struct lazy_idle_info lazy_idle;
    char pcid_reason[320];       /* why PCID is on or off (core/run/method.c) */
    struct invlpg_global_check pcid_erratum; /* the INVLPG/global erratum's verdict */
    uint64_t cr3_root;           /* the tool's page-table root (no PCID bits) */
    uint32_t kernel_pcid, user_pcid;
    uint32_t paging_levels;      /* 4 or 5 */
    uint64_t timer_overhead_ticks;
    uint32_t test_pages;
    bool invlpgb_probe_ok;       /* INVLPGB + TLBSYNC executed without a fault */
    char invlpgb_probe_note[96];
    bool invpcid_probe_ok;
    /* the seed of each iteration's variant order and of the bootstrap (core/exp/common.h,
     * core/run/bootstrap.h): order_seed= when given, else the run's own (runner_run_all()) */
    uint64_t order_seed;
    bool order_seed_set;
    /* the metrics' own p50 intervals (core/run/record_samples.h): how many, and their cost */
    uint64_t p50_intervals, p50_interval_ticks;
    struct protocol_steps protocol_steps; /* ipi_roundtrip and shootdown_seq_vs_conc fill it */
};

/*
 * The tool's own INIT-SIPI bring-up (efi/ap_boot.c, issue 25): whether it
 * ran, why, where its trampoline lay, and how many APs answered. CPUs it
 * started cannot be handed back to the firmware: the run ends in a reset
 * or a power-off (init_sipi_exit()).
 */
struct init_sipi_info {
    bool used;             /* the fallback (or mp=own) was chosen */
    char reason[160];      /* why: mp=own, MP services absent or failed, APs they did not deliver */
    uint64_t trampoline;   /* physical address of the trampoline page; 0 when none */
    uint32_t requested;    /* APs sent INIT-SIPI-SIPI */
    uint32_t reached_64bit;/* APs that got through the trampoline to 64-bit code */
    uint32_t arrived;      /* APs that checked in */
};

struct run {
    struct config cfg;
    char args_text[CONFIG_MAX_LINE * 2]; /* command line as given */
    bool cfg_file_found;
    struct msg_list errors;   /* ERROR-level problems: the run went on without something */
    struct msg_list warnings; /* configuration problems and other remarks */

    struct firmware_info fw;
    struct cpu_features cpu;
    bool firmware_x2apic;     /* IA32_APIC_BASE.EXTD at entry */
    uint64_t tsc_hz;
    enum tsc_source tsc_source;
    bool microcode_uniform;

    struct cpu_table topo;
    const char *topology_source; /* how package/core/thread were derived */
    const char *l3_source;       /* which CPUID leaf gave the L3 sharing, or "none" */
    bool mp_available;
    char mp_note[160];        /* why the run is single-CPU, when it is */
    struct init_sipi_info init_sipi;
    struct method_info method;
    struct simulation_info sim;
    /* redact=on without redact_key: the key of this report's random tokens, drawn by the
     * platform (efi/platform.c) and never written anywhere */
    uint8_t redact_random_key[REDACT_RANDOM_KEY_LEN];
    bool redact_random_key_set;

    struct experiment_record *experiments;
    uint32_t experiment_count;

    char run_id[64];
    uint32_t run_counter;
    /* 8 hex digits of randomness ending the report's name when it must be unique beyond one
     * stick (uploads, a network boot): drawn once, so every retry uses the same name */
    char name_tag[12];
    struct net_info net;      /* how it booted, where the configuration came from (efi/netboot.c) */
    struct upload_outcome upload; /* filled by efi/upload.c after the machine is handed back */
    uint64_t start_tsc;
    uint64_t duration_ms;
    bool partial;
    enum result result;
};

const char *tsc_source_name(enum tsc_source s);
/*
 * How a run with CPUs started by INIT-SIPI ends: EXIT_SHUTDOWN when asked,
 * else EXIT_RESET (never back to the shell: those CPUs cannot be handed
 * back to the firmware). Other runs: exit= as given.
 */
enum exit_mode run_exit_mode(const struct run *r);
/* Folds experiments and errors into run->result and run->partial. */
void run_conclude(struct run *r);
struct verdict;
/* The run's verdict (core/run/verdict.h) from a concluded run. */
void run_verdict(const struct run *r, struct verdict *v);
/* Base name of the report files, e.g. "20261129-220301-amd-f19m01-0007". */
void run_report_basename(const struct run *r, char *buf, size_t cap);

#endif
