/*
 * The architecture interface's feature query: what core/ asks before it uses
 * an instruction or a mode that only some CPUs (or only some architectures)
 * have. On x86 the answer is CPUID's, decoded once into struct cpu_features
 * (asm/cpuid.h); another architecture answers from its own ID registers and
 * says false for the x86-only features, so an experiment that needs one is
 * SKIP with the reason instead of failing to build or executing an
 * undefined instruction. Whether a present feature is *used* is the run's
 * choice (core/run/method.c: errata, probes, configuration), not this.
 */
#ifndef TLBSCOPE_ARCH_FEATURES_H
#define TLBSCOPE_ARCH_FEATURES_H

#include <stdbool.h>

#include "asm/cpuid.h"

enum arch_feature {
    ARCH_FEAT_PCID,    /* address-space tags in the TLB (x86 PCID; ASIDs elsewhere) */
    ARCH_FEAT_INVPCID, /* invalidation by tag from any address space (x86 INVPCID) */
    ARCH_FEAT_INVLPGB, /* broadcast invalidation of a page range (AMD INVLPGB + TLBSYNC) */
    ARCH_FEAT_X2APIC,  /* the x2APIC's MSR interface and 32-bit destinations */
};

/* True when the CPU that `f` describes has the feature (CPUID says so). */
bool arch_has_feature(const struct cpu_features *f, enum arch_feature feat);
/* The feature's name as reports and messages write it ("pcid", "invlpgb", ...). */
const char *arch_feature_name(enum arch_feature feat);

#endif
