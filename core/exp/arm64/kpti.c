/*
 * pti_double_invalidation (aarch64): what KPTI's second TLBI a page costs,
 * x86's PTI question (core/exp/pti.c) on Arm.
 *
 * What Linux does (arch/arm64/include/asm/tlbflush.h, asm/mmu.h): with the
 * kernel unmapped at EL0 (arm64_kernel_unmapped_at_el0(), KPTI) a process
 * has two ASIDs, the kernel's (even) and the user's, the same with bit 0
 * set (USER_ASID_BIT: bit 48 of a TLBI operand). A user address has entries
 * under both: under the kernel's from uaccess, under the user's from EL0.
 * So flush_tlb_page() (__flush_tlb_page_nosync) and __flush_tlb_range_op()
 * issue per page __tlbi(vale1is, addr | asid) and then __tlbi_user(vale1is,
 * ...), the same operand with the user ASID, and one dsb(ish) after the
 * last; __tlbi_user is nothing where KPTI is off. KPTI is on where a CPU is
 * open to Meltdown and, with KASLR (the default), where one lacks FEAT_E0PD
 * (kaslr_requires_kpti(): ID_AA64MMFR2_EL1.E0PD [63:60], cpu.features.e0pd):
 * Neoverse N1 and V1 and Cortex-A72 run KPTI, Neoverse V2 does not. The
 * experiment runs either way (the cost is the hardware's) and says which
 * path Linux takes on this CPU.
 *
 * Method. The test pages non-global (nG: region_set_ng, the flip by
 * invalid + TLBI + DSB, never over a live descriptor); the kernel's ASID K is the current
 * one with bit 0 clear, the user's U = K | 1 (asm/tlbi.h tlbi_user_asid).
 * A sample: every page back to pool A and invalidated; every CPU reads the
 * first p pages, for `kpti` under U and then under K (pt_set_asid: KPTI's
 * switch of ASID, without its switch of tables), so its TLB holds both
 * entries of each page, for `no_kpti` under K alone (one address space);
 * then break-before-make (a64_exp.h region_remap), as Linux's
 * ptep_clear_flush() and set_pte_at(): the BSP makes the p PTEs invalid
 * (DSB ISHST, not timed: ptep_get_and_clear() and the barrier
 * flush_tlb_page() opens with), the timed flush on the BSP's CNTVCT_EL0,
 * from the first TLBI to the end of the ISB (flush_tlb_page()'s TLBIs and
 * dsb(ish); tlbi_flush_broadcast_asid, the code the model runs), then the
 * PTEs to pool B, DSB ISHST, ISB (set_pte_at(), not timed):
 *   no_kpti  TLBI VAE1IS of K per page, DSB ISH, ISB
 *   kpti     TLBI VAE1IS of K and of U per page, DSB ISH, ISB
 * Then the verifier: every CPU reads every remapped page under K and, for
 * kpti, under U too, and must see pool B; the CPUs stay under K. Linux
 * issues VALE1IS (leaf entries only) here; the tool has VAE1IS, one TLBI a
 * page and ASID either way. The two variants of a page count are measured
 * in the same iterations, alternating which goes first.
 *
 * Grid: p = 1, 8, 64, 512 (tlbi_broadcast_vs_ipi's), every CPU holding the
 * pages (a broadcast reaches all; parameter `cpus`). Summary, per p: the
 * second TLBI's cost, `extra` = kpti's p50 minus no_kpti's (ticks; negative
 * where the difference is below the spread), `ratio` and `extra_per_page`,
 * with `linux` the path Linux takes here (kpti without E0PD, no_kpti with).
 * At EL2 (its regime has no ASIDs without HCR_EL2.E2H): SKIP.
 * Paced (a64_pace.h) within a third of an even share of run_budget_s
 * (KPTI_SHARE_PARTS): it times the broadcast tlbi_broadcast_vs_ipi times,
 * once and twice, and the run's length stays what it was without it; the
 * plan's share_ms says what it had.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/tlbi.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"
#include "core/exp/arm64/a64_reps.h"
#include "core/exp/arm64/tlbi_flush.h"
#include "core/mutant.h"

#define NCOUNTS 4
#define KPTI_SHARE_PARTS 3 /* its share: a third of what the others get */
static const unsigned page_counts[NCOUNTS] = { 1, 8, 64, 512 };

enum variant { NO_KPTI, KPTI, VARIANTS };
static const char *const variant_name[VARIANTS] = { "no_kpti", "kpti" };

/* a CPU's side of an ASID switch: arg0 the ASID */
static void fn_set_asid(struct percpu *pc)
{
    pt_set_asid((uint16_t)pc->arg[0]);
}

/* every usable CPU (the BSP too) translates under `asid` from now on; false when one did not answer */
static bool set_asid_everywhere(struct arm64_run *run, uint16_t asid)
{
    unsigned others[MAX_CPUS], k = a64_others(others), i;
    bool ok = true;
    for (i = 0; i < k; i++)
        smp_post(others[i], fn_set_asid, asid, 0, 0);
    pt_set_asid(asid);
    for (i = 0; i < k; i++)
        if (smp_wait(others[i], a64_timeout_ticks(run)) != 0) {
            a64_cpu_lost(run, others[i], "pti_double_invalidation");
            ok = false;
        }
    return ok;
}

/* one flush of a sample (an a64_reps_op's operation: region_remap's window times R of them) */
struct kpti_flush {
    unsigned n;
    uint16_t kasid;
    bool user;
};

static void kpti_flush_once(void *ctx)
{
    const struct kpti_flush *f = ctx;
    /* the mutant names ASID 0, whose by-VA TLBIs leave the kernel ASID's nG entries */
    tlbi_flush_broadcast_asid(rgn.va, f->n, MUTANT(a64_kpti_asid_zero) ? 0 : f->kasid, f->user);
}

/* One sample of `v` over pages [0, n), its flush `reps` times back to back (a64_reps.h): their
 * ticks, 0 when a CPU dropped out. */
static uint64_t sample(struct arm64_run *run, struct experiment_record *e, enum variant v, unsigned n, uint16_t kasid,
                       unsigned reps)
{
    unsigned others[MAX_CPUS], k = a64_others(others);
    uint16_t uasid = tlbi_user_asid(kasid);
    struct kpti_flush f = { n, kasid, v == KPTI };
    struct a64_reps_op op = { kpti_flush_once, &f, reps };
    uint64_t t;
    bool ok = true;
    region_reset();
    if (v == KPTI) /* the user's entries first: the kernel's own come back with the switch to K */
        ok = set_asid_everywhere(run, uasid) && region_warm(run, others, k, 0, n);
    ok = set_asid_everywhere(run, kasid) && region_warm(run, others, k, 0, n) && ok;
    t = region_remap(0, n, 1, a64_reps_window, &op);
    region_verify(run, e, 0, n, 1);
    if (v == KPTI && !MUTANT(a64_kpti_user_unverified)) {
        ok = set_asid_everywhere(run, uasid) && ok;
        region_verify(run, e, 0, n, 1);
        ok = set_asid_everywhere(run, kasid) && ok;
    }
    return ok ? (t ? t : 1) : 0;
}

/* per page count: what the second TLBI added, and the path Linux takes on this CPU */
static void summarise(struct arm64_run *run, struct experiment_record *e, const struct result_point *pts[NCOUNTS][VARIANTS])
{
    unsigned s;
    for (s = 0; s < NCOUNTS; s++) {
        const struct stats *one = pts[s][NO_KPTI] ? point_find_metric(pts[s][NO_KPTI], "latency") : 0;
        const struct stats *two = pts[s][KPTI] ? point_find_metric(pts[s][KPTI], "latency") : 0;
        struct result_point *p;
        int64_t extra;
        if (!one || !two || !one->n || !two->n || !one->p50 || !(p = point_list_add(&e->summary)))
            continue;
        extra = (int64_t)two->p50 - (int64_t)one->p50;
        point_param_num(p, "pages", page_counts[s]);
        point_param_str(p, "linux", run->cpu.e0pd ? "no_kpti" : "kpti");
        point_value(p, "extra", extra * 1000);
        point_value(p, "ratio", (int64_t)(two->p50 * 1000 / one->p50));
        point_value(p, "extra_per_page", extra * 1000 / (int64_t)page_counts[s]);
    }
}

void exp_pti_double_invalidation(struct arm64_run *run, struct experiment_record *e)
{
    const struct result_point *pts[NCOUNTS][VARIANTS] = { { 0 } };
    unsigned others[MAX_CPUS], k = a64_others(others), s, i, v;
    int asid = pt_current_asid();
    uint16_t kasid = (uint16_t)(asid & ~(int)TLBI_USER_ASID_BIT);
    struct a64_pace pace;
    bool paced = false;
    if (asid < 0) {
        record_set_status(e, RESULT_SKIP, "at EL2: its translation regime has no ASIDs without HCR_EL2.E2H, so there "
                                          "is no user ASID to invalidate (Linux's KPTI runs at EL1)");
        e->verification.applicable = false;
        return;
    }
    if (!run->region_ok)
        record_set_status(e, RESULT_ERROR, "no test region (see run.errors)");
    else if ((paced = a64_pace_begin(run, e, &pace, NCOUNTS, VARIANTS)))
        pace.share_ticks /= KPTI_SHARE_PARTS;
    if (paced)
        region_set_ng(true);
    for (s = 0; paced && s < NCOUNTS; s++) {
        unsigned n = page_counts[s];
        uint32_t got[VARIANTS] = { 0, 0 };
        bool whole = true;
        /* one R for both variants of a page count, so their samples stay pairs of like work */
        struct kpti_flush tr = { n, kasid, true };
        struct a64_reps_op trial = { kpti_flush_once, &tr, 1 };
        unsigned r = a64_reps_choose(a64_reps_trial, &trial);
        struct a64_reps reps[VARIANTS] = { { r, 0, 0 }, { r, 0, 0 } };
        a64_pace_point(&pace);
        for (i = 0; a64_pace_more(&pace, i); i++)
            for (v = 0; v < VARIANTS; v++) {
                enum variant which = (enum variant)((v + i) % VARIANTS); /* alternate which goes first */
                uint64_t t = sample(run, e, which, n, kasid, r);
                if (t)
                    pace.buf[which * (size_t)pace.configured + got[which]++] = a64_reps_sample(&reps[which], t);
                else
                    whole = false;
            }
        a64_pace_point_done(&pace, i, whole);
        for (v = 0; v < VARIANTS; v++) {
            struct result_point *p = a64_point_add(e);
            if (!p)
                break;
            point_param_str(p, "variant", variant_name[v]);
            point_param_num(p, "pages", n);
            point_param_num(p, "cpus", k + 1);
            a64_latency(p, pace.buf + v * (size_t)pace.configured, got[v]);
            a64_reps_record(p, &reps[v]);
            pts[s][v] = p;
        }
        if (!whole)
            e->partial = true;
    }
    set_asid_everywhere(run, (uint16_t)asid); /* the ASID each CPU had */
    region_set_ng(false);
    record_note(e, "the test pages non-global; kernel ASID %u, user ASID %u (ASID | 1, Linux's USER_ASID_BIT); "
                "every sample verified by every CPU under the kernel ASID, kpti's under the user ASID too",
                kasid, tlbi_user_asid(kasid));
    record_note(e, "no_kpti: TLBI VAE1IS of the kernel ASID per page + DSB ISH + ISB; kpti: TLBI VAE1IS of the "
                "kernel and of the user ASID per page (Linux's __tlbi_user) + DSB ISH + ISB");
    record_note(e, "R (up to %u, values.reps_per_sample, the same for both variants of a page count) flushes back "
                "to back per sample where kpti's spans under %u ticks, latency their total over R",
                A64_REPS_MAX, A64_REPS_MIN_TICKS);
    record_note(e, "Linux on this CPU: %s: ID_AA64MMFR2_EL1.E0PD [63:60] = %llu (ID_AA64MMFR2_EL1 = 0x%llx)%s",
                run->cpu.e0pd ? "no_kpti (FEAT_E0PD: kaslr_requires_kpti() is false)"
                              : "kpti (no FEAT_E0PD: with KASLR the kernel is unmapped at EL0)",
                (unsigned long long)(run->cpu.mmfr2 >> 60), (unsigned long long)run->cpu.mmfr2,
                run->cpu.e0pd ? "; a CPU open to Meltdown would still run KPTI" : "");
    if (paced) {
        summarise(run, e, pts);
        a64_pace_end(run, e, &pace);
    }
}
