#include "reports/tool/model/vocab.h"

#include <stdio.h>
#include <string.h>

const char *const vocab_results[] = { "SUCCESS", "SKIP", "ERROR", "FAILURE", NULL };
const char *const vocab_run_status[] = { "complete", "partial", NULL };
const char *const vocab_cpu_states[] = { "ok",   "absent",   "hung",     "faulted",
                                         "slow", "disabled", "excluded", NULL };
const char *const vocab_secure_boot[] = { "unknown", "disabled", "enabled", "setup_mode", NULL };
const char *const vocab_tsc_sources[] = { "unknown", "cpuid_15h", "cpuid_16h",
                                          "calibrated_acpi_pm_timer", "calibrated_firmware_stall",
                                          "host_clock", NULL };
const char *const vocab_test_mappings[] = { "user", "global", NULL };
const char *const vocab_profiles[] = { "default", "quick", "full", NULL };
const char *const vocab_exit_modes[] = { "shell", "shutdown", "reset", NULL };
const char *const vocab_mp_modes[] = { "auto", "firmware", "own", NULL };
const char *const vocab_bring_up[] = { "bsp", "mp_services", "init_sipi", NULL };
const char *const vocab_apic_requests[] = { "auto", "xapic", "x2apic", NULL };
const char *const vocab_emulators[] = { "none", "bochs", NULL };
const char *const vocab_smbios_entry_points[] = { "smbios2", "smbios3", NULL };
/* nearest first, as core/machine/cpu_table.h (issue 21 added same_l3, same_node, cross_node;
 * issue 32 same_package_other_node, the sub-NUMA nodes of one package) */
const char *const vocab_topo_classes[] = { "self",          "smt_sibling", "same_l3",
                                           "same_package",  "same_package_other_node",
                                           "same_node",     "cross_node",  "cross_package", NULL };
const char *const vocab_arm64_topo_classes[] = { "self", "smt_sibling", "same_cluster", "same_package",
                                                 "same_package_other_node", "cross_package", NULL };
const char *const vocab_linux_ipi_modes[] = { "x2apic_cluster", "x2apic_phys", "physflat", NULL };
const char *const vocab_l3_sources[] = { "leaf_4", "leaf_8000001d", "simulated", "none", NULL };
/* nearest_first: invlpgb_range's summary row of its nearest-first sweep */
const char *const vocab_placements[] = { "smt_sibling", "same_l3",    "same_package",
                                         "same_package_other_node",    "same_node",
                                         "cross_node",  "cross_package", "spread",
                                         "nearest_first", NULL };

int vocab_class_rank(const char *cls)
{
    int i = vocab_index(vocab_topo_classes, cls);
    if (i < 0)
        i = vocab_index(vocab_arm64_topo_classes, cls);
    return i < 0 ? 100 : i;
}

int vocab_index(const char *const list[], const char *word)
{
    int i;
    if (!word)
        return -1;
    for (i = 0; list[i]; i++)
        if (strcmp(list[i], word) == 0)
            return i;
    return -1;
}

void vocab_describe(const char *const list[], char *buf, unsigned long cap)
{
    size_t len = 0;
    int i;
    if (!cap)
        return;
    buf[0] = '\0';
    for (i = 0; list[i] && len < cap; i++) {
        const char *sep = i == 0 ? "" : list[i + 1] ? ", " : " or ";
        snprintf(buf + len, cap - len, "%s%s", sep, list[i]);
        len = strlen(buf);
    }
}
