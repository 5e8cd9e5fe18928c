#include "sim/profiles.h"

#include <string.h>

const struct sim_profile *sim_profile_find(const char *name)
{
    unsigned i;
    for (i = 0; i < sim_profile_count; i++)
        if (strcmp(sim_profiles[i].name, name) == 0)
            return &sim_profiles[i];
    return NULL;
}

void sim_profile_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    const struct sim_profile *p = ctx;
    uint32_t i;
    memset(regs, 0, 4 * sizeof(uint32_t));
    for (i = 0; i < p->nleaves; i++) {
        if (p->leaves[i].leaf == leaf && p->leaves[i].subleaf == subleaf) {
            memcpy(regs, p->leaves[i].regs, 4 * sizeof(uint32_t));
            return;
        }
    }
}

void sim_profile_features(const struct cpu_features *f, struct tlbm_features *out)
{
    memset(out, 0, sizeof(*out));
    out->pge = f->pge;
    out->pcid = f->pcid;
    out->invpcid = f->invpcid;
    out->invlpgb = f->invlpgb;
    out->invlpgb_max_extra = f->invlpgb ? f->invlpgb_max_pages - 1 : 0;
    out->la57 = f->la57;
    out->tce = f->tce;
}

uint32_t sim_profile_errata(const struct sim_profile *p, bool microcode_known, uint32_t microcode)
{
    if (p->invlpg_global_fixed && (!microcode_known || microcode < p->invlpg_global_fixed))
        return TLBM_ERR_INVLPG_IGNORES_GLOBAL;
    return 0;
}

void sim_profile_tlb(const struct sim_profile *p, const struct cpu_features *f,
                     struct sim_tlb_geometry *out)
{
    struct tlbm_config defaults;
    uint32_t regs[4], entries = f->l2_tlb.entries_4k, ways = f->l2_tlb.ways_4k;
    const char *source = f->l2_tlb.source;
    if (!entries || !ways) {
        entries = ways = 0;
        if ((f->vendor_id == VENDOR_AMD || f->vendor_id == VENDOR_HYGON) &&
            f->max_ext_leaf >= 0x80000005u) {
            sim_profile_cpuid((void *)p, 0x80000005u, 0, regs);
            entries = (regs[1] >> 16) & 0xff;
            ways = (regs[1] >> 24) == 0xff ? entries : regs[1] >> 24;
            source = "cpuid_80000005h";
        }
    }
    if (entries && ways && ways <= entries) {
        out->ways = ways;
        out->sets = entries / ways;
        out->source = source;
        return;
    }
    tlbm_config_defaults(&defaults);
    out->sets = defaults.sets;
    out->ways = defaults.ways;
    out->source = "default";
}
