/*
 * An aarch64 report's method.psci_functions and method.handback (reports/SCHEMA.md,
 * "aarch64 reports", Version 3 additions; both optional: earlier reports have neither).
 * What the check before CPU_ON found, and what the end of the run gave back: the counts
 * must fit the topology, every CPU named as left on must exist, and a run whose PSCI lacks
 * a function it needs has no secondary ok.
 */
#include <limits.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

static void validate_psci_functions(struct vctx *c, const json_t *m, const json_t *root)
{
    static const char *const fns[] = { "cpu_on", "cpu_off", "affinity_info" };
    size_t mark, i;
    bool all = true, have;
    const json_t *f = vc_enter(c, m, "psci_functions", VF_OPTIONAL, &mark);
    if (!f)
        return;
    for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
        if (vc_bool(c, f, fns[i], 0, &have))
            all = all && have;
    vc_leave(c, mark);
    /* without all three the app runs on the BSP alone (it starts nothing it cannot stop) */
    if (!all && jget_number(jget_object(root, "topology"), "cpus_ok", 0) > 1)
        vc_error(c, "psci_functions", "a PSCI function the app needs is missing, but %.0f CPUs are ok",
                 jget_number(jget_object(root, "topology"), "cpus_ok", 0));
}

void validate_arm64_handback(struct vctx *c, const json_t *m, const json_t *root)
{
    static const char *const machine_bools[] = { "gic_distributor_restored", "ttbr0_restored", "vbar_restored" };
    size_t mark, i;
    long long off = -1, cpus = (long long)json_array_size(jget_array(jget_object(root, "topology"), "cpus"));
    const json_t *h, *left;
    validate_psci_functions(c, m, root);
    h = vc_enter(c, m, "handback", VF_OPTIONAL, &mark);
    if (!h)
        return;
    vc_int(c, h, "cpus_off", 0, cpus > 0 ? cpus - 1 : 0, 0, &off);
    vc_int(c, h, "deadline_ms", 1, LLONG_MAX, 0, NULL);
    vc_int(c, h, "gic_unsettled", 0, cpus > 0 ? cpus - 1 : 0, 0, NULL);
    left = vc_member(c, h, "cpus_not_off", VT_ARRAY, 0);
    for (i = 0; left && i < json_array_size(left); i++) {
        const json_t *e = json_array_get(left, i);
        /* topology indices of secondaries: the BSP is never turned off */
        if (!json_is_integer(e) || json_integer_value(e) < 1 || json_integer_value(e) >= cpus)
            vc_error(c, "cpus_not_off", "element %zu is not the index of a secondary CPU of topology.cpus", i);
    }
    if (left && off >= 0 && off + (long long)json_array_size(left) > (cpus > 0 ? cpus - 1 : 0))
        vc_error(c, "cpus_off", "%lld off and %zu left on, but there are %lld secondaries", off,
                 json_array_size(left), cpus > 0 ? cpus - 1 : 0);
    /* the BSP's own state: a machine's runs only (the model has none) */
    for (i = 0; i < sizeof(machine_bools) / sizeof(machine_bools[0]); i++)
        vc_bool(c, h, machine_bools[i], VF_OPTIONAL, NULL);
    vc_int(c, h, "pages_freed", 0, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_int(c, h, "pages_kept", 0, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_leave(c, mark);
}
