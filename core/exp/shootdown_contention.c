/*
 * shootdown_contention: m initiators shooting down at the same time.
 *
 * Method. The usable CPUs, in topology order from the BSP (SMT sibling,
 * same package, then remote), are split into m contiguous groups of nearly
 * equal size (core/exp/contention_plan.h); the first CPU of each group is an
 * initiator, so the BSP always is one. m runs 1, 2, 4, ... up to every CPU
 * (mode `all`) or up to half of them (mode `groups`), and each initiator
 * owns its own test pages (m x pages <= the test region). Two modes:
 *   all     each initiator shoots down to every other CPU, all in one mm
 *           (threads of one process: will-it-scale tlb_flush2_threads);
 *   groups  each initiator only to the rest of its group, one mm per group
 *           (separate processes).
 * Pages: 1 and the ceiling (the most still flushed page by page). Methods:
 *   ipi      core/machine/shootdown_multi.h, concurrent order (IPIs, then the local
 *            flush), every initiator with its own request slot in each target;
 *   invlpgb  INVLPGB per chunk of the range and one TLBSYNC, on each
 *            initiator at once; only where CPUID 8000_0008 EBX[3] says so and
 *            the probe ran it, or with emulate=invlpgb (test-only): then the
 *            experiment is labelled emulated and each invlpgb point records
 *            the INVLPGBs the emulator handled.
 * Each (mode, method, pages, m) gives two points, `measure`:
 *   latency  rounds (core/machine/shootdown_multi.h): every initiator remaps its
 *            pages, all start together at a barrier, each runs one timed
 *            shootdown, and a second barrier waits until every window has
 *            closed. W' = min(warm-up, 3) rounds, then ceil(S / m) (at least
 *            2) recorded, S a tenth of the profile's samples (at least 10),
 *            so a point costs about the same whatever m is. Latency: per
 *            shootdown, on its initiator's own TSC, from just after the PTE
 *            change to the last ack (or the end of TLBSYNC); p50/p99 over
 *            all initiators' samples. No rate: m over the mean round is a
 *            burst's, not a throughput (at m = 1 it was 1 / the mean window,
 *            2-4x the steady rate, which also times the remap; issue 32).
 *   steady   will-it-scale tlb_flush2: after the rounds, each initiator
 *            remaps and shoots down in a loop, no barrier, no check, until
 *            the BSP, one of them, has seen the window pass and stops them;
 *            CONTENTION_WINDOWS (3) windows back to back, each of 100 ms
 *            (contention_window_ms, or shorter where the plan's share cannot
 *            hold them: core/exp/contention_plan.h). Per window: the
 *            shootdowns every initiator had completed when the BSP read
 *            their counters, over the BSP's ticks from the start to that
 *            read; and the rate without the remaps (each initiator times its
 *            own remap in the loop; its shootdowns over the window less its
 *            remaps, summed). shootdowns_per_s: the windows' median, with
 *            _min, _max and _no_remap (median); shootdowns and window_ms:
 *            one window's (the mean).
 * Placement (issue 21): the grid splits the CPUs nearest first. Beside it,
 * columns (mode all, method ipi, one page) on a machine of the BSP and the
 * CPUs of one topology class seen from it (core/machine/placement.h: smt_sibling,
 * same_l3, same_package, same_node, cross_node, cross_package, each with
 * its own m series), and `spread`: the BSP and half the others round-robin over
 * the machine (Linux's placement-blind threads of one process); m is 1, 2
 * and every CPU of the placement (no more: each column is a small one). Points
 * name it in `placement` (the grid's have none); a class with no CPU is a
 * note, never replaced. They share the time box as columns of their own.
 *
 * The IPIs are sent as Linux would on the machine (issue 32, exp_linux_ipis):
 * in x2APIC cluster mode where it uses it, each initiator's targets sorted
 * by APIC ID (ipi points: `ipi_mode` x2apic_cluster).
 *
 * CPUs that initiate nothing spin (or halt under a hypervisor, method
 * target_wait) with interrupts on; initiators take the others' IPIs while
 * they wait for their own acks and at the barriers, and keep taking them
 * until the last initiator is done. Halted ones are asleep when a round
 * opens, as at every shootdown_flush() (core/machine/ipi.h,
 * ipi_settle_targets): after a first barrier (every check of the last round
 * answered) the BSP waits until each has parked in `sti; hlt` and 10 us
 * more, while the other initiators wait at the opening barrier (issue 32:
 * before, a round found them awake from the last check and measured no
 * wake-up). The steady loop settles nothing: its shootdowns are back to
 * back by design.
 *
 * Verification, never inside a timed window (issue 20: before it, a target
 * read initiator k's pages before acknowledging initiator k+1 in the same
 * interrupt, each initiator read its own with interrupts off while the
 * others' IPIs waited, and INVLPGB initiators sent a check IPI into the
 * others' INVLPGB windows, so the latency of m >= 2 held other initiators'
 * checks). Every round's shootdowns are checked after the closing barrier:
 * each initiator asks its targets (a check request) to read its pages, then
 * reads them itself; the next round opens only when every check is done.
 * So every shootdown of the latency points is checked, warm-up included,
 * and no check or check IPI falls into any window. The steady loop checks
 * nothing inside its window; when it has stopped everywhere (a barrier),
 * every target and initiator reads each initiator's pages once: that proves
 * the last shootdown of every initiator and that no CPU holds a stale
 * translation of any of their pages at the end, not each shootdown in the
 * loop (a later one of the same pages may hide a missed one). An old
 * signature is a stale TLB entry: FAILURE with CPU and VA. Each point's
 * `checks` value counts its reads (priming included); the notes say how.
 */
#include "asm/cpu.h"
#include "asm/features.h"
#include "core/lib/atomic.h"
#include "core/run/verify_collect.h"
#include "core/machine/emulate.h"
#include "core/exp/common.h"
#include "core/exp/contention_plan.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/exp/shootdown_contention.h"
#include "core/machine/placement.h"
#include "core/machine/shootdown_multi.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

static const char *const mode_names[] = { "all", "groups" };
static const char *const method_names[] = { "ipi", "invlpgb" };
/* Samples per point, pooled over its initiators: a tenth of the profile's, at least 10. */
static uint32_t ct_samples(const struct runner *r)
{
    uint32_t s = runner_samples(r) / 10;
    return s < CT_MIN_SAMPLES ? CT_MIN_SAMPLES : s;
}

/*
 * Every round is the same shootdown of the same pages: a few warm-up rounds
 * load the lines and TLB entries. Kept small because each costs m
 * shootdowns (under QEMU with emulated INVLPGB, 8 initiators x 5 emulated
 * INVLPGBs each broadcast to every CPU).
 */
static uint32_t ct_warmup(const struct runner *r)
{
    uint32_t w = runner_warmup(r);
    return w > 3 ? 3 : w;
}

static bool ct_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    const struct cpu_features *f = &r->run->cpu;
    if (!runner_need_test_region(r, reason, cap) || !runner_need_cpus(r, 2, reason, cap))
        return false;
    /* the INVLPGB half is emulated only when the CPU lacks it and emulate=invlpgb asks */
    *emulated = !(arch_has_feature(f, ARCH_FEAT_INVLPGB) && r->run->method.invlpgb_probe_ok) &&
                !r->run->cfg.global_pages &&
                (r->run->cfg.emulate & EMULATE_INVLPGB);
    return true;
}

/*
 * The machine a point splits, BSP first: every usable CPU in topology order,
 * or the BSP and a placement's CPUs (spread: half of the others).
 */
static void ct_order(struct runner *r, struct ct_state *st)
{
    uint32_t k = r->smp->count - 1;
    st->order[0] = 0;
    st->usable_seen = runner_usable_count(r);
    if (st->placement == CT_NEAREST) {
        st->norder = 1 + runner_targets_in_topology_order(r, 0, st->order + 1, k);
        return;
    }
    if (st->placement == PLACE_SPREAD)
        k = (st->usable_seen - 1) / 2;
    st->norder = 1 + runner_placement_pick(r, 0, st->placement, k, st->order + 1);
}

static bool ct_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct ct_state *st = mem_zalloc(sizeof(*st));
    const struct cpu_features *f = &r->run->cpu;
    uint32_t n = r->smp->count, npoints = 0, p, mode, pl, k;
    uint32_t series[CONTENTION_MAX_M];
    if (!st)
        return false;
    *state = st;
    st->placement = CT_NEAREST;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, n) ||
        !shootdown_multi_init(&st->mi, &st->sd))
        return false;
    exp_linux_ipis(r, rec, &st->sd);
    st->samples = ct_samples(r);
    st->warmup = ct_warmup(r);
    st->page_counts[0] = 1;
    st->page_counts[1] = r->run->cfg.ceiling;
    st->npages = r->run->cfg.ceiling > 1 ? 2 : 1;
    st->invlpgb = arch_has_feature(f, ARCH_FEAT_INVLPGB) && r->run->method.invlpgb_probe_ok &&
                  !r->run->cfg.global_pages;
    st->invlpgb_emulated = r->emulated;
    st->max_chunk =
        arch_has_feature(f, ARCH_FEAT_INVLPGB) ? f->invlpgb_max_pages : EMULATED_INVLPGB_MAX_PAGES;
    st->job = mem_alloc_aligned(sizeof(*st->job), CACHE_LINE);
    st->order = mem_alloc(n * sizeof(uint32_t));
    st->start = mem_alloc((n + 1) * sizeof(uint32_t));
    st->inits = mem_alloc(n * sizeof(uint32_t));
    st->args = mem_alloc_aligned(n * sizeof(struct ct_arg), CACHE_LINE);
    st->targets = mem_alloc((size_t)n * n * sizeof(uint32_t));
    st->lat = mem_alloc((size_t)n * st->samples * sizeof(uint64_t));
    if (!st->job || !st->order || !st->start || !st->inits || !st->args || !st->targets ||
        !st->lat)
        return false;
    ct_order(r, st);
    if (r->run->cfg.global_pages &&
        (arch_has_feature(f, ARCH_FEAT_INVLPGB) || (r->run->cfg.emulate & EMULATE_INVLPGB)))
        record_note(rec, "global_pages=on: invlpgb points skipped (they would need the "
                         "include-global form)");
    else if (!st->invlpgb && !st->invlpgb_emulated)
        record_note(rec, "invlpgb points skipped: no INVLPGB (CPUID 8000_0008 EBX[3] = %u, EBX = "
                         "0x%08x)%s",
                    arch_has_feature(f, ARCH_FEAT_INVLPGB) ? 1u : 0u, f->evidence.ext8_ebx,
                    arch_has_feature(f, ARCH_FEAT_INVLPGB) ? "; it faulted when probed" : "");
    if (st->invlpgb_emulated)
        record_note(rec, "invlpgb points emulated (emulate=invlpgb): INVLPGB and TLBSYNC are "
                         "handled after #UD; their timings are the emulation's, not any CPU's");
    for (mode = CT_ALL; mode <= CT_GROUPS; mode++)
        for (p = 0; p < st->npages; p++) {
            k = contention_m_series(st->norder, mode == CT_GROUPS,
                                             TEST_PAGES / st->page_counts[p], series,
                                             CONTENTION_MAX_M);
            /* a latency and a steady point per m */
            npoints += 2 * k * ((st->invlpgb || st->invlpgb_emulated) ? 2 : 1);
            if (k && series[k - 1] < (mode == CT_GROUPS ? st->norder / 2 : st->norder))
                record_note(rec, "%s, %u pages: at most %u initiators (each owns %u of the %u "
                                 "test pages)",
                            mode_names[mode], st->page_counts[p], series[k - 1],
                            st->page_counts[p], TEST_PAGES);
        }
    st->placements = runner_placements_differ(r, rec, 0);
    for (pl = TOPO_FIRST_CLASS; pl < PLACE_COUNT && st->placements; pl++) {
        uint32_t size = runner_placement_size(r, 0, pl);
        if (pl == PLACE_SPREAD)
            size /= 2;
        if (!size) {
            if (pl != PLACE_SPREAD)
                record_note(rec, "placement %s skipped: the BSP has no usable CPU of that class",
                            placement_name(pl));
            continue;
        }
        /* mode all, ipi, one page: a latency and a steady point per m (at most 3 of them) */
        k = contention_m_series(1 + size, false, TEST_PAGES, series, CONTENTION_MAX_M);
        npoints += 2 * (k < CT_PLACED_MS ? k : CT_PLACED_MS);
    }
    record_note(rec, "%u samples per point, ceil(%u / m) (at least 2) per initiator, after %u "
                     "warm-up each",
                st->samples, st->samples, st->warmup);
    record_note(rec, "checks outside every timed window: each round's shootdowns after all m "
                     "windows closed (targets, then the initiator); steady points: each "
                     "initiator's pages once the loop stopped");
    return point_list_reserve(&rec->results, npoints);
}

/* Initiators and their targets for m groups; the rest spin as targets. */
static void plan_point(struct ct_state *st, enum ct_mode mode, uint32_t m, uint32_t pages)
{
    uint32_t g, i, n = st->norder;
    contention_partition(n, m, st->start);
    st->ts.n = 0;
    for (g = 0; g < m; g++) {
        struct ct_arg *a = &st->args[g];
        uint32_t lo = mode == CT_GROUPS ? st->start[g] : 0;
        uint32_t hi = mode == CT_GROUPS ? st->start[g + 1] : n;
        st->inits[g] = st->order[st->start[g]];
        a->k = g;
        a->targets = st->targets + (size_t)g * n;
        a->part.ntargets = 0;
        for (i = lo; i < hi; i++)
            if (st->order[i] != st->inits[g])
                a->targets[a->part.ntargets++] = st->order[i];
        if (st->sd.cluster_ipis) /* one logical ICR write per cluster, as Linux */
            ipi_sort_by_apic(st->sd.smp, a->targets, a->part.ntargets);
        a->part.targets = a->targets;
        a->part.first = contention_first_page(g, pages);
        a->part.pages = pages;
        for (i = st->start[g] + 1; i < st->start[g + 1]; i++)
            st->ts.cpus[st->ts.n++] = st->order[i];
    }
}

/* Adds the reads counted since the last call to the record; returns how many. */
static uint64_t collect_checks(struct ct_state *st, struct experiment_record *rec)
{
    uint64_t before = rec->verification.checks;
    shootdown_collect(&st->sd, rec);
    return rec->verification.checks - before;
}

static struct result_point *add_point(struct experiment_record *rec, const struct ct_state *st,
                                      enum ct_mode mode, enum ct_method method, uint32_t pages,
                                      uint32_t m, const char *measure)
{
    struct result_point *pt = point_list_add(&rec->results);
    if (!pt)
        return NULL;
    point_param_str(pt, "mode", mode_names[mode]);
    point_param_str(pt, "method", method_names[method]);
    point_param_num(pt, "pages", pages);
    point_param_num(pt, "initiators", m);
    point_param_num(pt, "cpus", st->norder);
    point_param_str(pt, "measure", measure);
    if (method == CT_IPI && st->sd.cluster_ipis)
        point_param_str(pt, "ipi_mode", "x2apic_cluster");
    if (st->placement != CT_NEAREST)
        point_param_str(pt, "placement", placement_name(st->placement));
    /* the CPUs besides CPU 0, the first initiator: targets of every round, initiators too */
    point_class_mix(pt, st->sd.smp->topo, 0, st->order + 1, st->norder - 1);
    return pt;
}

/*
 * One (mode, method, pages, m): the rounds, their latency point, then the
 * steady loop and its point (each phase's reads and emulated INVLPGBs
 * collected after it, with every initiator back in its command loop).
 */
static bool measure(struct runner *r, struct experiment_record *rec, struct ct_state *st,
                    enum ct_mode mode, enum ct_method method, uint32_t pages, uint32_t m)
{
    struct ct_job *job = st->job;
    struct smp *s = r->smp;
    uint64_t hz = timing_tsc_hz(), emulated = emulate_counts()->invlpgb, checks;
    struct result_point *pt;
    struct stats lat;
    int64_t rate[CONTENTION_WINDOWS], no_remap[CONTENTION_WINDOWS];
    uint64_t count = 0, window = 0;
    uint32_t k;
    bool ok;
    mem_zero(job, sizeof(*job));
    /* a barrier waits at most for a shootdown and a check, each with its late grace, and more */
    mi_point_init(&job->pt, method == CT_INVLPGB ? MI_INVLPGB : MI_IPI, m, st->max_chunk,
                  4 * (s->timeout_ticks + s->late_grace_ticks));
    job->st = st;
    job->pages = pages;
    job->rounds = contention_per_initiator(st->samples, m);
    job->warmup = st->warmup;
    job->ninit = m;
    job->window_ticks = st->window_ticks;
    job->linger.stop = &job->all_done;
    st->round_ticks = st->steady_ticks = st->steady_count = 0;
    plan_point(st, mode, m, pages);
    for (k = 0; k < m; k++) {
        st->args[k].job = job;
        st->args[k].part.pt = &job->pt;
    }
    if (!shootdown_multi_begin_point(&st->mi, st->inits, m, mode == CT_GROUPS))
        return false;
    target_set_start(r, &st->ts);
    /* load every initiator's pages into its targets' TLBs: something to shoot */
    ok = true;
    for (k = 0; k < m && ok; k++) {
        struct ct_arg *a = &st->args[k];
        ok = shootdown_verify_cpus(&st->sd, a->targets, a->part.ntargets, a->part.first, pages,
                                   false);
    }
    ok = ok && ct_run_point(r, st, job, CT_ROUNDS) && st->round_ticks;
    checks = collect_checks(st, rec);
    if (ok) {
        stats_from_array(st->lat, m * job->rounds, &lat);
        pt = add_point(rec, st, mode, method, pages, m, "latency");
        if (pt) {
            point_metric(pt, "latency", &lat);
            point_value(pt, "checks", (int64_t)checks * 1000);
            if (method == CT_INVLPGB && st->invlpgb_emulated)
                point_value(pt, "emulated_invlpgb",
                            (int64_t)(emulate_counts()->invlpgb - emulated) * 1000);
        }
        emulated = emulate_counts()->invlpgb;
        /* the windows back to back, each with its final check: the median and the spread */
        for (k = 0; k < CONTENTION_WINDOWS && ok; k++) {
            ok = ct_run_point(r, st, job, CT_STEADY) && st->steady_ticks;
            rate[k] = contention_rate_milli(st->steady_count, st->steady_ticks, hz);
            no_remap[k] = st->steady_no_remap;
            count += st->steady_count;
            window += st->steady_ticks;
        }
        st->steady_ticks = window; /* the time box's estimate: every window */
    }
    target_set_stop(r, &st->ts);
    shootdown_multi_end_point(&st->mi);
    checks = collect_checks(st, rec);
    if (!ok)
        return false;
    pt = add_point(rec, st, mode, method, pages, m, "steady");
    if (pt) {
        point_value(pt, "shootdowns_per_s", contention_median(rate, CONTENTION_WINDOWS));
        point_value(pt, "shootdowns_per_s_min", rate[0]); /* sorted by the median */
        point_value(pt, "shootdowns_per_s_max", rate[CONTENTION_WINDOWS - 1]);
        point_value(pt, "shootdowns_per_s_no_remap",
                    contention_median(no_remap, CONTENTION_WINDOWS));
        point_value(pt, "windows", CONTENTION_WINDOWS * 1000);
        point_value(pt, "shootdowns", (int64_t)(count / CONTENTION_WINDOWS) * 1000);
        point_value(pt, "window_ms", contention_ms_milli(window / CONTENTION_WINDOWS, hz));
        point_value(pt, "checks", (int64_t)checks * 1000);
        if (method == CT_INVLPGB && st->invlpgb_emulated)
            point_value(pt, "emulated_invlpgb",
                        (int64_t)(emulate_counts()->invlpgb - emulated) * 1000);
    }
    return true;
}

/* What a column needs from the run loop: the time box (contention_plan.h), the progress count,
 * the notes' total. */
struct ct_sweep {
    struct contention_box box;
    uint32_t done, planned, boxed;
};

/*
 * One column (mode, method, pages): m in ascending order while the budget
 * and the time box allow. False when the run's budget is spent.
 */
static bool ct_column(struct runner *r, struct experiment_record *rec, struct ct_state *st,
                      struct ct_sweep *sw, enum ct_mode mode, enum ct_method method,
                      uint32_t pages)
{
    uint32_t series[CONTENTION_MAX_M], i, nm;
    uint64_t column_start = tsc_now(), last_ticks = 0, last_steady = 0;
    uint32_t last_m = 0;
    nm = contention_m_series(st->norder, mode == CT_GROUPS, TEST_PAGES / pages, series,
                             CONTENTION_MAX_M);
    for (i = 0; i < nm; i++) {
        uint64_t t0;
        if (st->placement != CT_NEAREST && i >= CT_PLACED_MS - 1 && i != nm - 1)
            continue;
        if (!runner_budget_ok(r))
            return false;
        runner_progress(r, sw->done++, sw->planned / 2);
        /* a lost CPU shrinks the machine: the remaining points split the CPUs left */
        if (runner_usable_count(r) != st->usable_seen) {
            rec->partial = true;
            ct_order(r, st);
        }
        if (series[i] > (mode == CT_GROUPS ? st->norder / 2 : st->norder))
            break;
        if (last_m &&
            !contention_box_allows(&sw->box, tsc_now(), column_start, last_ticks, last_steady,
                                   contention_point_shootdowns(st->samples, st->warmup, last_m),
                                   contention_point_shootdowns(st->samples, st->warmup,
                                                               series[i]))) {
            record_note(rec, "time box: %s, %s, %u pages%s%s: initiators up to %u of %u "
                             "measured (share of run_budget_s %llu ms)",
                        mode_names[mode], method_names[method], pages,
                        st->placement == CT_NEAREST ? "" : ", placement ",
                        st->placement == CT_NEAREST ? "" : placement_name(st->placement),
                        last_m, series[nm - 1], (unsigned long long)ticks_to_ms(sw->box.share));
            sw->boxed++;
            break;
        }
        t0 = tsc_open();
        if (!measure(r, rec, st, mode, method, pages, series[i])) {
            rec->partial = true;
            continue;
        }
        last_ticks = tsc_close() - t0;
        last_steady = st->steady_ticks;
        last_m = series[i];
    }
    if (sw->box.columns_left > 1)
        sw->box.columns_left--;
    return true;
}

/* The placement columns (see the method): mode all, ipi, one page, on each placement's CPUs. */
static bool ct_placements(struct runner *r, struct experiment_record *rec, struct ct_state *st,
                          struct ct_sweep *sw)
{
    uint32_t pl;
    bool ok = true;
    for (pl = TOPO_FIRST_CLASS; pl < PLACE_COUNT && ok && st->placements; pl++) {
        st->placement = pl;
        ct_order(r, st);
        if (st->norder >= 2)
            ok = ct_column(r, rec, st, sw, CT_ALL, CT_IPI, 1);
    }
    st->placement = CT_NEAREST;
    ct_order(r, st);
    return ok;
}

/* Placement columns the box shares its time with: one per placement with CPUs. */
static uint32_t ct_placement_columns(struct runner *r, const struct ct_state *st)
{
    uint32_t pl, n = 0;
    for (pl = TOPO_FIRST_CLASS; pl < PLACE_COUNT && st->placements; pl++)
        n += runner_placement_size(r, 0, pl) >= (pl == PLACE_SPREAD ? 2u : 1u);
    return n;
}

static void ct_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct ct_state *st = state;
    enum ct_mode mode;
    enum ct_method method;
    uint32_t p, columns = 0;
    struct ct_sweep sw;
    mem_zero(&sw, sizeof(sw));
    sw.planned = rec->results.capacity;
    sw.box.share = r->plan_share_ticks;
    sw.box.start = tsc_now();
    for (method = CT_IPI; method <= CT_INVLPGB; method++)
        if (method == CT_IPI || st->invlpgb || st->invlpgb_emulated)
            columns += 2 * st->npages;
    columns += ct_placement_columns(r, st);
    sw.box.columns_left = columns;
    /* the steady windows, the same for every point (contention_plan.h) */
    st->window_ticks = ms_to_ticks(contention_window_ms(
        r->run->cfg.contention_window_ms,
        r->plan_share_ticks ? ticks_to_ms(r->plan_share_ticks) : 0, sw.planned / 2));
    record_note(rec, "steady window %llu ms x %u per point (%s)",
                (unsigned long long)ticks_to_ms(st->window_ticks), CONTENTION_WINDOWS,
                r->run->cfg.contention_window_ms ? "contention_window_ms"
                : ticks_to_ms(st->window_ticks) < CONTENTION_WINDOW_MS
                    ? "shortened: a quarter of the share over its points"
                    : "the default");
    for (mode = CT_ALL; mode <= CT_GROUPS; mode++) {
        for (method = CT_IPI; method <= CT_INVLPGB; method++) {
            if (method == CT_INVLPGB && !st->invlpgb && !st->invlpgb_emulated)
                continue;
            for (p = 0; p < st->npages; p++)
                if (!ct_column(r, rec, st, &sw, mode, method, st->page_counts[p]))
                    goto out;
        }
    }
    if (!ct_placements(r, rec, st, &sw))
        goto out;
    if (sw.boxed)
        record_note(rec, "time box: %u of %u columns stopped before their largest m (the "
                         "run_budget_s share; on hardware these points take well under a second)",
                    sw.boxed, columns);
out:
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, sw.planned, "points");
}

static void ct_cleanup(struct runner *r, void *state)
{
    struct ct_state *st = state;
    (void)r;
    if (!st)
        return;
    shootdown_multi_release(&st->mi);
    exp_teardown(&st->sd, &st->ts);
    mem_free_aligned(st->job);
    mem_free(st->order);
    mem_free(st->start);
    mem_free(st->inits);
    mem_free_aligned(st->args);
    mem_free(st->targets);
    mem_free(st->lat);
    mem_free(st);
}

const struct experiment exp_shootdown_contention = {
    .id = "shootdown_contention",
    .title = "Concurrent shootdowns: m initiators at once, to all CPUs or in disjoint groups",
    .x_axis = "initiators",
    .series = "method",
    .supported = ct_supported,
    .prepare = ct_prepare,
    .run = ct_run,
    .cleanup = ct_cleanup,
};
