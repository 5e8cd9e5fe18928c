/*
 * One tlbscope run on a modelled machine: what efi/main.c and efi/session.c
 * do on a server, with the firmware's part played by the host. The
 * configuration, experiment table, runner, shootdown protocol and report
 * writer are the tool's own (core/); the CPUs are host threads on the strict
 * TLB model (sim/machine.h), the CPUID leaves a recorded server's
 * (sim/profiles.h).
 */
#ifndef TLBSCOPE_SIM_SESSION_H
#define TLBSCOPE_SIM_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/machine.h"
#include "sim/profiles.h"

#define SIM_ARGS_MAX 2048

struct sim_options {
    const struct sim_profile *profile;
    uint32_t cpus;
    uint64_t seed;
    const char *out_dir;
    struct tlbm_config model;   /* sets, ways, errata, speculation, INVLPGB delay */
    bool tlb_given;             /* --tlb: sets and ways as given, not the profile's */
    uint32_t invlpgb_max_pages; /* overrides CPUID 8000_0008 EDX[15:0] + 1; 0: the profile's */
    bool no_invpcid;            /* clears CPUID.(07H,0):EBX[10]: PCID without INVPCID, as in many VMs */
    bool microcode_set;         /* --microcode: every CPU's revision, instead of the profile's */
    uint32_t microcode;
    bool la57;                  /* --la57: the firmware hands over with CR4.LA57 (5-level paging) */
    bool iommu;                 /* --iommu: DMAR (INTR_REMAP) or IVRS: Linux's x2apic_cluster */
    bool shape_given;           /* --shape: packages, L3s, cores per L3, threads (sim/machine.h) */
    struct sim_shape shape;
    bool numa_given;            /* --numa: nodes for the shape, instead of one per package */
    int32_t numa_nodes;
    char args[SIM_ARGS_MAX];    /* key=value pairs, as on the tool's command line */
};

/* Runs the tool; returns the exit status: 0 SUCCESS or SKIP, 1 ERROR or FAILURE, 2 no report. */
int sim_session_run(const struct sim_options *o);

#endif
