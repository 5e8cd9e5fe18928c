/*
 * tlbi_range: one broadcast TLBI per page (VAE1IS) versus range operations
 * (RVAE1IS, FEAT_TLBIRANGE, Armv8.4), each followed by one DSB ISH and ISB,
 * timed on the BSP (tlbi_flush.c). Every CPU holds the translations before
 * and is verified after, as in tlbi_broadcast_vs_ipi. SKIP, with the ID
 * register as evidence, where ID_AA64ISAR0_EL1.TLB [59:56] < 2.
 *
 * A third method, `asid`: the test pages mapped non-global (nG), so their
 * entries carry the current ASID, and one TLBI ASIDE1IS of that ASID + DSB
 * ISH + ISB drops them all (what Linux's flush_tlb_mm does, and what a
 * range flush falls back to past a threshold). Same warm-up and
 * verification; afterwards the pages are global again. At EL2 (no HCR_EL2.E2H:
 * that regime has no ASIDs) the method is left out, with a note.
 *
 * Every remap is break-before-make (a64_exp.h region_remap, Linux's
 * ptep_clear_flush() then set_pte_at()): the PTEs invalid and DSB ISHST
 * before the timer starts, the timed flush (the TLBIs, DSB ISH and ISB: the
 * window flush_tlb_range() has after its leading dsb(ishst)), then the new
 * PTEs, DSB ISHST and ISB after it stops. The flip to nG and back goes the
 * same way (region_set_ng: invalid, TLBI VMALLE1IS, DSB ISH, then the new
 * attribute), never a live descriptor rewritten.
 * Where one flush spans fewer ticks than the counter resolves well, a sample
 * times R of them back to back (a64_reps.h), latency the total over R.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/paging.h"
#include "asm/smp.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"
#include "core/exp/arm64/a64_reps.h"
#include "core/exp/arm64/tlbi_flush.h"

static const unsigned page_counts[] = { 8, 64, 512 };

/* method m's flush of pages [0, n) (the asid method: of `asid`), once (an a64_reps_op's
 * operation: a sample times R of them) */
struct range_op {
    unsigned m, n;
    int asid;
};
static void range_flush_once(void *ctx)
{
    const struct range_op *op = ctx;
    if (op->m == 0)
        tlbi_flush_broadcast(rgn.va, op->n);
    else if (op->m == 1)
        tlbi_flush_range(rgn.va, op->n);
    else
        tlbi_flush_asid((uint16_t)op->asid);
}

void exp_tlbi_range(struct arm64_run *run, struct experiment_record *e)
{
    static const char *const method_name[3] = { "per_page", "range", "asid" };
    unsigned others[MAX_CPUS], k = a64_others(others);
    unsigned s, m, i;
    struct a64_pace pace;
    int asid = pt_current_asid();
    bool run_ok = true;
    unsigned methods = asid >= 0 ? 3 : 2;
    if (!run->cpu.tlbi_range) {
        record_set_status(e, RESULT_SKIP,
                    "no FEAT_TLBIRANGE: ID_AA64ISAR0_EL1.TLB [59:56] = %llu (ID_AA64ISAR0_EL1 = 0x%llx)",
                    (unsigned long long)((run->cpu.isar0 >> 56) & 0xf), (unsigned long long)run->cpu.isar0);
        e->verification.applicable = false;
        return;
    }
    if (!run->region_ok)
        record_set_status(e, RESULT_ERROR, "no test region (see run.errors)");
    else if (!a64_pace_begin(run, e, &pace, methods * sizeof(page_counts) / sizeof(page_counts[0]), 1))
        run_ok = false;
    for (s = 0; run_ok && run->region_ok && s < sizeof(page_counts) / sizeof(page_counts[0]); s++)
        for (m = 0; m < methods; m++) {
            unsigned n = page_counts[s];
            struct range_op op = { m, n, asid };
            struct a64_reps_op flush = { range_flush_once, &op, 1 };
            struct a64_reps reps = { a64_reps_choose(a64_reps_trial, &flush), 0, 0 };
            struct result_point *p;
            flush.reps = reps.reps; /* the trials done: a sample's window runs R */
            region_set_ng(m == 2);
            a64_pace_point(&pace);
            for (i = 0; a64_pace_more(&pace, i); i++) {
                k = a64_others(others);
                region_reset();
                if (!region_warm(run, others, k, 0, n))
                    e->partial = true;
                pace.buf[i] = a64_reps_sample(&reps, region_remap(0, n, 1, a64_reps_window, &flush));
                region_verify(run, e, 0, n, 1);
            }
            a64_pace_point_done(&pace, i, true);
            p = a64_point_add(e);
            if (!p)
                break;
            point_param_str(p, "method", method_name[m]);
            point_param_num(p, "pages", n);
            a64_latency(p, pace.buf, i);
            a64_reps_record(p, &reps);
        }
    region_set_ng(false);
    if (run_ok && run->region_ok)
        a64_pace_end(run, e, &pace);
    record_note(e, "%u CPUs hold the pages and verify every sample", k + 1);
    record_note(e, "R (up to %u, values.reps_per_sample) flushes back to back per sample where one spans under "
                "%u ticks, latency their total over R; values.mean_per_op to a thousandth of a tick",
                A64_REPS_MAX, A64_REPS_MIN_TICKS);
    if (asid >= 0)
        record_note(e, "asid: the test pages non-global under ASID %d, one TLBI ASIDE1IS + DSB ISH", asid);
    else
        record_note(e, "asid: not measured at EL2 (its translation regime has no ASIDs without HCR_EL2.E2H)");
}
