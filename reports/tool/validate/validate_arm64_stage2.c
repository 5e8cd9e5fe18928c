/*
 * method.stage2 (Version 3, optional): what tlbi_broadcast_vs_ipi's stage2_kvm timed at EL2
 * (KVM's __kvm_tlb_flush_vmid_ipa under a VMID of the tool's, core/exp/arm64/stage2_tlbi.h).
 * Its points and the block come together, at EL2 only (a guest kernel cannot issue stage-2
 * TLBIs), and `verified` is false: no guest ran under the tool's stage 2, nothing was read back.
 */
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

static const char *const kvm_functions[] = { "__kvm_tlb_flush_vmid_ipa", NULL };

/* tlbi_broadcast_vs_ipi's stage2_kvm points in the report */
static size_t stage2_points(const json_t *root)
{
    const json_t *exps = json_object_get(root, "experiments");
    size_t i, j, n = 0;
    for (i = 0; i < json_array_size(exps); i++) {
        const json_t *e = json_array_get(exps, i), *results = json_object_get(e, "results");
        const char *id = jget_string(e, "id");
        if (!id || strcmp(id, "tlbi_broadcast_vs_ipi") != 0)
            continue;
        for (j = 0; j < json_array_size(results); j++) {
            const char *m = jget_string(jget_object(json_array_get(results, j), "params"), "method");
            n += m && strcmp(m, "stage2_kvm") == 0;
        }
    }
    return n;
}

void validate_arm64_stage2(struct vctx *c, const json_t *m, const json_t *root, long long el)
{
    size_t mark, points = stage2_points(root);
    bool verified;
    const json_t *s;
    if (points && el != 2)
        vc_error(c, "exception_level", "%lld, but tlbi_broadcast_vs_ipi has %zu stage2_kvm points: stage-2 "
                 "TLBIs are EL2's", el, points);
    s = vc_enter(c, m, "stage2", VF_OPTIONAL, &mark);
    if (!s) {
        if (points)
            vc_error(c, "stage2", "absent, but tlbi_broadcast_vs_ipi has %zu stage2_kvm points", points);
        return;
    }
    if (!points)
        vc_error(c, NULL, "present, but tlbi_broadcast_vs_ipi has no stage2_kvm point");
    vc_int(c, s, "vmid", 1, 255, 0, NULL);
    vc_int(c, s, "ipa_bits", 25, 52, 0, NULL);
    vc_word(c, s, "linux", kvm_functions, 0);
    if (vc_bool(c, s, "verified", 0, &verified) && verified)
        vc_error(c, "verified", "true, but no guest ran under the tool's stage 2: nothing could be read back");
    vc_string(c, s, "why", 0);
    vc_hex(c, s, "vttbr_el2_found", 0);
    vc_bool(c, s, "restored", 0, NULL);
    vc_leave(c, mark);
}
