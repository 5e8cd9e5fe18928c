/*
 * flush_ceiling: from how many pages one full flush is cheaper than
 * flushing page by page (Linux tlb_single_page_flush_ceiling, 33 since
 * 2014, chosen by Dave Hansen from this comparison on one Intel machine).
 *
 * Method. A flush is paid twice: the invalidation itself, and the TLB
 * misses afterwards to refill what it threw away. So every sample remaps
 * p test pages (testmem_flip) and then times
 *   invlpg        p x INVLPG (the single-page path, whatever p is)
 *   full_cr3      one full flush as Linux does it without INVPCID: a CR3
 *                 write of the current PCID (flush_tlb_local())
 *   full_invpcid  INVPCID single-context, where CPUID and the probe say
 *                 INVPCID works (its own variant)
 * and the refill: reading one word of each of W working-set pages
 * (testmem.h: their own VAs, non-global like user mappings, so a full
 * flush drops them and INVLPG of the test pages does not), by every CPU
 * that flushed. Each iteration takes one sample of every mode, in an order
 * drawn per iteration from the run's order seed (exp_variant_order(): no
 * mode always first, so drift and the state one mode leaves favour none),
 * so each sees the same machine and the samples of an iteration are
 * pairs; the points keep those of their curve's metric (core/run/record.h:
 * `latency` on local points, `work` on shootdown points) and say in
 * `ran_first` how many iterations they began. Three kinds:
 *   local      the initiator alone (targets 0), on its TSC: `latency` =
 *              flush + refill (one CPU: its work and its critical path);
 *   shootdown  to k = 1 target (the nearest in topology order) and to all
 *              other CPUs, concurrent order (Linux >= 5.13). Each target
 *              flushes, acknowledges, then refills its W pages, as in Linux,
 *              where the handler acknowledges and the process refills
 *              later; the initiator, once every target acknowledged,
 *              refills its own W pages (its process runs on). Metrics:
 *              `latency`, the initiator's, PTE change to the last
 *              acknowledgement (what a Linux initiator waits for);
 *              `initiator_refill` its own refill and `target_refill` the
 *              slowest target's, each on the refilling CPU's TSC;
 *              `work`, the CPU time the shootdown costs the machine:
 *              the initiator's latency and refill plus, for every target,
 *              its handler (entry to acknowledgement) and its refill,
 *              durations each on the clock of the CPU that took both of
 *              its timestamps, added; `critical_path`, on the initiator's
 *              TSC alone, from the PTE change until its own refill is done
 *              and it has seen every target's refill done (each target
 *              publishes a generation after its refill: no other CPU's
 *              timestamp enters it). The crossover, and so the ceiling, is
 *              found on `work`: a full flush that empties k + 1 TLBs costs
 *              k + 1 refills, which a critical path of parallel refills
 *              hides; p* of the critical path is given beside it.
 * Working sets W: 64 and 512 pages, and the second-level TLB's size for
 * 4 KiB pages from CPUID (cpu.l2_tlb: leaf 2 / 0x18 on Intel, 8000_0006
 * on AMD; at most TEST_WS_PAGES), each contiguous, and W = 512 (the
 * working set the recommendation reads, recommend.h) also scattered and
 * cold (`working_set_form`):
 *   contiguous      consecutive VAs on consecutive frames of a 1 MiB pool,
 *                   page tables and data left in the caches: walks hit
 *                   cached page tables, and Zen's PTE coalescing may merge
 *                   entries: the lower bound of the refill cost, which
 *                   pushes p* down;
 *   scattered_cold  every page on its own frame, scattered over 16 MiB (no
 *                   two adjacent), and the page tables cold: before each
 *                   sample the initiator flushes the lines of the working
 *                   set's page-table entries (every level) out of every
 *                   CPU's caches with CLFLUSH (testmem_ws_chill()): the page
 *                   tables are shared, so one CPU's flush makes every
 *                   refill's walks go to memory, while the pages' data stay
 *                   cached (the refill pays cold walks, not data misses).
 *                   Not by reading a buffer larger than the last-level
 *                   cache: every refilling CPU would have to (private
 *                   caches), some 50 MiB per CPU per sample, which is 80
 *                   times the experiment's time under QEMU and more than
 *                   its share of run_budget_s on a large machine. The other
 *                   bound. Without memory for it the form is not measured
 *                   (a note says so).
 * Page counts p: 1..512, dense around 16-64 where Linux's 33 sits. Each
 * point records latency and its p25/p75 (values p25, p75; on shootdown
 * points also work_p25, work_p75); the summary gives, per kind, targets,
 * working set, form and full mode, the crossover p* (core/run/crossover.h:
 * the smallest p from which the full flush's median stays below INVLPG's;
 * on `latency` for local, `work` for shootdowns, whose summaries add
 * p_star_critical, on `critical_path`) with its 95% paired-bootstrap
 * interval (values p_star_low, p_star_high: the iterations of every page
 * count resampled, p* found again in each replicate), the p25-p75 noise
 * band around it, a confidence that follows from the interval and the
 * page counts measured (pages_measured). The recommendation
 * (core/run/recommend.c) weighs the local and the shootdown curves of the
 * contiguous form, with the same intervals, and names the cold form's
 * local p*.
 *
 * Samples: a twentieth of the profile's (10 to 50), warm-up a twentieth of
 * its warm-up but at least FC_MIN_WARMUP (2: a point's first iteration
 * meets cold caches): 22 page counts x 4 (working set, form) x 3 kinds x
 * 2-3 modes is the largest grid of the run (on hardware seconds; the
 * p25-p75 band needs no more). Planned (run_budget_s): the curves, then
 * the page counts a budget leaves, never fewer than 3 counts a curve (a
 * curve left out says so, never "no crossing"), and what the share has
 * left after them: core/exp/flush_ceiling_plan.c. The quick profile
 * measures p = 1, 16, 32, 33, 34, 64, 512 and W = 64, 512 only, whatever
 * the CPU, so its points are the same on every machine (tests/qemu/shape.jq).
 *
 * Verification: before a point the initiator and the targets read the p
 * pages; after every sample the initiator (and, after its refill, each
 * target) reads them again: an old signature is FAILURE. Needs non-global
 * test pages (global_pages=on is SKIP: a "full flush" of kernel mappings
 * is a different instruction).
 */
#include "core/exp/flush_ceiling.h"

#include "asm/cpu.h"
#include "asm/features.h"
#include "core/lib/atomic.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

const uint32_t fc_pages_default[FC_MAX_P] = { 1,  2,  4,  8,  12, 16, 20, 24,  28,  30,  32,
                                              33, 34, 36, 40, 48, 64, 96, 128, 256, 384, 512 };
static const uint32_t pages_quick[] = { 1, 16, 32, 33, 34, 64, 512 };

const char *const fc_mode_names[FC_NMODES] = { "invlpg", "full_cr3", "full_invpcid" };
/* indexed by enum ws_form: the scattered form is measured cold */
const char *const fc_form_names[2] = { "contiguous", "scattered_cold" };
/* the cold form's one working set: RECOMMEND_TYPICAL_WS, the one the recommendation reads */
#define COLD_WS 512u

static uint32_t flush_ceiling_samples(uint32_t samples)
{
    uint32_t s = samples / 20;
    return s < 10 ? 10 : s > 50 ? 50 : s;
}

static bool fc_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    *emulated = false;
    if (!runner_need_test_region(r, reason, cap) || !runner_need_user_mappings(r, reason, cap))
        return false;
    if (!r->mem->has_ws) {
        fmt_into(reason, cap, "no memory for the %u working-set pages", TEST_WS_PAGES);
        return false;
    }
    return true;
}

static void add_ws(struct fc_state *st, uint32_t w)
{
    uint32_t i;
    if (w > TEST_WS_PAGES)
        w = TEST_WS_PAGES;
    for (i = 0; i < st->nws; i++)
        if (st->ws[i] == w)
            return;
    for (i = st->nws; i > 0 && st->ws[i - 1] > w; i--)
        st->ws[i] = st->ws[i - 1];
    st->ws[i] = w;
    st->nws++;
}

static void fc_notes(struct runner *r, struct experiment_record *rec, struct fc_state *st,
                     bool quick)
{
    const struct l2_tlb_info *l2 = &r->run->cpu.l2_tlb;
    if (l2->entries_4k)
        record_note(rec, "second-level TLB: %u entries for 4 KiB pages (%s)%s", l2->entries_4k,
                    l2->source,
                    quick ? "; the quick profile measures working sets 64 and 512 only"
                    : l2->entries_4k > TEST_WS_PAGES ? "; its working set is capped" : "");
    else
        record_note(rec, "second-level TLB size not reported by CPUID (%s): working sets 64 and "
                         "512 only",
                    r->run->cpu.vendor);
    if (!r->mem->has_ws_scattered)
        record_note(rec, "no memory for the scattered working set (%u frames): the "
                         "scattered_cold form is not measured",
                    TEST_WS_POOL_FRAMES);
    if (st->nmodes == 2)
        record_note(rec, "no INVPCID (CPUID.(07H,0):EBX[10] = %u, EBX = 0x%08x%s): the "
                         "full_invpcid mode is not measured",
                    arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID) ? 1u : 0u,
                    r->run->cpu.evidence.leaf7_ebx,
                    arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID)
                        ? ", but it is not usable (probe or --no-invpcid)"
                        : "");
}

static bool fc_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct fc_state *st = mem_zalloc(sizeof(*st));
    const struct l2_tlb_info *l2 = &r->run->cpu.l2_tlb;
    bool quick = r->run->cfg.profile == PROFILE_QUICK;
    uint32_t m, others, i, points;
    if (!st)
        return false;
    *state = st;
    st->r = r;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    st->sd.ceiling = TEST_PAGES; /* the invlpg mode flushes page by page whatever p is */
    st->order = mem_alloc(r->smp->count * sizeof(uint32_t));
    if (!st->order)
        return false;
    st->norder = runner_targets_in_topology_order(r, 0, st->order, r->smp->count);
    st->pages = quick ? pages_quick : fc_pages_default;
    st->npages = quick ? (uint32_t)(sizeof(pages_quick) / sizeof(pages_quick[0])) : FC_MAX_P;
    for (i = 0; i < st->npages; i++)
        if (st->pages[i] <= r->run->cfg.ceiling)
            st->anchor = i;
    add_ws(st, 64);
    add_ws(st, 512);
    if (!quick && l2->entries_4k)
        add_ws(st, l2->entries_4k);
    st->kinds[st->nkinds++] = 0;
    others = st->norder;
    if (others >= 1)
        st->kinds[st->nkinds++] = 1;
    if (others > 1)
        st->kinds[st->nkinds++] = others;
    for (m = 0; m < st->nws; m++)
        st->sets[st->nsets++] = (struct fc_set){ WS_CONTIGUOUS, st->ws[m] };
    if (r->mem->has_ws_scattered)
        st->sets[st->nsets++] = (struct fc_set){ WS_SCATTERED, COLD_WS };
    /* natively only: an emulated INVPCID (emulate=invpcid) would time the emulator */
    st->nmodes = r->run->method.invpcid_probe_ok ? 3 : 2;
    fc_notes(r, rec, st, quick);
    st->samples = flush_ceiling_samples(runner_samples(r));
    st->warmup = runner_warmup(r) / 20;
    if (st->warmup < FC_MIN_WARMUP && !MUTANT(fc_warmup_unfloored))
        st->warmup = FC_MIN_WARMUP;
    for (m = 0; m < st->nmodes; m++) {
        st->lat[m] = mem_alloc(st->samples * sizeof(uint64_t));
        st->refill[m] = mem_alloc(st->samples * sizeof(uint64_t));
        st->own[m] = mem_alloc(st->samples * sizeof(uint64_t));
        st->work[m] = mem_alloc(st->samples * sizeof(uint64_t));
        st->crit[m] = mem_alloc(st->samples * sizeof(uint64_t));
        if (!st->lat[m] || !st->refill[m] || !st->own[m] || !st->work[m] || !st->crit[m])
            return false;
    }
    st->nrows = st->nkinds * st->nsets;
    st->rows = mem_zalloc(st->nrows * sizeof(*st->rows));
    if (!st->rows)
        return false;
    for (i = 0; i < st->nrows; i++) {
        const struct fc_set *set = &st->sets[i % st->nsets];
        st->rows[i].at = (struct fc_where){ st->kinds[i / st->nsets], set->form, set->w };
        st->rows[i].planned = true;
    }
    fc_rank_rows(st->kinds, st->nkinds, st->sets, st->nsets, COLD_WS, st->ws[0], st->rank,
                 &st->rows_core);
    points = st->nrows * (st->npages + FC_MAX_REFINE) * st->nmodes;
    /* the summaries' bootstrap runs in the measurement window: its workspace is taken here */
    return point_list_reserve(&rec->results, points) &&
           point_list_reserve(&rec->summary, st->nrows * (st->nmodes - 1)) &&
           record_reserve_kept(rec, points, st->samples) &&
           boot_work_init(&st->boot, st->samples);
}

/* One (kind, form, working set) as planned: the page counts the plan keeps. */
static bool run_row(struct runner *r, struct experiment_record *rec, struct fc_state *st,
                    struct fc_row *row, uint32_t *done, uint32_t planned)
{
    uint32_t pi;
    for (pi = 0; pi < st->npages; pi++) {
        if (!plan_col_kept(&st->plan, st->npages, pi))
            continue;
        if (!runner_budget_ok(r))
            return false;
        runner_progress(r, (*done)++, planned);
        if (!fc_measure(r, rec, st, row, st->pages[pi], false) &&
            !smp_usable(r->smp, r->run->cfg.initiator))
            return false;
    }
    return true;
}

static void fc_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct fc_state *st = state;
    uint32_t i, done = 0, planned = st->nrows * st->npages;
    if (!fc_plan(r, rec, st))
        goto out;
    planned = st->plan.rows * st->plan.cols;
    for (i = 0; i < st->nrows; i++)
        if (st->rows[i].planned && !run_row(r, rec, st, &st->rows[i], &done, planned))
            goto summaries;
    fc_after_plan(r, rec, st);
summaries:
    if (rec->plan.applied)
        rec->plan.points_added = st->added * st->nmodes;
    for (i = 0; i < st->nrows; i++)
        fc_add_summary(st, rec, &st->rows[i]);
out:
    st->sd.touch_pages = 0;
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, (planned + st->added) * st->nmodes, "points");
}

static void fc_cleanup(struct runner *r, void *state)
{
    struct fc_state *st = state;
    uint32_t m;
    (void)r;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    mem_free(st->order);
    for (m = 0; m < FC_NMODES; m++) {
        mem_free(st->lat[m]);
        mem_free(st->refill[m]);
        mem_free(st->own[m]);
        mem_free(st->work[m]);
        mem_free(st->crit[m]);
    }
    mem_free(st->rows);
    boot_work_release(&st->boot);
    mem_free(st);
}

const struct experiment exp_flush_ceiling = {
    .id = "flush_ceiling",
    .title = "Flush ceiling: p single-page flushes vs one full flush, each with the refills after",
    .x_axis = "pages",
    .series = "mode",
    .supported = fc_supported,
    .prepare = fc_prepare,
    .run = fc_run,
    .cleanup = fc_cleanup,
};
