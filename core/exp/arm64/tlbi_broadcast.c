/*
 * tlbi_broadcast_vs_ipi: the two ways an aarch64 OS can shoot down a
 * translation, timed on the BSP's CNTVCT_EL0 (tlbi_flush.c, the code the
 * model runs too):
 *   broadcast  TLBI VAE1IS per page, DSB ISH, ISB: the hardware reaches every
 *              CPU of the inner shareable domain (Linux's flush_tlb_range)
 *   ipi_local  an SGI to each of k targets, which run TLBI VAE1 per page,
 *              DSB NSH, ISB and acknowledge; the BSP does the same locally.
 *              With k below every other CPU it is a lower bound, not a
 *              protocol an OS could use: any PE may hold the entry (a
 *              speculative walk needs no access by the program), so a
 *              correct shootdown by IPIs interrupts every CPU; the point's
 *              value lower_bound (1) and a note say so.
 *   broadcast_linux  what Linux's arm64 code issues for the unmap of those
 *              pages on this machine (linux_tlbi.h: mmu_gather's tlb_flush() ->
 *              __flush_tlb_range(), or flush_tlb_mm() past MAX_DVM_OPS without
 *              range TLBI): DSB ISHST inside the window, VALE1IS per page with
 *              the level-3 TTL hint where FEAT_TTL exists or RVALE1IS ranges,
 *              twice under KPTI (no E0PD), DSB ISH, the repeat-TLBI dummy on a
 *              CPU of Linux's list, ISB; the pages non-global under the current
 *              ASID, as a process's are (global at EL2, which has no ASIDs)
 *              (their CPUs in WFI)
 *   broadcast_linux_busy  the same with the k targets in a load/store loop
 *              through the window (a DSB waits for accesses in flight; a CPU
 *              in WFI has none)
 *   batch_linux  Linux's reclaim batching (linux_tlbi_batch_flush): per page
 *              DSB ISHST + its leaf TLBI, one DSB ISH (and the repeat dummy)
 *              for all, ISB
 *   broadcast_os  TLBI VAE1OS per page, DSB OSH, ISB: the outer-shareable
 *              form (FEAT_TLBIOS, ID_AA64ISAR0_EL1.TLB >= 1), left out with
 *              the ID register as evidence where the CPU lacks it
 *   stage2_kvm  at EL2 only, KVM's stage-2 invalidation of the pages' IPAs
 *              under a VMID of the tool's (stage2_tlbi.h), timed alone: no
 *              guest ran, nothing to remap or read back; at the largest
 *              target count only (every other CPU in WFI)
 * (at EL2 the VAE2 forms). A sample: every page back to pool A, invalidated;
 * the BSP and the k targets read the first `pages` pages (their TLBs hold
 * them); then break-before-make, as Linux's ptep_clear_flush() and
 * set_pte_at() (a64_exp.h region_remap): the BSP makes those PTEs invalid
 * and issues DSB ISHST (not timed: ptep_get_and_clear() and the barrier
 * flush_tlb_page() opens with, which broadcast_linux issues again inside
 * its window, as Linux counts it, with nothing left to drain), the timed
 * shootdown, from the first TLBI (broadcast_linux: its DSB ISHST) or SGI to
 * the DSB ISH's completion or the last acknowledgement, then the PTEs to
 * pool B, DSB ISHST, ISB (not timed: set_pte_at()); busy_linux's targets
 * start their loop before the window and stop it after, outside it too. Then
 * the verifier: every CPU, targets or not, reads every remapped page and
 * must see pool B (the old frame is a stale read, any other value a
 * conflict, a64_verify.h); after ipi_local only the BSP and its targets
 * read. With fewer targets than every other CPU, ipi_local's window leaves
 * the others' entries, and a new descriptor over them would break
 * break-before-make (a PE may hold the old entry and the new one: a TLB
 * conflict abort or an amalgamated entry), so after the window and before
 * the new descriptors an untimed TLBI VAE1IS per page and DSB ISH complete
 * the break for them: the timed shootdown is still the SGIs' alone.
 * Where one flush of a broadcast method (broadcast, broadcast_os and the
 * three Linux ones) spans fewer ticks than the counter resolves well
 * (a64_reps.h: real Arm servers tick at 10-40 ns), its sample times R of them
 * back to back, latency the total over R: all R inside the one
 * break-before-make (the PTEs invalid throughout, the new ones stored and
 * every CPU verified after the last), busy_linux's targets looping through
 * all of them; the first drops the CPUs' entries, the others find them gone,
 * as a repeated flush of the same pages does (Linux's sequence whole each
 * time, its DSB ISHST and repeat dummy too). ipi_local stays single-shot: a
 * round of SGIs and acknowledgements spans many ticks, and a repeat would
 * be another round trip, not the same flush.
 */
#include "core/exp/arm64/experiments.h"

#include "asm/barrier.h"
#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "asm/tlbi.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_pace.h"
#include "core/exp/arm64/busy_targets.h"
#include "core/exp/arm64/linux_tlbi.h"
#include "core/exp/arm64/a64_reps.h"
#include "core/exp/arm64/stage2_tlbi.h"
#include "core/exp/arm64/tlbi_flush.h"
#include "core/mutant.h"

static const unsigned page_counts[] = { 1, 8, 64, 512 };

/* an IPI target's work: arg0 va, arg1 pages */
static void fn_flush_local(struct percpu *pc)
{
    tlbi_flush_local(pc->arg[0], (uint32_t)pc->arg[1]);
}

enum method { BROADCAST, IPI_LOCAL, BROADCAST_LINUX, BUSY_LINUX, BATCH_LINUX, BROADCAST_OS, STAGE2_KVM, METHODS };

/* one flush of pages [0, n) by a broadcast method, every method but ipi_local (an a64_reps_op's
 * operation: a sample times R of them) */
struct flush_one {
    enum method how;
    const struct linux_tlbi *linux_seq;
    unsigned n;
};
static void flush_once(void *ctx)
{
    const struct flush_one *f = ctx;
    if (f->how == BROADCAST)
        tlbi_flush_broadcast(rgn.va, f->n);
    else if (f->how == BROADCAST_OS)
        tlbi_flush_broadcast_os(rgn.va, f->n);
    else if (f->how == BATCH_LINUX)
        linux_tlbi_batch_flush(f->linux_seq, rgn.va, f->n);
    else if (f->how == STAGE2_KVM)
        stage2_kvm_flush(f->n, f->linux_seq->ttl); /* KVM's TTL hint where Linux's has one */
    else
        linux_tlbi_flush(f->linux_seq, rgn.va, f->n);
}

/* one timed shootdown of pages [0, n) on the BSP and targets[0..k) */
struct shootdown {
    struct arm64_run *run;
    enum method how;
    const struct linux_tlbi *linux_seq;
    const unsigned *targets;
    unsigned k, n;
    bool busy_lost; /* busy_linux: a target did not start or stop its loop */
    unsigned reps;  /* the broadcast methods' flushes back to back (a64_reps.h); ipi_local 1 */
    unsigned others; /* the other CPUs in all: ipi_local's targets fewer, the rest's break untimed */
};

/* region_remap's flush: its ticks, 0 when a target did not answer; busy_linux's targets
 * start their loop before the window and stop it after */
static uint64_t shootdown(void *ctx)
{
    struct shootdown *sd = ctx;
    uint64_t t0, t;
    unsigned i;
    bool ok = true;
    if (sd->how == BUSY_LINUX && !a64_busy_start(sd->run, sd->targets, sd->k))
        sd->busy_lost = true;
    if (sd->how != IPI_LOCAL) {
        struct flush_one f = { sd->how, sd->linux_seq, sd->n };
        /* the mutant times one of Linux's flushes whatever R is, and still divides by R */
        bool one = MUTANT(a64_linux_reps_one_timed) && sd->how >= BROADCAST_LINUX && sd->how <= BATCH_LINUX;
        struct a64_reps_op op = { flush_once, &f, one ? 1 : sd->reps };
        t = a64_reps_time(&op, op.reps);
    } else {
        t0 = ticks();
        for (i = 0; i < sd->k; i++)
            smp_post(sd->targets[i], fn_flush_local, rgn.va, sd->n, 0);
        tlbi_flush_local(rgn.va, sd->n);
        for (i = 0; i < sd->k; i++)
            if (smp_wait(sd->targets[i], a64_timeout_ticks(sd->run)) != 0) {
                a64_cpu_lost(sd->run, sd->targets[i], "tlbi_broadcast_vs_ipi");
                ok = false;
            }
        t = ticks() - t0;
        /* the break complete for the CPUs no SGI reached (Arm ARM, "Using break-before-make
         * when updating translation table entries": the new descriptor only once no PE may
         * hold the old entry, and any PE may, by speculation): a broadcast TLBI of the
         * pages and its DSB ISH, after the window, before region_remap's new descriptors */
        if (sd->k < sd->others)
            tlbi_flush_broadcast(rgn.va, sd->n);
    }
    if (sd->how == BUSY_LINUX && !a64_busy_stop(sd->run, sd->targets, sd->k))
        ok = false;
    return ok ? (t ? t : 1) : 0;
}

/* what broadcast_linux issued here, and why (the report's note; method.linux_tlbi has the flags) */
static void note_linux(const struct arm64_run *run, struct experiment_record *e, const struct linux_tlbi *l)
{
    record_note(e, "broadcast_linux: DSB ISHST, %s%s%s, DSB ISH%s, ISB; from %u pages (%s) TLBI ASIDE1IS "
                   "(flush_tlb_mm)", l->range ? "RVALE1IS ranges (VALE1IS for a page alone)" : "VALE1IS per page",
                l->ttl ? " with the level-3 TTL hint (FEAT_TTL)" : " without a TTL hint (no FEAT_TTL)",
                l->kpti ? ", each again for the user ASID (KPTI: no E0PD)" : "",
                l->repeat ? ", TLBI VALE1IS XZR + DSB ISH" : "", l->range ? LINUX_MAX_TLBI_RANGE_PAGES + 1 : LINUX_MAX_DVM_OPS,
                l->range ? "past MAX_TLBI_RANGE_PAGES" : "MAX_DVM_OPS, no range TLBI");
    record_note(e, "broadcast_linux_busy: broadcast_linux with the k targets in a load/store loop of their own "
                   "lines through the window (broadcast_linux: they wait in WFI)");
    record_note(e, "batch_linux: Linux's reclaim batching, per page DSB ISHST + its leaf TLBI, one DSB ISH%s for "
                   "the batch, ISB", l->repeat ? " + the repeat dummy" : "");
    if (l->repeat)
        record_note(e, "broadcast_linux: the repeat-TLBI workaround applies: MIDR 0x%llx is %s, in Linux's "
                       "arm64_repeat_tlbi_list (erratum %s%s)",
                    (unsigned long long)run->cpu.midr, l->repeat_part, l->repeat_erratum,
                    l->repeat_every_revision ? ", every revision" : "");
    else
        record_note(e, "broadcast_linux: no repeat-TLBI workaround: MIDR 0x%llx (implementer 0x%02x, part 0x%03x) "
                       "is not in Linux's arm64_repeat_tlbi_list",
                    (unsigned long long)run->cpu.midr, run->cpu.implementer, run->cpu.part);
}

void exp_tlbi_broadcast_vs_ipi(struct arm64_run *run, struct experiment_record *e)
{
    static const char *const method_name[METHODS] = { "broadcast", "ipi_local", "broadcast_linux",
                                                      "broadcast_linux_busy", "batch_linux", "broadcast_os",
                                                      "stage2_kvm" };
    unsigned others[MAX_CPUS], nothers = a64_others(others), counts[3], ncounts = a64_target_counts(nothers, counts);
    unsigned c, m, s, i;
    struct a64_pace pace;
    bool paced = false;
    unsigned npages = sizeof(page_counts) / sizeof(page_counts[0]);
    bool s2 = false; /* stage2_kvm measured: EL2, the tool's VMID on every CPU */
    struct linux_tlbi linux_seq;
    linux_tlbi_choose(&run->cpu, pt_current_asid(), &linux_seq);
    if (!run->region_ok) {
        record_set_status(e, RESULT_ERROR, "no test region (see run.errors)");
    } else if (nothers == 0) {
        record_set_status(e, RESULT_SKIP, "one CPU: no other CPU to shoot down");
    } else {
        s2 = run->el == 2 && stage2_kvm_enter(run, e);
        paced = a64_pace_begin(run, e, &pace, (ncounts * (run->cpu.tlbi_os ? BROADCAST_OS + 1 : BROADCAST_OS) +
                                               (s2 ? 1 : 0)) * npages, 1);
    }
    for (c = 0; paced && c < ncounts; c++)
        for (s = 0; s < npages; s++)
            for (m = 0; m < METHODS; m++) {
                unsigned n = page_counts[s], k = counts[c], got = 0;
                struct flush_one f = { (enum method)m, &linux_seq, n };
                struct a64_reps_op trial = { flush_once, &f, 1 };
                struct a64_reps reps = { 1, 0, 0 };
                struct result_point *p;
                if ((m == BROADCAST_OS && !run->cpu.tlbi_os) || (m == STAGE2_KVM && (!s2 || c + 1 < ncounts)))
                    continue;
                /* R from a trial of the method's flush (a64_reps.h; busy_linux's with its targets
                 * idle, which the loop only slows); ipi_local one round a sample */
                if (m != IPI_LOCAL)
                    reps.reps = a64_reps_choose(a64_reps_trial, &trial);
                /* Linux's pages are a process's: non-global under its ASID (EL1); the flip
                 * by break-before-make */
                region_set_ng(m >= BROADCAST_LINUX && m <= BATCH_LINUX && linux_seq.asid >= 0);
                a64_pace_point(&pace);
                for (i = 0; a64_pace_more(&pace, i); i++) {
                    uint64_t t;
                    struct shootdown sd = { run, (enum method)m, &linux_seq, others, 0, n, false, reps.reps,
                                            a64_others(others) };
                    k = sd.others < k ? sd.others : k;
                    sd.k = k;
                    if (m == STAGE2_KVM) { /* no guest ran: nothing to remap or read back */
                        trial.reps = reps.reps;
                        pace.buf[got++] = a64_reps_sample(&reps, a64_reps_time(&trial, reps.reps));
                        continue;
                    }
                    region_reset();
                    if (!region_warm(run, others, k, 0, n))
                        e->partial = true;
                    t = region_remap(0, n, 1, shootdown, &sd);
                    if (sd.busy_lost)
                        e->partial = true;
                    if (m == IPI_LOCAL) /* only the BSP and the k targets flushed */
                        region_verify_cpus(run, e, 0, n, 1, others, k);
                    else
                        region_verify(run, e, 0, n, 1);
                    if (t)
                        pace.buf[got++] = a64_reps_sample(&reps, t);
                    else
                        e->partial = true;
                }
                a64_pace_point_done(&pace, got, got == i);
                p = a64_point_add(e);
                if (!p)
                    break;
                point_param_str(p, "method", method_name[m]);
                point_param_num(p, "pages", n);
                point_param_num(p, "targets", counts[c]);
                a64_latency(p, pace.buf, got);
                if (m == IPI_LOCAL && counts[c] < nothers)
                    point_value(p, "lower_bound", 1000); /* milli: 1 */
                a64_reps_record(p, &reps);
            }
    region_set_ng(false);
    if (paced)
        a64_pace_end(run, e, &pace);
    if (s2)
        stage2_kvm_leave(run, e);
    record_note(e, "every sample verified by the CPUs it reached reading every remapped page (broadcast: all, ipi_local: "
                   "the BSP and its targets)%s", s2 ? "; stage2_kvm's remap nothing and are not verified" : "");
    record_note(e, "broadcast: TLBI %s per page + DSB ISH; ipi_local: SGI, TLBI %s per page + DSB NSH, ack",
             run->el == 2 ? "VAE2IS" : "VAE1IS", run->el == 2 ? "VAE2" : "VAE1");
    note_linux(run, e, &linux_seq);
    for (i = 0, s = 0; i < nothers; i++)
        s += !a64_sgi_reachable(others[i]);
    if (s) /* no SGI reaches them (run.errors): they see the command by polling their mailbox */
        record_note(e, "ipi_local: %u of the %u other CPUs take the command without an SGI (SGIs do not reach them): "
                    "points that include them time polling, not an IPI", s, nothers);
    if (nothers > 1)
        record_note(e, "ipi_local with fewer targets than the %u other CPUs is a lower bound, not a full protocol: "
                    "any PE may hold the entry by speculation, so an OS must interrupt them all (value lower_bound); "
                    "after its window, before the new descriptors, an untimed TLBI %s per page + DSB ISH completes "
                    "break-before-make for the CPUs it left out", nothers, run->el == 2 ? "VAE2IS" : "VAE1IS");
    record_note(e, "broadcast, broadcast_os, broadcast_linux, broadcast_linux_busy, batch_linux%s: R (up to %u, "
                "values.reps_per_sample) flushes back to back per sample where one spans under %u ticks (a tick: "
                "%llu ps), inside one break-before-make (stage2_kvm remaps nothing), latency their total over R; values.mean_per_op to a "
                "thousandth of a tick; ipi_local single-shot (R 1: a round of SGIs and acknowledgements spans "
                "many ticks, and a repeat would be another round)", s2 ? ", stage2_kvm" : "", A64_REPS_MAX, A64_REPS_MIN_TICKS,
                (unsigned long long)(run->counter_hz ? 1000000000000ull / run->counter_hz : 0));
    if (run->cpu.tlbi_os)
        record_note(e, "broadcast_os: TLBI %s per page + DSB OSH", run->el == 2 ? "VAE2OS" : "VAE1OS");
    else
        record_note(e, "broadcast_os: not measured, no FEAT_TLBIOS: ID_AA64ISAR0_EL1.TLB [59:56] = 0 "
                    "(ID_AA64ISAR0_EL1 = 0x%llx)", (unsigned long long)run->cpu.isar0);
    if (run->region_ok && nothers)
        stage2_kvm_note(run, e, s2, linux_seq.ttl);
}
