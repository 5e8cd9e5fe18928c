/*
 * The state of one aarch64 run: what the firmware, the CPU and the bring-up
 * found, how the measurements are taken, and every experiment's outcome.
 * efi/arm64/ fills the firmware and bring-up parts, the experiments of
 * core/exp/arm64/ their own records (core/run/record.h's experiment_record,
 * the x86 run's type), and core/report/ writes it all: the report's skeleton
 * and its experiments with x86's code (report_doc.c, experiment_json.c), the
 * sections where the hardware differs with report_arm64.c. Fixed-size
 * arrays, but for the records' points, reserved before an experiment
 * measures.
 */
#ifndef TLBSCOPE_CORE_RUN_ARM64_H
#define TLBSCOPE_CORE_RUN_ARM64_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpu.h"
#include "asm/gic.h"
#include "asm/percpu.h"
#include "asm/psci.h"
#include "core/firmware/firmware_info.h"
#include "core/lib/msglist.h"
#include "core/lib/stats.h"
#include "core/run/config.h"
#include "core/run/netinfo.h"
#include "core/run/platform_kind.h"
#include "core/run/redact.h"
#include "core/run/recommendation.h"
#include "core/run/record.h"
#include "core/run/result.h"
#include "core/run/topo_arm64.h"

#define A64_MAX_TOPO 512  /* MADT GICC entries recorded (started or not): MAX_CPUS, asm/percpu.h */
/* room reserved for an experiment's points (core/run/record.h), before it measures */
#define A64_MAX_POINTS 128
#define A64_MAX_SUMMARY 8
#define A64_MAX_EXPS 10

enum a64_cpu_state { A64_CPU_OK, A64_CPU_ABSENT, A64_CPU_HUNG, A64_CPU_FAULTED, A64_CPU_DISABLED };
/* "ok", "absent", "hung", "faulted", "disabled": the report's topology.cpus[].state */
const char *a64_cpu_state_name(enum a64_cpu_state s);

struct a64_topo_cpu {
    uint64_t mpidr;
    uint32_t uid;
    int percpu;             /* index in percpu[], -1 for a CPU never started */
    enum a64_cpu_state state;
    const char *bring_up;   /* "bsp", "psci" or NULL */
    char note[120];         /* "" for none */
    bool has_fault;
    uint64_t esr, far, elr, vector;
    /* where it sits, for ipi_roundtrip's classes (a64_topology_places) */
    struct a64_place place;
};

/*
 * Set by tlbscope-sim --arch aarch64 only: the run happened on the strict model
 * (sim/arm64/), not on a machine; the report says so (simulated, simulation).
 */
struct a64_simulation {
    const char *model;       /* the model's name */
    uint32_t model_version;
    const char *profile;     /* --cpu */
    const char *profile_cpu; /* what the profile is */
    uint64_t seed;
    const char *id_source;   /* where the profile's ID register values come from (the TRM) */
};

/*
 * The end of the run, before the report (core/exp/arm64/handback.c for the secondaries,
 * efi/arm64/main.c for the BSP's own state): what was given back to the firmware.
 */
struct a64_handback {
    bool ran;              /* the secondaries were handed back (false: never got there) */
    uint32_t deadline_ms;  /* how long AFFINITY_INFO was asked */
    uint32_t cpus_off;     /* secondaries our CPU_OFF turned off (AFFINITY_INFO: OFF) */
    uint32_t cpus_not_off; /* secondaries PSCI still counts on: named in run.errors and their notes */
    uint32_t not_off[MAX_CPUS];  /* their topology indices */
    uint32_t gic_unsettled;      /* secondaries whose GIC restore missed its deadline */
    /* the BSP's part, on a machine only (the model has none of these): the distributor's
     * enables, the firmware's TTBR0 and VBAR, the pages the tool allocated */
    bool machine;
    bool dist_restored, ttbr0_restored, vbar_restored;
    uint32_t pages_freed, pages_kept;
};

struct arm64_run {
    const struct a64_simulation *sim; /* NULL on a machine */
    /* run */
    char id[80];
    char start_time[32]; /* "" when the firmware clock is not plausible */
    bool rtc_plausible;
    uint32_t counter;
    uint64_t start_ticks;
    uint64_t duration_ms;
    bool partial;
    uint32_t samples, warmup, timeout_ms, budget_s;
    /* run_budget_s (x86's meaning, core/run/config.h): the experiments share it
     * (core/exp/arm64/a64_pace.h); 0: every point takes `samples` */
    uint32_t run_budget_s;
    uint64_t budget_end;        /* counter value at which run_budget_s is spent */
    uint32_t experiments_left;  /* experiments still to run, the current one included (exp_loop.h) */
    /* the seed of the metrics' p50 intervals (core/run/bootstrap.h): order_seed= when given,
     * else from the counter at start (method.order_seed) */
    uint32_t order_seed;
    uint64_t p50_intervals, p50_interval_ticks; /* metrics that got one, and their cost */
    /* configuration (core/exp/arm64/a64_config.c): the whole of it as x86's, parsed by the same
     * parser (run.config writes it with the same writer); the fields above and below are what
     * the app takes from it */
    struct config cfg;
    char args[CONFIG_MAX_LINE * 2]; /* the load options' key=value text, "" without */
    bool config_file;          /* \tlbscope\tlbscope.cfg was read */
    const char *profile;       /* "default", "quick", "full" */
    const char *exit_word;     /* "shell", "shutdown", "reset": what the app does at the end */
    struct msg_list errors, warnings;
    struct net_info net;          /* how it booted, where the configuration came from (efi/netboot.c) */
    struct upload_outcome upload; /* upload=: filled by efi/upload.c once the report is safe */
    /* redact=on without redact_key: the key of this report's random tokens, drawn at start
     * (efi/random.c) and never written anywhere */
    uint8_t redact_random_key[REDACT_RANDOM_KEY_LEN];
    bool redact_random_key_set;
    /* firmware */
    char uefi_vendor[64], uefi_revision[24], acpi_oem_id[8];
    bool madt;
    uint16_t fadt_arm_boot_flags;
    bool smbios;
    char sm_manufacturer[64], sm_product[64];
    enum secure_boot_state secure_boot; /* SB_UNKNOWN in the model's runs */
    /* cpu */
    struct arm64_cpu_id cpu;
    const char *hypervisor, *hypervisor_source; /* an emulator the firmware names (QEMU's TCG) */
    /* what the app runs on (core/run/platform_kind.h): a machine, a virtual machine or an
     * emulator, and the evidence; platform_known false in the model's runs */
    bool platform_known;
    struct platform_verdict platform;
    uint64_t counter_hz;
    /* topology */
    const uint8_t *pptt;      /* the firmware's ACPI PPTT (efi/arm64/), NULL without one */
    const uint8_t *srat;      /* the firmware's ACPI SRAT, NULL without one: each CPU's NUMA node */
    /* "pptt" or "mpidr": where topo[].place came from, "+srat" where the SRAT gave every CPU
     * its node (NULL: not yet) */
    const char *class_source;
    uint32_t ntopo;
    bool every_cpu_started; /* every usable MADT CPU has a slot (bringup_arm64.h): IRM SGIs reach only ours */
    struct a64_topo_cpu topo[A64_MAX_TOPO];
    /* method */
    bool psci_hvc;
    char psci_version[16];
    /* the check before any CPU_ON (asm/psci.h psci_smp_check): which functions are there;
     * psci_checked false when it never ran (no FADT flag: nothing asked) */
    bool psci_checked;
    struct psci_caps psci;
    bool psci_smp;             /* the check passed: secondaries started with CPU_ON */
    char psci_refusal[120];    /* why not, when it did not */
    struct a64_handback handback;
    unsigned el;
    /* the counter and the tables as the app set them (method): at EL2 CNTVOFF_EL2 cleared on
     * every CPU, the BSP's value before; the firmware's TTBR0.CnP, which the app's TTBR0
     * clears; at EL1 TCR_EL1.EPD1 as the firmware left it (TTBR1's tables are untouched) */
    bool cntvoff_cleared, ttbr0_cnp_found, tcr_epd1;
    uint64_t cntvoff_found;
    uint32_t test_pages;
    bool region_ok, gic_ok;
    unsigned gic_version; /* 2 or 3 (GICv4 drives as 3), from the MADT; 0 if neither */
    struct gic_security gic_security; /* one security state or two, as gic_init read it */
    /* the MADT's GICR discovery ranges (GICv3 boots; none on the model): how many CPUs'
     * redistributors each holds, and whose tables map it (method.gicr_ranges) */
    unsigned ngicr;
    struct a64_gicr_use {
        uint64_t base, len;
        uint32_t cpus;
        const char *mapped_by; /* "firmware", "tlbscope" (the app's tables), "none" */
    } gicr[GIC_MAX_REDIST_RANGES];
    /* what Linux's arm64 unmap issues on this CPU (core/exp/arm64/linux_tlbi.h): its features
     * as words, "ttl+range+kpti+repeat" ("plain" without any), and why the repeat-TLBI
     * workaround applies or not; "" until the experiments start */
    char linux_tlbi[40];
    char linux_repeat_tlbi[120];
    /* tlbi_broadcast_vs_ipi's stage2_kvm at EL2 (core/exp/arm64/stage2_tlbi.h, method.stage2):
     * the tool's VMID while it ran (0: it did not), the BSP's VTTBR_EL2 before, and whether
     * every CPU got the firmware's VTCR_EL2 and VTTBR_EL2 back */
    uint16_t stage2_vmid;
    uint64_t stage2_vttbr_found;
    bool stage2_restored;
    /* the BSP masks the firmware's interrupts while it measures an IPI experiment, so no
     * firmware timer tick lands in a sample (UEFI's RaiseTPL: efi/arm64/ provides these) */
    uint64_t (*irq_mask)(void);
    void (*irq_restore)(uint64_t token);
    /* the console's progress lines (RUN:, PASS: ...: core/run/exp_loop.h); NULL: none */
    void (*print)(const char *text);
    /* experiments: one record per entry of the table (core/exp/arm64/experiments.c), in its
     * order; those experiments= leaves out have ran == false */
    uint32_t nexp;
    struct experiment_record exps[A64_MAX_EXPS]; /* core/run/record.h, as x86's */
};

/* Every topo[].place and class_source: from the PPTT where it describes every CPU (a
 * malformed or partial one is named in run.warnings), else from the MPIDRs
 * (core/run/topo_run_arm64.c). */
void a64_topology_places(struct arm64_run *run);

/* The GIC's part of the record (core/run/gic_run_arm64.c). After gic_init (init_rc) and the
 * BSP's gic_cpu_init (bsp_rc): gic_version, gic_security, gic_ok and, when the GIC is not
 * usable, a run error that says why (for a write that did not stick: the register and the value
 * it read back). After the secondaries checked in: a run error for each whose own GIC setup
 * failed while the BSP's worked (they answer commands by polling, without SGIs). */
void a64_gic_record(struct arm64_run *run, unsigned madt_version, int init_rc, int bsp_rc);
void a64_gic_check_secondaries(struct arm64_run *run);
/* After gic_init: run->gicr from the n ranges, bit i of fw_mapped / tool_mapped saying whose
 * tables map range i, each counting the CPUs whose percpu[].gicr lies in it */
void a64_gicr_record(struct arm64_run *run, const struct gic_redist_range *range, unsigned n, uint32_t fw_mapped,
                     uint32_t tool_mapped);

/* What the run suggests (core/run/recommend_arm64.c): the report's recommendations. */
void a64_recommend(const struct arm64_run *run, struct recommendations *out);
/* The run's result: the most severe of its experiments'; a partial run is at least ERROR. */
enum result a64_run_result(const struct arm64_run *run);

#endif
