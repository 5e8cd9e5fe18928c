/* What the app runs on, from the evidence: see platform_kind.h. */
#include "core/run/platform_kind.h"

#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/mutant.h"

/* KVM's vendor hypervisor UID, w0..w3 (Linux's ARM_SMCCC_VENDOR_HYP_UID_KVM_REG_0..3) */
static const uint32_t kvm_uid[4] = { 0xb66fb428u, 0xe911c52eu, 0x564bcaa9u, 0x743a004du };

static bool names_qemu(const struct platform_evidence *ev)
{
    return (ev->sm_manufacturer && str_eq(ev->sm_manufacturer, "QEMU")) ||
           (ev->acpi_oem_id && str_eq(ev->acpi_oem_id, "BOCHS "));
}

void platform_classify(const struct platform_evidence *ev, struct platform_verdict *out)
{
    bool answered = ev->hyp_uid_answered && !MUTANT(platform_uid_ignored), kvm = answered;
    unsigned i;
    for (i = 0; kvm && i < 4; i++)
        kvm = ev->hyp_uid[i] == kvm_uid[i];
    if (answered) {
        /* a hypervisor answered for itself: the CPUs are real, the firmware's names aside */
        out->kind = PLATFORM_VIRTUALISED;
        out->hypervisor = kvm ? "KVM" : "unnamed";
        fmt_into(out->evidence, sizeof(out->evidence),
                 "SMCCC vendor hypervisor UID %08x-%08x-%08x-%08x%s", ev->hyp_uid[0], ev->hyp_uid[1],
                 ev->hyp_uid[2], ev->hyp_uid[3], kvm ? " (KVM's)" : "");
        return;
    }
    if (names_qemu(ev)) {
        out->kind = PLATFORM_EMULATED;
        out->hypervisor = "QEMU";
        fmt_into(out->evidence, sizeof(out->evidence), "the firmware names QEMU (%s) and no hypervisor answered "
                 "for itself (%s): QEMU's TCG", ev->sm_manufacturer && str_eq(ev->sm_manufacturer, "QEMU")
                 ? "SMBIOS manufacturer" : "ACPI OEM ID BOCHS",
                 ev->hyp_uid_asked ? "no vendor hypervisor UID" : "no SMCCC 1.1 over HVC");
        return;
    }
    if (ev->el == 1 && ev->psci_hvc) {
        out->kind = PLATFORM_VIRTUALISED;
        out->hypervisor = "unnamed";
        fmt_into(out->evidence, sizeof(out->evidence),
                 "PSCI through HVC at EL1: something at EL2 serves it (a machine's firmware uses SMC)");
        return;
    }
    out->kind = PLATFORM_BARE_METAL;
    out->hypervisor = 0;
    fmt_into(out->evidence, sizeof(out->evidence), "%s, no hypervisor answered, the firmware names no emulator",
             ev->el == 2 ? "the app runs at EL2" : "PSCI through SMC");
}

const char *platform_kind_name(enum platform_kind kind)
{
    static const char *const names[] = { "bare_metal", "virtualised", "emulated" };
    return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}
