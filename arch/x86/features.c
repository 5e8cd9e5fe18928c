/* The feature query of asm/features.h, from the CPUID bits cpuid_decode() read. */
#include "asm/features.h"

bool arch_has_feature(const struct cpu_features *f, enum arch_feature feat)
{
    switch (feat) {
    case ARCH_FEAT_PCID:
        return f->pcid;       /* CPUID.01H:ECX[17] */
    case ARCH_FEAT_INVPCID:
        return f->invpcid;    /* CPUID.(EAX=07H,ECX=0):EBX[10] */
    case ARCH_FEAT_INVLPGB:
        return f->invlpgb;    /* CPUID.8000_0008H:EBX[3] */
    case ARCH_FEAT_X2APIC:
        return f->x2apic;     /* CPUID.01H:ECX[21] */
    }
    return false;
}

const char *arch_feature_name(enum arch_feature feat)
{
    switch (feat) {
    case ARCH_FEAT_PCID:
        return "pcid";
    case ARCH_FEAT_INVPCID:
        return "invpcid";
    case ARCH_FEAT_INVLPGB:
        return "invlpgb";
    case ARCH_FEAT_X2APIC:
        return "x2apic";
    }
    return "unknown";
}
