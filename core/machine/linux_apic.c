#include "core/machine/linux_apic.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"

static bool fadt_physical(const struct linux_apic_inputs *in)
{
    if (MUTANT(linux_apic_ignores_fadt))
        return false;
    return in->has_fadt && in->fadt_revision >= 2 && (in->fadt_flags & FADT_APIC_PHYSICAL);
}

/* Interrupt remapping that can run in x2APIC mode: what it is, or NULL. */
static const char *x2apic_remapping(const struct linux_apic_inputs *in)
{
    if (in->has_dmar && (in->dmar_flags & DMAR_INTR_REMAP) &&
        !(in->dmar_flags & DMAR_X2APIC_OPT_OUT))
        return "DMAR with INTR_REMAP";
    if (in->has_ivrs)
        return "IVRS (AMD IOMMU)";
    return NULL;
}

const char *linux_apic_mode(const struct linux_apic_inputs *in, char *reason, size_t cap)
{
    const char *ir = x2apic_remapping(in);
    bool phys = fadt_physical(in);
    if (in->cpu_x2apic && (ir || in->hypervisor_kvm)) {
        const char *on = ir ? ir : "KVM offers x2APIC without remapping";
        if (phys) {
            fmt_into(reason, cap, "x2APIC (%s); the FADT sets FORCE_APIC_PHYSICAL_DESTINATION_"
                                  "MODE: x2apic_phys", on);
            return "x2apic_phys";
        }
        if (!ir) {
            fmt_into(reason, cap, "x2APIC (%s) without interrupt remapping: physical "
                                  "destinations only (try_to_enable_x2apic)", on);
            return "x2apic_phys";
        }
        fmt_into(reason, cap, "x2APIC (%s), no FADT physical-mode flag: x2apic_cluster, one "
                              "logical ICR write per cluster of 16 APIC IDs", on);
        return "x2apic_cluster";
    }
    /* recent kernels dropped the logical flat mode: physflat is all 64-bit xAPIC has */
    fmt_into(reason, cap, "xAPIC (%s%s): physflat, one physical ICR write per target",
             !in->cpu_x2apic ? "no x2APIC in CPUID"
                             : "x2APIC without interrupt remapping: Linux turns it off",
             in->firmware_x2apic && in->cpu_x2apic ? ", though the firmware handed over in x2APIC"
                                                   : "");
    return "physflat";
}
