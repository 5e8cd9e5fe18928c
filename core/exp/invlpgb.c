/*
 * invlpgb_range: AMD's broadcast invalidation against IPI shootdowns.
 *
 * Method. Every other CPU is busy (spinning with interrupts on). A sample
 * remaps the range and invalidates it everywhere with
 *   invlpgb  what Linux 6.15+ issues (path `linux`): up to the ceiling
 *            (tlb_single_page_flush_ceiling, run.config.ceiling) INVLPGB per
 *            chunk of at most the CPU's maximum count (CPUID 8000_0008
 *            EDX[15:0] + 1) until the range is covered, as
 *            broadcast_tlb_flush() loops; above it one INVLPGB of the whole
 *            PCID, since get_flush_tlb_info() has made the flush
 *            TLB_FLUSH_ALL and broadcast_tlb_flush() then calls
 *            invlpgb_flush_single_pcid_nosync(); either way one TLBSYNC, all
 *            on the initiator. Above the ceiling the range in chunks (8 and
 *            64 INVLPGBs for 64 and 512 pages on Zen 3/4) is measured too,
 *            as the labelled alternative (path `chunked`): a path Linux
 *            never runs, so no recommendation rests on it. With pti=on (and
 *            PCID) each INVLPGB twice, for the kernel and the user PCID, as
 *            Linux does under PTI. PTI is off by default (Linux issues the
 *            user-PCID INVLPGB only under PTI, which AMD CPUs run without);
 *            every point names it in its parameter `pti` (on/off);
 *   ipi      the concurrent IPI shootdown of the same range to all CPUs:
 *            INVLPG per 4 KiB or 2 MiB page up to the ceiling, a full flush
 *            (a CR3 write) above it and for the whole-PCID form: Linux's own
 *            path (`linux`), the one INVLPGB's main form is compared with;
 *            its IPIs as Linux sends them here (issue 32, exp_linux_ipis():
 *            x2APIC cluster mode where Linux uses it, `ipi_mode`).
 * Forms: `pages` (1 .. 512 4 KiB pages), `stride_2m` (1 .. 4 2 MiB pages,
 * ECX[31]) and `pcid` (the whole-PCID form, no address). Time: from just
 * after the PTE change to the end of TLBSYNC (or the last ack). The
 * methods of a range (INVLPGB and IPI, and above the ceiling INVLPGB's
 * chunked alternative) are measured together: each iteration takes one
 * sample of each, in an order drawn per iteration from the run's order
 * seed (exp_variant_order(): none always first, so drift and the state
 * one leaves favour none), and the range's points keep those samples
 * (core/run/record.h) for the paired bootstrap of the invlpgb_vs_ipi
 * recommendation and say in `ran_first` how many iterations each began.
 * CPU counts: every form runs on all CPUs (`cpus` = N); the pages form at
 * 1 and 8 pages (one INVLPGB of the Zen 3/4 maximum) also runs for a
 * process active on c = 2, 4, 8, ... < N CPUs: the initiator and the c - 1
 * nearest in topology order (SMT sibling, same package, then remote) spin
 * and read the range; the rest stay parked. INVLPGB reaches every CPU
 * whatever c is, the IPIs only the c - 1: this is the choice Linux makes
 * per process (a global ASID, and INVLPGB, once a process is active on
 * more than 3 CPUs), and where the two cross is the recommendation's
 * smallest CPU count (core/run/recommend.c).
 * Placement (issue 21): the sweep's c - 1 CPUs are the nearest, so its
 * smallest counts are the cheapest IPIs there are. Beside it, at one page,
 * the same sweep with the c - 1 CPUs drawn from one topology class seen
 * from the BSP (core/machine/placement.h: smt_sibling ... cross_package; c = 2, 4
 * ... and 1 + the class's CPUs, at most PLACE_SWEEP counts) and `spread`
 * (round-robin over nodes, packages and L3s, Linux's placement-blind process, at the
 * sweep's counts). Points name it in `placement` (the sweep's have none);
 * a class the BSP lacks is a note. The summary gives, per placement at one
 * page, `cpus_from`: the smallest c from which INVLPGB's p50 beats the
 * IPIs' at every larger c of that placement (absent when it never does:
 * value `cpus_max` says how far it was measured), the nearest-first sweep's
 * too (placement nearest_first, all CPUs its largest c): the one the
 * recommendation reads, and says so (cpus_from_placement), with spread's
 * beside it. Planned as rows of the sweep.
 * Other CPUs' time (core/exp/invlpgb_busy.h): at one page on all CPUs, two
 * rows with every other CPU in busy_ws (targets_doing), unless targets
 * halt: the IPI targets' lost time summed over them (target_lost), and the
 * bystanders' while the initiator loops INVLPGB+TLBSYNC (bystander_lost).
 * Verification after each sample: every CPU of the points reads the range,
 * a 2 MiB page in each of its 4 KiB parts, any of which a CPU may hold as
 * its own entry (core/machine/testmem.h). A parked CPU never reads it; every point
 * starts from a full flush on all CPUs, shootdown_sync_all(), so none
 * carries a stale entry on.
 * Baselines: a TLBSYNC with nothing outstanding (invlpgb), an IPI shootdown
 * with nothing to invalidate (ipi).
 *
 * CPUs: those cpus= selects (the initiator and every other usable one);
 * fewer than 2 is SKIP with the reason: there is no IPI side to compare.
 * Needs INVLPGB (CPUID 8000_0008 EBX[3]); otherwise SKIP with that evidence,
 * unless emulate=invlpgb (test-only) runs it through core/machine/emulate.c: then
 * every number is labelled emulated, and each point records the INVLPGBs and
 * TLBSYNCs the emulator handled while it ran (values emulated_invlpgb,
 * emulated_tlbsync, counted around each sample and baseline of its own
 * method): warm-up plus samples times the INVLPGBs of the path for an
 * invlpgb point (the chunks of the range, or one above the ceiling on the
 * linux path), 0 for an IPI point. They are the evidence that the invlpgb
 * points ran INVLPGB, and which path (tests/qemu/shape.jq checks them
 * exactly).
 */
#include "asm/invlpgb.h"
#include "asm/tlb.h"
#include "core/machine/emulate.h"
#include "asm/cpu.h"
#include "asm/features.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/exp/invlpgb_busy.h"
#include "core/exp/invlpgb_sample.h"
#include "core/exp/invlpgb_summary.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/machine/placement.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

static const uint32_t page_counts[] = { 1, 2, 4, 8, 16, 32, 64, 512 };
static const uint32_t big_counts[] = { 1, 2, 4 };
/* the page counts of the CPU-count sweep: one page, and one INVLPGB of the Zen 3/4 maximum */
static const uint32_t sweep_pages[] = { 1, 8 };
#define NSP (sizeof(sweep_pages) / sizeof(sweep_pages[0]))

static uint32_t max_pages(struct runner *r)
{
    return arch_has_feature(&r->run->cpu, ARCH_FEAT_INVLPGB) ? r->run->cpu.invlpgb_max_pages
                                                             : EMULATED_INVLPGB_MAX_PAGES;
}

static bool ib_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    const struct cpu_features *f = &r->run->cpu;
    if (!runner_need_test_region(r, reason, cap) || !runner_need_user_mappings(r, reason, cap))
        return false;
    /* a comparison with IPIs to the other CPUs: it needs at least one (cpus= included) */
    if (arch_has_feature(f, ARCH_FEAT_INVLPGB) && r->run->method.invlpgb_probe_ok)
        return runner_need_cpus(r, 2, reason, cap);
    if (r->run->cfg.emulate & EMULATE_INVLPGB) {
        *emulated = runner_need_cpus(r, 2, reason, cap);
        return *emulated;
    }
    if (arch_has_feature(f, ARCH_FEAT_INVLPGB))
        fmt_into(reason, cap, "CPUID 8000_0008 EBX[3] says INVLPGB, but it faulted when probed "
                              "(%s)", r->run->method.invlpgb_probe_note);
    else
        fmt_into(reason, cap, "no INVLPGB: CPUID 8000_0008 EBX[3] = 0 (EBX = 0x%08x, EDX = "
                              "0x%08x)%s",
                 f->evidence.ext8_ebx, f->evidence.ext8_edx,
                 f->vendor_id == VENDOR_AMD ? "; AMD has it from Zen 3"
                                            : "; it is an AMD instruction");
    return false;
}

/* The placement sweep's (placement, c): see the method. */
static void ib_placements(struct runner *r, struct experiment_record *rec, struct ib_state *st)
{
    uint32_t pl, counts[MAX_SWEEP_CPUS], n, i;
    if (!runner_placements_differ(r, rec, 0))
        return;
    for (pl = TOPO_FIRST_CLASS; pl < PLACE_COUNT; pl++) {
        uint32_t size = runner_placement_size(r, 0, pl);
        if (!size) {
            if (pl != PLACE_SPREAD)
                record_note(rec, "placement %s skipped: the BSP has no usable CPU of that class",
                            placement_name(pl));
            continue;
        }
        if (pl == PLACE_SPREAD) { /* the sweep's counts: every CPU is the same set anyway */
            for (n = 0; n < st->nsweep; n++)
                counts[n] = st->sweep_cpus[n];
        } else {
            n = runner_power_series(size, counts, MAX_SWEEP_CPUS); /* targets: 1, 2 ... size */
            for (i = 0; i < n; i++)
                counts[i]++; /* CPUs: the initiator too */
        }
        for (i = 0; i < n; i++) {
            if (i >= PLACE_SWEEP - 1 && i != n - 1)
                continue;
            st->placed[st->nplaced] = pl;
            st->placed_cpus[st->nplaced++] = counts[i];
        }
    }
}

static bool ib_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct ib_state *st = mem_zalloc(sizeof(*st));
    uint32_t npoints, c;
    if (!st)
        return false;
    *state = st;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    exp_linux_ipis(r, rec, &st->sd); /* the IPI side as Linux sends it here (issue 32) */
    st->order = mem_alloc(r->smp->count * sizeof(uint32_t));
    if (!st->order)
        return false;
    /* the BSP initiates (target_set_all_others() leaves it out) */
    st->norder = runner_targets_in_topology_order(r, 0, st->order, r->smp->count);
    for (c = 2; c < st->norder + 1 && st->nsweep < MAX_SWEEP_CPUS; c *= 2)
        st->sweep_cpus[st->nsweep++] = c;
    ib_placements(r, rec, st);
    /* two methods per point, and the chunked alternative (at most one per range) */
    npoints = (uint32_t)(3 * (sizeof(page_counts) / sizeof(page_counts[0]) +
                              sizeof(big_counts) / sizeof(big_counts[0])) +
                         2 * (1 + NSP * st->nsweep + st->nplaced) + 2);
    st->pcid_on = r->run->method.pcid_enabled;
    /* busy_ws rows need targets that run, not halt (target_wait hlt: a note) */
    st->busy_rows = !r->smp->halt_waits;
    if (!st->busy_rows)
        record_note(rec, "no busy_ws rows (target and bystander time lost): targets halt "
                         "between requests (target_wait hlt)");
    else if (!ib_busy_init(&st->busy, r->smp->count, runner_samples(r)))
        return false;
    st->max_pages = max_pages(r);
    for (c = 0; c < NMETHODS; c++)
        if (!(st->lat[c] = mem_alloc(runner_samples(r) * sizeof(uint64_t))))
            return false;
    st->base = mem_alloc(exp_baseline_count(r) * sizeof(uint64_t));
    if (!st->base)
        return false;
    record_note(rec, "INVLPGB maximum %u pages per instruction%s", st->max_pages,
                r->emulated ? " (emulated value, as Zen 3/4 report)" : " (CPUID 8000_0008 EDX)");
    if (r->run->cfg.pti && r->run->method.pcid_enabled)
        record_note(rec, "pti=on: every INVLPGB is issued for the kernel and the user PCID");
    else if (r->run->cfg.pti)
        record_note(rec, "pti=on, but no PCID: one INVLPGB per chunk, PCID field unused");
    if (!r->mem->has_2m)
        record_note(rec, "no 2 MiB test pages could be allocated: stride_2m form skipped");
    record_note(rec, "above the ceiling (%u pages) INVLPGB is Linux's one whole-PCID INVLPGB "
                     "(path linux); the range in chunks is path chunked, an alternative Linux "
                     "does not run",
                r->run->cfg.ceiling);
    return point_list_reserve(&rec->results, npoints) &&
           point_list_reserve(&rec->summary, PLACE_COUNT + 1) &&
           record_reserve_kept(rec, npoints, r->run->cfg.samples);
}

static const char *const form_names[] = { "pages", "stride_2m", "pcid" };
static const char *const path_names[] = { "linux", "chunked" };

/*
 * The pilot (run_budget_s, core/run/plan.h; short then long runs, timed) of the
 * pages form, INVLPGB and IPI, of the fewest and of the most pages, and of
 * the most pages in chunks where that is above the ceiling. A point of
 * `count` pages (2 MiB pages: their count; the pcid form: one page) is
 * taken to cost what the pages form costs there, linear in between; the
 * INVLPGB column of a range above the ceiling also carries its chunked
 * alternative. Only samples are reduced: the grid is small and every form
 * is its own question.
 */
#define NPC (sizeof(page_counts) / sizeof(page_counts[0]))
#define NBC (sizeof(big_counts) / sizeof(big_counts[0]))
struct ib_pilot {
    const struct ib_state *st;
    /* ticks per iteration, per method (0: invlpgb, 1: ipi, 2: invlpgb chunked; most only) */
    uint64_t fewest[2], most[3];
};

/*
 * Rows: the pages form, stride_2m, pcid, then the sweep (CPU count major,
 * page count minor), then the placement sweep (one page each).
 */
#define SWEEP_ROW0 (NPC + NBC + 1)
static uint32_t row_count(const struct ib_state *st, uint32_t row)
{
    if (row >= SWEEP_ROW0 + NSP * st->nsweep)
        return 1;
    if (row >= SWEEP_ROW0)
        return sweep_pages[(row - SWEEP_ROW0) % NSP];
    return row < NPC ? page_counts[row] : row < NPC + NBC ? big_counts[row - NPC] : 1;
}

static uint64_t linear(uint64_t fewest, uint64_t most, uint64_t count)
{
    if (most <= fewest)
        return fewest;
    return fewest + (most - fewest) * (count - page_counts[0]) /
                        (page_counts[NPC - 1] - page_counts[0]);
}

static enum form row_form(uint32_t row)
{
    return row < NPC || row >= SWEEP_ROW0 ? FORM_PAGES : row < NPC + NBC ? FORM_STRIDE_2M
                                                                           : FORM_PCID;
}

static uint64_t ib_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct ib_pilot *pl = ctx;
    uint32_t count = row_count(pl->st, row);
    uint64_t c = linear(pl->fewest[col], pl->most[col], count);
    if (col == 0 && row < SWEEP_ROW0 && ib_has_chunked(pl->st, row_form(row), count, 0))
        c += linear(pl->fewest[0], pl->most[2], count);
    return c;
}

struct ib_pilot_point {
    struct ib_state *st;
    uint32_t count;
    enum method method;
};

static bool ib_body(struct runner *r, void *ctx)
{
    struct ib_pilot_point *pp = ctx;
    struct ib_method m[NMETHODS];
    return ib_sample_point(r, pp->st, FORM_PAGES, pp->count, 1u << pp->method, 0, m);
}

static bool ib_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct ib_pilot_point *pp = ctx;
    return exp_pilot_all_others(r, &pp->st->sd, &pp->st->ts, pp->count, iterations, ib_body, pp,
                                ticks);
}

/* The points the run measures: two methods each, and the chunked alternatives. */
static uint32_t planned_points(struct runner *r, const struct ib_state *st)
{
    uint32_t i, n = 2 * (uint32_t)(NPC + (r->mem->has_2m ? NBC : 0) + 1 + NSP * st->nsweep +
                                   st->nplaced + st->busy_rows);
    for (i = 0; i < NPC; i++)
        n += ib_has_chunked(st, FORM_PAGES, page_counts[i], 0);
    for (i = 0; i < NBC && r->mem->has_2m; i++)
        n += ib_has_chunked(st, FORM_STRIDE_2M, big_counts[i], 0);
    return n;
}

static bool ib_plan(struct runner *r, struct experiment_record *rec, struct ib_state *st)
{
    struct ib_pilot pilot;
    struct plan_request q;
    uint64_t fixed;
    uint32_t i;
    mem_zero(&q, sizeof(q));
    mem_zero(&pilot, sizeof(pilot));
    pilot.st = st;
    for (i = 0; i < 5 && r->plan_share_ticks; i++) {
        uint32_t m = i < 4 ? i % 2 : 2;
        struct ib_pilot_point pp = { st, page_counts[i < 2 ? 0 : NPC - 1], (enum method)m };
        if (m == 2 && !ib_has_chunked(st, FORM_PAGES, pp.count, 0))
            break;
        if (!runner_pilot(r, ib_time, &pp, i < 2 ? &pilot.fewest[m] : &pilot.most[m], &fixed)) {
            rec->partial = true;
            return false;
        }
        q.point_ticks = fixed > q.point_ticks ? fixed : q.point_ticks;
    }
    q.baseline_div = 4;
    /* the sweep's points are costed as on every CPU: an upper bound */
    q.nrows = (uint32_t)(SWEEP_ROW0 + NSP * st->nsweep + st->nplaced);
    q.ncols = 2;
    q.iter_ticks = ib_cost;
    q.ctx = &pilot;
    if (st->nplaced && !runner_plan_fits(r, &q)) {
        /* the placement sweep is the first to go: never at the cost of the grid's plan */
        record_note(rec, "placement sweep not measured: with its %u points the grid does not fit "
                         "the share even at the floor",
                    2 * st->nplaced);
        q.nrows -= st->nplaced;
        st->nplaced = 0;
    }
    if (!runner_plan(r, rec, &q, "forms x counts", "methods", 1, &st->plan))
        return false;
    if (rec->plan.applied) {
        rec->plan.points_planned = planned_points(r, st);
        rec->plan.samples_planned = (uint64_t)rec->plan.points_planned * rec->plan.samples;
    }
    return true;
}

/* One point of method m from what ib_sample_point() measured. */
static bool add_point(struct runner *r, struct experiment_record *rec, struct ib_state *st,
                      enum form form, uint32_t count, uint32_t m, uint32_t run,
                      struct ib_method *meth, uint32_t placement)
{
    struct result_point *pt = point_list_add(&rec->results);
    uint32_t samples = runner_samples(r);
    point_keep_samples(rec, pt, st->lat[m], samples, run); /* iteration order, before the sort */
    stats_from_array(st->lat[m], samples, &meth->lat);
    if (!pt)
        return false;
    point_param_str(pt, "method", m == METHOD_IPI ? "ipi" : "invlpgb");
    point_param_str(pt, "form", form_names[form]);
    point_param_num(pt, "pages", count);
    point_param_num(pt, "cpus", st->ts.n + 1);
    point_param_str(pt, "pti", st->sd.pti != PTI_OFF ? "on" : "off");
    point_param_str(pt, "path", path_names[m == METHOD_CHUNKED ? PATH_CHUNKED : PATH_LINUX]);
    if (m == METHOD_IPI && st->sd.cluster_ipis)
        point_param_str(pt, "ipi_mode", "x2apic_cluster"); /* Linux's mode here (issue 32) */
    if (placement != IB_NEAREST)
        point_param_str(pt, "placement", placement_name(placement));
    point_class_mix(pt, r->smp->topo, 0, st->ts.cpus, st->ts.n);
    point_metric(pt, "latency", &meth->lat);
    point_metric(pt, "baseline", &meth->base);
    if (r->emulated) {
        /* what the emulator handled for this point: the evidence of the method */
        point_value(pt, "emulated_invlpgb", (int64_t)meth->emulated_invlpgb * 1000);
        point_value(pt, "emulated_tlbsync", (int64_t)meth->emulated_tlbsync * 1000);
    }
    exp_value_ran_first(pt, meth->first);
    return true;
}

/*
 * The points of one range, INVLPGB and IPI (both Linux's path) and above
 * the ceiling INVLPGB in chunks, interleaved: on every CPU (ncpus 0) or on
 * the initiator and the ncpus - 1 nearest. False only when the record is
 * full.
 */
static bool run_point(struct runner *r, struct experiment_record *rec, struct ib_state *st,
                      enum form form, uint32_t count, uint32_t ncpus, uint32_t placement)
{
    struct ib_method meth[NMETHODS];
    uint32_t i, n, run, m, mask = 1u << METHOD_INVLPGB | 1u << METHOD_IPI;
    uint64_t salt;
    bool ok;
    if (ncpus && placement != IB_NEAREST) {
        st->ts.n = runner_placement_pick(r, 0, placement, ncpus - 1, st->ts.cpus);
        if (st->ts.n < ncpus - 1) { /* CPUs lost on the way: this count no longer exists */
            rec->partial = true;
            return true;
        }
    } else if (ncpus) {
        st->ts.n = 0;
        for (i = 0; i < st->norder && st->ts.n < ncpus - 1; i++)
            if (smp_usable(r->smp, st->order[i]))
                st->ts.cpus[st->ts.n++] = st->order[i];
        if (st->ts.n < ncpus - 1) { /* CPUs lost on the way: this count no longer exists */
            rec->partial = true;
            return true;
        }
    } else {
        target_set_all_others(r, &st->ts);
    }
    n = st->ts.n;
    if (st->sd.cluster_ipis)
        ipi_sort_by_apic(r->smp, st->ts.cpus, n); /* one logical write per cluster, as Linux */
    if (!shootdown_sync_all(&st->sd)) {
        rec->partial = true;
        return true;
    }
    if (ib_has_chunked(st, form, count, ncpus))
        mask |= 1u << METHOD_CHUNKED;
    salt = (uint64_t)(placement != IB_NEAREST ? placement + 1 : 0) << 56 | (uint64_t)form << 48 |
           (uint64_t)count << 24 | (n + 1);
    target_set_start(r, &st->ts);
    ok = shootdown_verify_cpus(&st->sd, st->ts.cpus, n, 0, count, form == FORM_STRIDE_2M) &&
         ib_sample_point(r, st, form, count, mask, salt, meth);
    target_set_stop(r, &st->ts);
    if (!ok) {
        rec->partial = true;
        return true;
    }
    run = record_paired_run(rec);
    for (m = 0; m < NMETHODS; m++)
        if ((mask & 1u << m) &&
            !add_point(r, rec, st, form, count, m, run, &meth[m], placement))
            return false;
    return true;
}

/*
 * The crossover per placement (summary), at one page: the nearest-first
 * sweep's (placement nearest_first, its counts and every CPU: what the
 * invlpgb_vs_ipi recommendation reads) and each placement's.
 */
static void ib_crossovers(struct runner *r, struct experiment_record *rec,
                          const struct ib_state *st)
{
    uint32_t i, j, counts[MAX_SWEEP_CPUS + MAX_PLACED], n = 0;
    for (i = 0; i < st->nsweep; i++)
        counts[n++] = st->sweep_cpus[i];
    counts[n++] = st->norder + 1 < r->smp->count ? st->norder + 1 : r->smp->count;
    ib_crossover_row(rec, NULL, "nearest_first", counts, n);
    for (i = 0; i < st->nplaced; i++) {
        if (i + 1 < st->nplaced && st->placed[i + 1] == st->placed[i])
            continue; /* once per placement, at its last count */
        for (n = 0, j = 0; j <= i; j++)
            if (st->placed[j] == st->placed[i])
                counts[n++] = st->placed_cpus[j];
        ib_crossover_row(rec, placement_name(st->placed[i]), placement_name(st->placed[i]),
                         counts, n);
    }
}

/* The busy_ws rows' INVLPGB side: one page, Linux's path (core/exp/invlpgb_busy.h). */
static void busy_invlpgb(void *ctx)
{
    struct ib_state *st = ctx;
    ib_flush(st, FORM_PAGES, 1, st->pcid_on, PATH_LINUX);
}

static void ib_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct ib_state *st = state;
    enum form form;
    uint32_t i, c, done = 0, planned;
    planned = planned_points(r, st);
    /* Linux issues the user-PCID INVLPGB only under PTI, which AMD CPUs run without */
    st->sd.pti = PTI_OFF;
    if (r->run->cfg.pti && r->run->method.pcid_enabled)
        st->sd.pti =
            arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID) ? PTI_INVPCID : PTI_DEFERRED;
    if (!ib_plan(r, rec, st))
        goto out;
    planned = planned_points(r, st); /* the plan may have left out the placement sweep */
    for (form = FORM_PAGES; form <= FORM_PCID; form++) {
        const uint32_t *counts = form == FORM_STRIDE_2M ? big_counts : page_counts;
        uint32_t ncounts = form == FORM_PAGES ? (uint32_t)NPC : form == FORM_STRIDE_2M ? (uint32_t)NBC : 1;
        if (form == FORM_STRIDE_2M && !r->mem->has_2m)
            continue;
        for (i = 0; i < ncounts; i++) {
            if (!runner_budget_ok(r))
                goto out;
            runner_progress(r, done, planned);
            done += 2 + ib_has_chunked(st, form, counts[i], 0);
            if (!run_point(r, rec, st, form, form == FORM_PCID ? 1 : counts[i], 0, IB_NEAREST))
                goto out;
        }
    }
    /* what the other CPUs lose: IPI targets and INVLPGB's bystanders in busy_ws */
    if (st->busy_rows) {
        uint64_t *lat[2] = { st->lat[METHOD_INVLPGB], st->lat[METHOD_IPI] };
        if (!runner_budget_ok(r))
            goto out;
        runner_progress(r, done, planned);
        done += 2;
        if (!ib_busy_rows(r, rec, &st->busy, &st->sd, &st->ts, busy_invlpgb, st, lat))
            goto out;
    }
    /* the CPU-count sweep of the pages form: where INVLPGB starts to pay */
    for (c = 0; c < st->nsweep; c++) {
        for (i = 0; i < NSP; i++) {
            if (!runner_budget_ok(r))
                goto out;
            runner_progress(r, done, planned);
            done += 2;
            if (!run_point(r, rec, st, FORM_PAGES, sweep_pages[i], st->sweep_cpus[c],
                           IB_NEAREST))
                goto out;
        }
    }
    /* the placement sweep, one page: where INVLPGB starts to pay with targets of one class */
    for (i = 0; i < st->nplaced; i++) {
        if (!runner_budget_ok(r))
            goto out;
        runner_progress(r, done, planned);
        done += 2;
        if (!run_point(r, rec, st, FORM_PAGES, 1, st->placed_cpus[i], st->placed[i]))
            goto out;
    }
out:
    ib_crossovers(r, rec, st);
    st->sd.pti = PTI_OFF;
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, planned, "points");
    if (r->emulated)
        record_note(rec, "emulated: %llu INVLPGB, %llu TLBSYNC handled after #UD; timings are "
                         "those of the emulation, not of any CPU",
                    (unsigned long long)emulate_counts()->invlpgb,
                    (unsigned long long)emulate_counts()->tlbsync);
}

static void ib_cleanup(struct runner *r, void *state)
{
    struct ib_state *st = state;
    uint32_t i;
    (void)r;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    ib_busy_free(&st->busy);
    mem_free(st->order);
    for (i = 0; i < NMETHODS; i++)
        mem_free(st->lat[i]);
    mem_free(st->base);
    mem_free(st);
}

const struct experiment exp_invlpgb = {
    .id = "invlpgb_range",
    .title = "INVLPGB + TLBSYNC broadcast invalidation vs IPI shootdown of the same range",
    .x_axis = "pages",
    .series = "method",
    .supported = ib_supported,
    .prepare = ib_prepare,
    .run = ib_run,
    .cleanup = ib_cleanup,
};
