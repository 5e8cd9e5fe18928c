/*
 * The machine of an aarch64 report, in show's 80 columns: what replaces x86's
 * CPUID, microcode and TSC lines. The counter's rate is what turns the
 * experiments' counter_ticks into the times below it (model.h: tsc_hz).
 */
#include "reports/tool/show/show_arm64.h"

#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")
#define SHOW_ARM_WIDTH 80

static void line(FILE *out, const char *label, const char *text)
{
    units_print_wrapped(out, label, "          ", text, SHOW_ARM_WIDTH);
}

void show_arm64_machine(const struct m_report *r, FILE *out)
{
    const json_t *fw = jget_object(r->root, "firmware"), *cpu = jget_object(r->root, "cpu");
    const json_t *method = jget_object(r->root, "method"), *feat = jget_object(cpu, "features");
    const json_t *uefi = jget_object(fw, "uefi"), *acpi = jget_object(fw, "acpi");
    char b[200];
    snprintf(b, sizeof(b), "%s rev %s; ACPI OEM \"%s\", FADT ARM boot flags %s",
             S(jget_string(uefi, "vendor")), S(jget_string(uefi, "revision")),
             S(jget_string(acpi, "oem_id")), S(jget_string(acpi, "fadt_arm_boot_flags")));
    line(out, "Firmware  ", b);
    /* QEMU's -cpu max has implementer 0x00, which names no one */
    snprintf(b, sizeof(b), "aarch64, MIDR %s: implementer %s (%s), part %s, variant %lld, "
             "revision %lld", S(r->midr), S(r->implementer),
             r->implementer_name ? r->implementer_name : "unnamed", S(jget_string(cpu, "part")),
             jget_int(cpu, "variant", -1), jget_int(cpu, "revision", -1));
    line(out, "CPU       ", b);
    snprintf(b, sizeof(b), "EL%lld, TLBI %s forms; TLBI OS %s, TLBI range %s",
             r->exception_level, r->tlbi_el && strcmp(r->tlbi_el, "el2") == 0 ? "VAE2" : "VAE1",
             jget_bool(feat, "tlbi_os", false) ? "yes" : "no",
             jget_bool(feat, "tlbi_range", false) ? "yes" : "no");
    line(out, "Level     ", b);
    snprintf(b, sizeof(b), "GICv%lld, IPIs as %s, targets %s; PSCI %s over %s",
             r->gic_version, S(r->ipi_method), S(jget_string(method, "target_wait")),
             S(jget_string(method, "psci_version")), S(r->psci_conduit));
    line(out, "GIC       ", b);
    if (r->tsc_hz > 0)
        snprintf(b, sizeof(b), "%.3f MHz (%s): the times below are its ticks in ns",
                 r->tsc_hz / 1e6, S(r->tsc_source));
    else
        snprintf(b, sizeof(b), "frequency unknown: times are in counter ticks only");
    line(out, "Counter   ", b);
    if (r->hypervisor) {
        snprintf(b, sizeof(b), "%s, named by %s (aarch64 has no CPUID hypervisor bit)",
                 r->hypervisor, S(r->hypervisor_source));
        line(out, "Guest     ", b);
    }
}
