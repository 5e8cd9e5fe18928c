#include "core/machine/cpu_errata.h"

#include <stddef.h>

#include "core/lib/strbuf.h"

/*
 * The models and first fixed microcode revisions of Linux's invlpg_miss_ids[]
 * (arch/x86/mm/init.c, as of "x86/mm: Don't disable PCID when INVLPG has been
 * fixed by microcode"; the revisions are those of Intel's microcode release
 * 20240312, which fixed every affected model). Model numbers as in Linux's
 * arch/x86/include/asm/intel-family.h.
 */
static const struct {
    uint32_t model;
    uint32_t fixed_microcode;
    const char *name;
} invlpg_global_models[] = {
    { 0x97, 0x2e, "Alder Lake (ALDERLAKE)" },
    { 0x9a, 0x42c, "Alder Lake (ALDERLAKE_L)" },
    { 0xbe, 0x11, "Alder Lake-N (ATOM_GRACEMONT)" },
    { 0xb7, 0x118, "Raptor Lake (RAPTORLAKE)" },
    { 0xba, 0x4117, "Raptor Lake (RAPTORLAKE_P)" },
    { 0xbf, 0x2e, "Raptor Lake (RAPTORLAKE_S)" },
};

static int find_model(enum cpu_vendor vendor, uint32_t family, uint32_t model)
{
    size_t i;
    if (vendor != VENDOR_INTEL || family != 6)
        return -1;
    for (i = 0; i < sizeof(invlpg_global_models) / sizeof(invlpg_global_models[0]); i++)
        if (invlpg_global_models[i].model == model)
            return (int)i;
    return -1;
}

uint32_t errata_invlpg_global_fixed(enum cpu_vendor vendor, uint32_t family, uint32_t model)
{
    int i = find_model(vendor, family, model);
    return i < 0 ? 0 : invlpg_global_models[i].fixed_microcode;
}

void errata_check_invlpg_global(const struct cpu_features *f, bool microcode_known,
                                uint32_t microcode, struct invlpg_global_check *out)
{
    int i = find_model(f->vendor_id, f->family, f->model);
    fmt_into(out->cpu, sizeof(out->cpu), "%02x-%02x-%02x", f->family & 0xff, f->model & 0xff,
             f->stepping & 0xff);
    out->listed = i >= 0;
    out->microcode_known = microcode_known;
    out->microcode = microcode_known ? microcode : 0;
    out->fixed_microcode = i >= 0 ? invlpg_global_models[i].fixed_microcode : 0;
    out->model_name = i >= 0 ? invlpg_global_models[i].name : NULL;
    out->affected = i >= 0 && (!microcode_known || microcode < out->fixed_microcode);
}
