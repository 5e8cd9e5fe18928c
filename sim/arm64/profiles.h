/*
 * The aarch64 CPUs tlbscope-sim --arch aarch64 can model: each one's ID
 * registers as its Technical Reference Manual documents them (the source of
 * every value is in profiles.c beside it). What the model takes from them is
 * what the app takes from the real registers (asm/cpu.h): the MIDR fields and
 * ID_AA64ISAR0_EL1.TLB [59:56] (FEAT_TLBIOS, FEAT_TLBIRANGE), which decide the
 * experiments' methods. The other registers are carried into the report;
 * a value marked unsure in profiles.c decides nothing.
 */
#ifndef TLBSCOPE_SIM_ARM64_PROFILES_H
#define TLBSCOPE_SIM_ARM64_PROFILES_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/cpu.h"

struct a64_profile {
    const char *name;   /* --cpu NAME */
    const char *what;   /* the core and the machines that ship it */
    uint64_t midr, isar0, mmfr0, mmfr1, mmfr2, ctr;
    const char *source; /* the TRM the values come from */
    /* the model's MPIDRs (a64_profile_mpidr): MPIDR_EL1.MT, and how many cores a cluster and
     * clusters a package have (core/run/topo_arm64.h: where each level sits) */
    bool mt;
    unsigned cores_per_cluster, clusters_per_package;
};

extern const struct a64_profile a64_profiles[];
extern const unsigned a64_profile_count;

const struct a64_profile *a64_profile_find(const char *name);
/* CPU i's MPIDR affinity fields (as the MADT lists them; MT is in identify's mpidr): MT = 1,
 * Aff1 the core, Aff2 the cluster, Aff3 the package; MT = 0, Aff0 the core, Aff1 the cluster,
 * Aff2 the package. CPUs fill a cluster, then the next, then the next package. */
uint64_t a64_profile_mpidr(const struct a64_profile *p, unsigned i);
/* what arm64_cpu_identify decodes from the registers, from the profile's values */
void a64_profile_identify(const struct a64_profile *p, struct arm64_cpu_id *c);

#endif
