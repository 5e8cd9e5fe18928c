/*
 * The aarch64 report's method.psci_functions and method.handback (reports/SCHEMA.md,
 * "aarch64 reports"): what the check before CPU_ON found, and what the end of the run gave
 * back to the firmware (core/exp/arm64/handback.c, efi/arm64/main.c hand_back).
 */
#include "core/report/report_arm64.h"
#include "core/lib/json.h"

void a64_write_psci_and_handback(struct json_writer *w, const struct arm64_run *run)
{
    const struct a64_handback *h = &run->handback;
    uint32_t i;
    if (run->psci_checked) {
        jw_key(w, "psci_functions");
        jw_object_begin_inline(w);
        jw_kv_bool(w, "cpu_on", run->psci.cpu_on);
        jw_kv_bool(w, "cpu_off", run->psci.cpu_off);
        jw_kv_bool(w, "affinity_info", run->psci.affinity_info);
        jw_object_end(w);
    }
    if (!h->ran)
        return;
    jw_key(w, "handback");
    jw_object_begin_inline(w);
    jw_kv_u64(w, "cpus_off", h->cpus_off);
    jw_key(w, "cpus_not_off");
    jw_array_begin_inline(w);
    for (i = 0; i < h->cpus_not_off; i++)
        jw_u64(w, h->not_off[i]);
    jw_array_end(w);
    jw_kv_u64(w, "deadline_ms", h->deadline_ms);
    jw_kv_u64(w, "gic_unsettled", h->gic_unsettled);
    if (h->machine) {
        jw_kv_bool(w, "gic_distributor_restored", h->dist_restored);
        jw_kv_bool(w, "ttbr0_restored", h->ttbr0_restored);
        jw_kv_bool(w, "vbar_restored", h->vbar_restored);
        jw_kv_u64(w, "pages_freed", h->pages_freed);
        jw_kv_u64(w, "pages_kept", h->pages_kept);
    }
    jw_object_end(w);
}
