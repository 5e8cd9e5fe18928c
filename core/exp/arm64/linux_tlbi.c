/* Linux's arm64 TLB invalidation for an unmap, on this machine: see linux_tlbi.h. */
#include "core/exp/arm64/linux_tlbi.h"

#include "asm/barrier.h"
#include "asm/tlbi.h"
#include "core/mutant.h"

/* MIDR implementer codes (Arm ARM, MIDR_EL1) */
#define ARM 0x41u
#define NVIDIA 0x4eu
#define QCOM 0x51u
#define MICROSOFT 0x6du
#define RV(var, rev) (((var) << 4) | (rev)) /* variant and revision as one number, Linux's MIDR_CPU_VAR_REV */
#define ALL RV(0, 0), RV(0xf, 0xf)

/*
 * arm64_repeat_tlbi_list (arch/arm64/kernel/cpu_errata.c): the CPUs on which Linux follows its
 * broadcast TLBIs' DSB ISH with TLBI VALE1IS, XZR and another DSB ISH. Erratum 4118414 and its
 * siblings (a broadcast TLBI's DSB may complete before writes translated by the entry are
 * globally observed, CVE-2025-10263), every revision, in Arm's parts, NVIDIA Olympus and
 * Microsoft's Azure Cobalt 100 (a Neoverse N2 under its own implementer code); the older
 * entries by revision: Cortex-A76 r0p0-r3p0 (1286807), Qualcomm Kryo4xx Gold rcpe-rfpe (its
 * A76 r0p0-r3p0), Cortex-A55 (2441007), Cortex-A510 r0p0-r1p1 (2441009), Qualcomm Falkor v1
 * r0p0 and every Kryo (part 0x2XX: Linux's is_kryo_midr) (Falkor 1009). No entry has fixed
 * revisions named by REVIDR_EL1, so the MIDR alone decides, as in Linux.
 */
static const struct {
    unsigned implementer, part, part_mask, rv_min, rv_max;
    const char *name, *erratum;
} repeat_parts[] = {
    { ARM, 0xd0b, 0xfff, ALL, "Arm Cortex-A76", "4193800" },
    { ARM, 0xd0e, 0xfff, ALL, "Arm Cortex-A76AE", "4193801" },
    { ARM, 0xd0d, 0xfff, ALL, "Arm Cortex-A77", "4193798" },
    { ARM, 0xd41, 0xfff, ALL, "Arm Cortex-A78", "4193791" },
    { ARM, 0xd42, 0xfff, ALL, "Arm Cortex-A78AE", "4193793" },
    { ARM, 0xd4b, 0xfff, ALL, "Arm Cortex-A78C", "4193794" },
    { ARM, 0xd47, 0xfff, ALL, "Arm Cortex-A710", "4193788" },
    { ARM, 0xd44, 0xfff, ALL, "Arm Cortex-X1", "4193791" },
    { ARM, 0xd4c, 0xfff, ALL, "Arm Cortex-X1C", "4193792" },
    { ARM, 0xd48, 0xfff, ALL, "Arm Cortex-X2", "4193788" },
    { ARM, 0xd4e, 0xfff, ALL, "Arm Cortex-X3", "4193786" },
    { ARM, 0xd82, 0xfff, ALL, "Arm Cortex-X4", "4118414" },
    { ARM, 0xd85, 0xfff, ALL, "Arm Cortex-X925", "4193781" },
    { ARM, 0xd8c, 0xfff, ALL, "Arm C1-Ultra", "4118414" },
    { ARM, 0xd90, 0xfff, ALL, "Arm C1-Premium", "4118414" },
    { ARM, 0xd0c, 0xfff, ALL, "Arm Neoverse N1", "4193800" },
    { ARM, 0xd49, 0xfff, ALL, "Arm Neoverse N2", "4193789" },
    { ARM, 0xd40, 0xfff, ALL, "Arm Neoverse V1", "4193790" },
    { ARM, 0xd4f, 0xfff, ALL, "Arm Neoverse V2", "4193787" },
    { ARM, 0xd84, 0xfff, ALL, "Arm Neoverse V3", "4193784" },
    { ARM, 0xd83, 0xfff, ALL, "Arm Neoverse V3AE", "4193784" },
    { NVIDIA, 0x010, 0xfff, ALL, "NVIDIA Olympus", "T410-OLY-1029" },
    { MICROSOFT, 0xd49, 0xfff, ALL, "Microsoft Azure Cobalt 100", "4193789" },
    { ARM, 0xd05, 0xfff, ALL, "Arm Cortex-A55", "2441007" },
    { ARM, 0xd46, 0xfff, RV(0, 0), RV(1, 1), "Arm Cortex-A510 r0p0-r1p1", "2441009" },
    { QCOM, 0x804, 0xfff, RV(0xc, 0xe), RV(0xf, 0xe), "Qualcomm Kryo4xx Gold rcpe-rfpe", "1286807" },
    { QCOM, 0x800, 0xfff, RV(0, 0), RV(0, 0), "Qualcomm Falkor v1 r0p0", "Falkor 1009" },
    { QCOM, 0x200, 0xf00, ALL, "Qualcomm Kryo", "Falkor 1009" },
};

void linux_tlbi_choose(const struct arm64_cpu_id *cpu, int asid, struct linux_tlbi *out)
{
    unsigned i, rv = RV(cpu->variant, cpu->revision);
    out->range = cpu->tlbi_range;
    out->ttl = cpu->ttl; /* ID_AA64MMFR2_EL1.TTL, decoded with the other fields (arm64_cpu_decode) */
    out->kpti = !cpu->e0pd && asid >= 0; /* KPTI's user ASID exists at EL1 only */
    out->asid = asid;
    out->repeat = out->repeat_every_revision = false;
    out->repeat_part = out->repeat_erratum = 0;
    for (i = 0; !out->repeat && i < sizeof(repeat_parts) / sizeof(repeat_parts[0]); i++)
        if (repeat_parts[i].implementer == cpu->implementer &&
            (cpu->part & repeat_parts[i].part_mask) == repeat_parts[i].part && rv >= repeat_parts[i].rv_min &&
            rv <= repeat_parts[i].rv_max) {
            out->repeat = true;
            out->repeat_part = repeat_parts[i].name;
            out->repeat_erratum = repeat_parts[i].erratum;
            out->repeat_every_revision = repeat_parts[i].rv_min == RV(0, 0) && repeat_parts[i].rv_max == RV(0xf, 0xf);
        }
}

enum linux_tlbi_path linux_tlbi_path_for(const struct linux_tlbi *l, uint32_t pages)
{
    if ((!l->range && pages >= LINUX_MAX_DVM_OPS) || pages > LINUX_MAX_TLBI_RANGE_PAGES)
        return LINUX_TLBI_MM;
    return l->range && pages > 1 ? LINUX_TLBI_RANGE : LINUX_TLBI_PER_PAGE;
}

/* the ASID field: the kernel's, or under KPTI the user's for the second TLBI */
static uint16_t asid_of(const struct linux_tlbi *l, bool user)
{
    uint16_t asid = l->asid >= 0 ? (uint16_t)l->asid : 0;
    return user ? tlbi_user_asid(asid) : asid;
}

static void leaf_page(const struct linux_tlbi *l, uint64_t va)
{
    /* the mutant names level 2: the entry is elsewhere, the TLBI need not drop the leaf */
    unsigned ttl = !l->ttl ? TLBI_TTL_NONE : MUTANT(arm_linux_ttl_wrong_level) ? (1u << 2) | 2u : TLBI_TTL_4K_L3;
    tlbi_va_last_is(va, asid_of(l, false), ttl);
    if (l->kpti)
        tlbi_va_last_is(va, asid_of(l, true), ttl);
}

/*
 * __flush_tlb_range_op() with FEAT_TLBIRANGE: SCALE from 3 down, each taking as many of its
 * units (at most 32) as fit in what is left, so the largest ranges go first; a page left
 * alone (or any once SCALE is spent) by VALE1IS.
 */
static void leaf_range(const struct linux_tlbi *l, uint64_t va, uint32_t pages)
{
    int scale = 3;
    while (pages) {
        uint64_t unit, cap, num;
        if (pages == 1 || scale < 0) {
            leaf_page(l, va);
            va += 1ull << TLBI_PAGE_SHIFT;
            pages--;
            continue;
        }
        unit = tlbi_range_pages((unsigned)scale, 0);
        cap = tlbi_range_pages((unsigned)scale, TLBI_RANGE_NUM_MAX);
        num = (pages < cap ? pages : cap) / unit;
        if (num) {
            tlbi_range_last_is_op(va, asid_of(l, false), (unsigned)scale, (unsigned)(num - 1), TLBI_RANGE_TTL_L3);
            if (l->kpti)
                tlbi_range_last_is_op(va, asid_of(l, true), (unsigned)scale, (unsigned)(num - 1),
                                      TLBI_RANGE_TTL_L3);
            va += (num * unit) << TLBI_PAGE_SHIFT;
            pages -= (uint32_t)(num * unit);
        }
        scale--;
    }
}

/* __tlbi_sync_s1ish(): the DSB ISH, then the repeat-TLBI workaround's second TLBI and DSB */
static void sync_s1ish(const struct linux_tlbi *l)
{
    dsb_ish();
    /* the mutant leaves the workaround out on a CPU that needs it (the model counts the dummies) */
    if (l->repeat && !MUTANT(arm_repeat_tlbi_skipped)) {
        tlbi_repeat_dummy_is();
        dsb_ish();
    }
}

void linux_tlbi_batch_flush(const struct linux_tlbi *l, uint64_t va, uint32_t pages)
{
    uint32_t i;
    for (i = 0; i < pages; i++) { /* arch_tlbbatch_add_pending(): each page's, no DSB ISH */
        dsb_ishst();
        leaf_page(l, va + ((uint64_t)i << TLBI_PAGE_SHIFT));
    }
    sync_s1ish(l); /* arch_tlbbatch_flush(): one for the batch */
    isb();
}

enum linux_tlbi_path linux_tlbi_flush(const struct linux_tlbi *l, uint64_t va, uint32_t pages)
{
    enum linux_tlbi_path path = linux_tlbi_path_for(l, pages);
    uint32_t i;
    dsb_ishst(); /* the caller's descriptor stores, visible to every walker before the TLBIs */
    if (path == LINUX_TLBI_MM) {
        /* flush_tlb_mm(): the ASID's non-global entries (at EL2 without ASIDs: the regime's) */
        if (l->asid >= 0) {
            tlbi_asid_is(asid_of(l, false));
            if (l->kpti)
                tlbi_asid_is(asid_of(l, true));
        } else {
            tlbi_all_is();
        }
    } else if (path == LINUX_TLBI_RANGE) {
        leaf_range(l, va, pages);
    } else {
        for (i = 0; i < pages; i++)
            leaf_page(l, va + ((uint64_t)i << TLBI_PAGE_SHIFT));
    }
    sync_s1ish(l);
    isb();
    return path;
}
