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
 *   ipi      core/shootdown_multi.h, concurrent order (IPIs, then the local
 *            flush), every initiator with its own request slot in each target;
 *   invlpgb  INVLPGB per chunk of the range and one TLBSYNC, on each
 *            initiator at once; only where CPUID 8000_0008 EBX[3] says so and
 *            the probe ran it, or with emulate=invlpgb (test-only): then the
 *            experiment is labelled emulated and each invlpgb point records
 *            the INVLPGBs the emulator handled.
 * Each initiator runs its warm-up, waits at a start line until all have,
 * then runs its share of the point's samples: ceil(S / m), at least 2, so
 * that a point costs about the same whatever m is. Latency: per shootdown, on its initiator's own
 * TSC, from just after the PTE change to the last ack (or the end of
 * TLBSYNC); p50/p99 over all initiators' samples. Throughput: m x samples
 * divided by the time from the start line to the last initiator's last
 * verified shootdown, on the BSP's TSC (no two CPUs' clocks subtracted).
 * CPUs that initiate nothing spin (or halt under a hypervisor, method
 * target_wait) with interrupts on; initiators take the others' IPIs while
 * they wait for their own acks, and keep taking them until the last
 * initiator is done.
 *
 * Verification: after every shootdown every target, then the initiator,
 * reads the initiator's pages; an old signature is a stale TLB entry:
 * FAILURE with CPU and VA. The invlpgb method asks the same targets to read
 * after TLBSYNC.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/invlpgb.h"
#include "arch/x86/tlb.h"
#include "core/atomic.h"
#include "core/emulate.h"
#include "core/exp/common.h"
#include "core/exp/contention_plan.h"
#include "core/experiments.h"
#include "core/mutant.h"
#include "core/shootdown_multi.h"
#include "core/strbuf.h"
#include "core/timing.h"

#define CT_MIN_SAMPLES 10u

enum ct_mode { CT_ALL = 0, CT_GROUPS };
static const char *const mode_names[] = { "all", "groups" };
enum ct_method { CT_IPI = 0, CT_INVLPGB };
static const char *const method_names[] = { "ipi", "invlpgb" };

struct ct_state;

/* One point: what every initiator needs, and the start line. */
struct ct_job {
    struct ct_state *st;
    enum ct_method method;
    uint32_t pages, samples, warmup, ninit;
    volatile uint32_t ready, go, failed, all_done;
    volatile uint64_t done;
    volatile uint64_t progress; /* shootdowns by all initiators: proves they are alive */
    struct spin_arg linger;     /* finished initiators keep taking IPIs until all_done */
};

/* One initiator's share of a point (its own line: written by it only). */
struct ct_arg {
    struct ct_job *job;
    uint32_t k;           /* initiator number: its pages and its sample slice */
    uint32_t *targets;
    uint32_t ntargets;
} __attribute__((aligned(CACHE_LINE)));

struct ct_state {
    struct shootdown sd;
    struct shootdown_multi mi;
    struct target_set ts;     /* the CPUs that only take IPIs */
    uint32_t *order, norder;  /* BSP first, then topology order */
    uint32_t *start;          /* partition, m + 1 entries */
    uint32_t *inits;
    struct ct_arg *args;      /* by initiator number */
    uint32_t *targets;        /* ncpus lists of up to ncpus targets */
    uint64_t *lat;            /* ninit x samples */
    uint32_t samples, warmup;
    bool invlpgb, invlpgb_emulated;
    uint32_t max_chunk;       /* INVLPGB pages per instruction */
    uint32_t page_counts[2], npages;
};

/* Samples per point, pooled over its initiators: a tenth of the profile's, at least 10. */
static uint32_t ct_samples(const struct runner *r)
{
    uint32_t s = runner_samples(r) / 10;
    return s < CT_MIN_SAMPLES ? CT_MIN_SAMPLES : s;
}

/*
 * Each of m initiators takes ceil(S / m) of them, at least 2: a point costs
 * about the same number of shootdowns whatever m is (with all initiators
 * sending to every CPU, the work of a point would otherwise grow as m x N).
 */
static uint32_t ct_per_initiator(uint32_t samples, uint32_t m)
{
    uint32_t k = (samples + m - 1) / m;
    return k < 2 ? 2 : k;
}

/*
 * Every round is the same shootdown of the same pages: a few warm-up rounds
 * per initiator load the lines and TLB entries. Kept small because each
 * costs m shootdowns (under QEMU with emulated INVLPGB, 8 initiators x 5
 * emulated INVLPGBs each broadcast to every CPU).
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
    *emulated = !(f->invlpgb && r->run->method.invlpgb_probe_ok) && !r->run->cfg.global_pages &&
                (r->run->cfg.emulate & EMULATE_INVLPGB);
    return true;
}

static bool ct_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct ct_state *st = mem_zalloc(sizeof(*st));
    const struct cpu_features *f = &r->run->cpu;
    uint32_t n = r->smp->count, npoints = 0, p, mode;
    uint32_t series[CONTENTION_MAX_M];
    if (!st)
        return false;
    *state = st;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, n) ||
        !shootdown_multi_init(&st->mi, &st->sd))
        return false;
    st->samples = ct_samples(r);
    st->warmup = ct_warmup(r);
    st->page_counts[0] = 1;
    st->page_counts[1] = r->run->cfg.ceiling;
    st->npages = r->run->cfg.ceiling > 1 ? 2 : 1;
    st->invlpgb = f->invlpgb && r->run->method.invlpgb_probe_ok && !r->run->cfg.global_pages;
    st->invlpgb_emulated = r->emulated;
    st->max_chunk = f->invlpgb ? f->invlpgb_max_pages : EMULATED_INVLPGB_MAX_PAGES;
    st->order = mem_alloc(n * sizeof(uint32_t));
    st->start = mem_alloc((n + 1) * sizeof(uint32_t));
    st->inits = mem_alloc(n * sizeof(uint32_t));
    st->args = mem_alloc_aligned(n * sizeof(struct ct_arg), CACHE_LINE);
    st->targets = mem_alloc((size_t)n * n * sizeof(uint32_t));
    st->lat = mem_alloc((size_t)n * st->samples * sizeof(uint64_t));
    if (!st->order || !st->start || !st->inits || !st->args || !st->targets || !st->lat)
        return false;
    st->order[0] = 0;
    st->norder = 1 + runner_targets_in_topology_order(r, 0, st->order + 1, n - 1);
    if (r->run->cfg.global_pages && (f->invlpgb || (r->run->cfg.emulate & EMULATE_INVLPGB)))
        record_note(rec, "global_pages=on: invlpgb points skipped (they would need the "
                         "include-global form)");
    else if (!st->invlpgb && !st->invlpgb_emulated)
        record_note(rec, "invlpgb points skipped: no INVLPGB (CPUID 8000_0008 EBX[3] = %u, EBX = "
                         "0x%08x)%s",
                    f->invlpgb ? 1u : 0u, f->evidence.ext8_ebx,
                    f->invlpgb ? "; it faulted when probed" : "");
    if (st->invlpgb_emulated)
        record_note(rec, "invlpgb points emulated (emulate=invlpgb): INVLPGB and TLBSYNC are "
                         "handled after #UD; their timings are the emulation's, not any CPU's");
    for (mode = CT_ALL; mode <= CT_GROUPS; mode++)
        for (p = 0; p < st->npages; p++) {
            uint32_t k = contention_m_series(st->norder, mode == CT_GROUPS,
                                             TEST_PAGES / st->page_counts[p], series,
                                             CONTENTION_MAX_M);
            npoints += k * ((st->invlpgb || st->invlpgb_emulated) ? 2 : 1);
            if (k && series[k - 1] < (mode == CT_GROUPS ? st->norder / 2 : st->norder))
                record_note(rec, "%s, %u pages: at most %u initiators (each owns %u of the %u "
                                 "test pages)",
                            mode_names[mode], st->page_counts[p], series[k - 1],
                            st->page_counts[p], TEST_PAGES);
        }
    record_note(rec, "%u samples per point, ceil(%u / m) (at least 2) per initiator, after %u "
                     "warm-up each",
                st->samples, st->samples, st->warmup);
    return point_list_reserve(&rec->results, npoints);
}

/* The INVLPGB path of one shootdown: the range in chunks, then one TLBSYNC (all on this CPU). */
static void invlpgb_flush(struct ct_state *st, uint32_t first, uint32_t pages, bool pcid_on)
{
    struct invlpgb_range range;
    struct invlpgb_op op;
    invlpgb_range_init(&range, testmem_va(first), pages, false, st->max_chunk,
                       (uint16_t)st->sd.kernel_pcid, pcid_on);
    while (invlpgb_range_next(&range, &op))
        invlpgb_raw(op.rax, op.ecx, op.edx);
    tlbsync();
}

/* warm-up and samples of one initiator; false when a target or the machine stopped answering */
static bool initiator_loop(struct ct_arg *a, uint32_t from, uint32_t count, bool keep)
{
    struct ct_job *job = a->job;
    struct ct_state *st = job->st;
    struct smp *s = st->sd.smp;
    uint32_t first = contention_first_page(a->k, job->pages), i;
    bool pcid_on = st->sd.pcid_enabled;
    for (i = from; i < from + count; i++) {
        uint64_t t;
        if (load_acquire(&s->aborting) || load_acquire(&job->failed))
            return false;
        shootdown_multi_flip(&st->mi, first, job->pages);
        if (job->method == CT_INVLPGB) {
            uint64_t t0 = tsc_now();
            invlpgb_flush(st, first, job->pages, pcid_on);
            t = tsc_now() - t0;
            if (!shootdown_multi_request_verify(&st->mi, a->targets, a->ntargets, first,
                                                job->pages))
                t = 0;
        } else {
            t = shootdown_multi_flush(&st->mi, a->targets, a->ntargets, first, job->pages);
        }
        if (!t || !shootdown_multi_wait_verified(&st->mi))
            return false;
        if (keep)
            st->lat[(size_t)a->k * job->samples + i] = t;
        add_fetch(&job->progress, 1);
    }
    return true;
}

/* Runs on an AP initiator: warm-up, the start line, the samples, then taking IPIs until all are done. */
static int64_t initiate(struct percpu *self, void *arg)
{
    struct ct_arg *a = arg;
    struct ct_job *job = a->job;
    uint64_t deadline;
    bool ok;
    irq_enable(); /* the other initiators' IPIs come in while this one waits for its acks */
    ok = initiator_loop(a, 0, job->warmup, false);
    add_fetch(&job->ready, 1);
    deadline = tsc_now() + self->smp->timeout_ticks;
    while (ok && !load_acquire(&job->go) && !load_acquire(&job->failed)) {
        if (deadline_passed(deadline) || load_acquire(&self->smp->aborting)) {
            ok = false;
            break;
        }
        cpu_relax();
    }
    ok = ok && !load_acquire(&job->failed) && initiator_loop(a, 0, job->samples, true);
    if (!ok)
        store_release(&job->failed, 1);
    add_fetch(&job->done, 1);
    ipi_spin_as_target(self, &job->linger); /* returns with interrupts off */
    return ok ? 0 : -1;
}

/* The BSP: posts the initiators, runs its own share, returns the start-to-end ticks (0: failed). */
static uint64_t run_point(struct runner *r, struct ct_state *st, struct ct_job *job)
{
    struct smp *s = r->smp;
    uint32_t k;
    uint64_t t_go = 0, t_end, deadline, seen;
    bool ok;
    for (k = 1; k < job->ninit; k++)
        smp_post(s, st->inits[k], CMD_GENERIC, initiate, &st->args[k]);
    irq_enable();
    ok = initiator_loop(&st->args[0], 0, job->warmup, false);
    /* the start line: every AP initiator has finished its warm-up */
    deadline = tsc_now() + s->timeout_ticks;
    seen = load_acquire(&job->progress);
    while (ok && load_acquire(&job->ready) < job->ninit - 1 && !load_acquire(&job->failed)) {
        if (load_acquire(&job->progress) != seen) {
            seen = load_acquire(&job->progress);
            deadline = tsc_now() + s->timeout_ticks;
        }
        if (deadline_passed(deadline))
            ok = false;
        cpu_relax();
    }
    if (ok && !load_acquire(&job->failed)) {
        t_go = tsc_now();
        store_release(&job->go, 1);
        ok = initiator_loop(&st->args[0], 0, job->samples, true);
    }
    if (!ok)
        store_release(&job->failed, 1);
    add_fetch(&job->done, 1);
    /* the end: every initiator's last shootdown acknowledged and verified */
    deadline = tsc_now() + s->timeout_ticks;
    seen = load_acquire(&job->progress);
    while (load_acquire(&job->done) < job->ninit) {
        if (load_acquire(&job->progress) != seen) {
            seen = load_acquire(&job->progress);
            deadline = tsc_now() + s->timeout_ticks;
        }
        if (deadline_passed(deadline))
            break;
        cpu_relax();
    }
    t_end = tsc_now();
    if (load_acquire(&job->done) < job->ninit)
        ok = false;
    store_release(&job->all_done, 1);
    store_release(&job->go, 1); /* an initiator still at the start line leaves it */
    irq_disable();
    for (k = 1; k < job->ninit; k++) {
        uint32_t c = st->inits[k];
        if (!smp_usable(s, c))
            continue;
        if (s->halt_waits)
            smp_kick(s, c);
        if (smp_wait(s, c, tsc_now() + s->timeout_ticks) != WAIT_OK ||
            load_acquire(&s->cpu[c]->ack.result) != 0)
            ok = false;
    }
    /* targets that did not answer, as the initiators saw them: marked here, by the BSP only */
    for (k = 0; k < job->ninit; k++) {
        struct mi_initiator *mi = &st->mi.init[st->inits[k]];
        if (mi->lost_cpu != UINT32_MAX) {
            struct mi_slot *slot = &st->mi.slots[(size_t)mi->lost_cpu * st->mi.ncpus +
                                                 st->inits[k]];
            smp_mark_unanswered(s, mi->lost_cpu, mi->lost_what, &slot->ack_seq, mi->seq);
            ok = false;
        }
    }
    return ok && !load_acquire(&job->failed) ? t_end - t_go : 0;
}

/* Initiators and their targets for m groups; the rest spin as targets. */
static void plan_point(struct ct_state *st, enum ct_mode mode, uint32_t m)
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
        a->ntargets = 0;
        for (i = lo; i < hi; i++)
            if (st->order[i] != st->inits[g])
                a->targets[a->ntargets++] = st->order[i];
        for (i = st->start[g] + 1; i < st->start[g + 1]; i++)
            st->ts.cpus[st->ts.n++] = st->order[i];
    }
}

static bool measure(struct runner *r, struct experiment_record *rec, struct ct_state *st,
                    enum ct_mode mode, enum ct_method method, uint32_t pages, uint32_t m)
{
    struct ct_job job;
    struct emulation_counts before = *emulate_counts();
    struct result_point *pt;
    struct stats lat;
    uint64_t ticks;
    uint32_t k;
    bool ok;
    mem_zero(&job, sizeof(job));
    job.st = st;
    job.method = method;
    job.pages = pages;
    job.samples = ct_per_initiator(st->samples, m);
    job.warmup = st->warmup;
    job.ninit = m;
    job.linger.stop = &job.all_done;
    job.linger.deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    plan_point(st, mode, m);
    for (k = 0; k < m; k++)
        st->args[k].job = &job;
    if (!shootdown_multi_begin_point(&st->mi, st->inits, m, mode == CT_GROUPS))
        return false;
    target_set_start(r, &st->ts);
    /* load every initiator's pages into its targets' TLBs: something to shoot */
    ok = true;
    for (k = 0; k < m && ok; k++) {
        struct ct_arg *a = &st->args[k];
        ok = shootdown_verify_cpus(&st->sd, a->targets, a->ntargets,
                                   contention_first_page(k, pages), pages, false);
    }
    ticks = ok ? run_point(r, st, &job) : 0;
    target_set_stop(r, &st->ts);
    shootdown_multi_end_point(&st->mi);
    if (!ticks)
        return false;
    pt = point_list_add(&rec->results);
    if (!pt)
        return false;
    stats_from_array(st->lat, m * job.samples, &lat);
    point_param_str(pt, "mode", mode_names[mode]);
    point_param_str(pt, "method", method_names[method]);
    point_param_num(pt, "pages", pages);
    point_param_num(pt, "initiators", m);
    point_param_num(pt, "cpus", st->norder);
    point_metric(pt, "latency", &lat);
    point_value(pt, "shootdowns_per_s",
                contention_rate_milli((uint64_t)m * job.samples, ticks, timing_tsc_hz()));
    if (method == CT_INVLPGB && st->invlpgb_emulated)
        point_value(pt, "emulated_invlpgb",
                    (int64_t)(emulate_counts()->invlpgb - before.invlpgb) * 1000);
    return true;
}

/*
 * Shootdowns a point of m initiators runs, warm-up included: the time box's
 * unit of cost (each goes to every other CPU in "all" mode; fewer in groups,
 * so this is an upper bound there).
 */
static uint64_t ct_point_shootdowns(const struct ct_state *st, uint32_t m)
{
    return (uint64_t)m * (ct_per_initiator(st->samples, m) + st->warmup);
}

/*
 * Time box (run_budget_s; not with run_budget_s=0 or the quick profile):
 * the work of a point grows with m (m x N interrupts at least, since each
 * initiator runs 2 shootdowns or more), so under an emulator the points with
 * many initiators on a big machine can take minutes, while on hardware they
 * take a fraction of a second. Each column (mode, method, pages) gets an
 * equal part of what is left of the experiment's share; m is measured in
 * ascending order, and a point whose cost, estimated from the point before
 * it scaled by its shootdowns, would overrun the column's part is not
 * measured, nor any larger m: the note says where each column stopped.
 */
struct ct_box {
    uint64_t share, start; /* ticks; share 0: no time box */
    uint32_t columns_left;
};

static bool ct_box_allows(struct ct_box *b, const struct ct_state *st, uint64_t column_start,
                          uint64_t last_ticks, uint32_t last_m, uint32_t m)
{
    uint64_t now = tsc_now(), used = now - b->start, part, estimate;
    if (!b->share || !last_m || MUTANT(contention_unboxed))
        return true; /* the first m of a column is always measured */
    part = used < b->share ? (b->share - (column_start - b->start)) / b->columns_left : 0;
    estimate = last_ticks * ct_point_shootdowns(st, m) / ct_point_shootdowns(st, last_m);
    return now - column_start + estimate <= part;
}

static void ct_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct ct_state *st = state;
    uint32_t series[CONTENTION_MAX_M], planned = rec->results.capacity, done = 0;
    enum ct_mode mode;
    enum ct_method method;
    uint32_t p, i, nm, columns = 0, boxed = 0;
    struct ct_box box = { r->plan_share_ticks, tsc_now(), 0 };
    for (method = CT_IPI; method <= CT_INVLPGB; method++)
        if (method == CT_IPI || st->invlpgb || st->invlpgb_emulated)
            columns += 2 * st->npages;
    box.columns_left = columns;
    for (mode = CT_ALL; mode <= CT_GROUPS; mode++) {
        for (method = CT_IPI; method <= CT_INVLPGB; method++) {
            if (method == CT_INVLPGB && !st->invlpgb && !st->invlpgb_emulated)
                continue;
            for (p = 0; p < st->npages; p++) {
                uint64_t column_start = tsc_now(), last_ticks = 0;
                uint32_t last_m = 0;
                nm = contention_m_series(st->norder, mode == CT_GROUPS,
                                         TEST_PAGES / st->page_counts[p], series,
                                         CONTENTION_MAX_M);
                for (i = 0; i < nm; i++) {
                    uint64_t t0;
                    if (!runner_budget_ok(r))
                        goto out;
                    runner_progress(r, done++, planned);
                    /* a lost CPU shrinks the machine: the remaining points use those left */
                    if (runner_usable_count(r) != st->norder) {
                        rec->partial = true;
                        goto out;
                    }
                    if (!ct_box_allows(&box, st, column_start, last_ticks, last_m, series[i])) {
                        record_note(rec, "time box: %s, %s, %u pages: initiators up to %u of "
                                         "%u measured (share of run_budget_s %llu ms)",
                                    mode_names[mode], method_names[method], st->page_counts[p],
                                    last_m, series[nm - 1],
                                    (unsigned long long)ticks_to_ms(box.share));
                        boxed++;
                        break;
                    }
                    t0 = tsc_now();
                    if (!measure(r, rec, st, mode, method, st->page_counts[p], series[i])) {
                        rec->partial = true;
                        continue;
                    }
                    last_ticks = tsc_now() - t0;
                    last_m = series[i];
                }
                if (box.columns_left > 1)
                    box.columns_left--;
            }
        }
    }
    if (boxed)
        record_note(rec, "time box: %u of %u columns stopped before their largest m (the "
                         "run_budget_s share; on hardware these points take well under a second)",
                    boxed, columns);
out:
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, planned, "points");
}

static void ct_cleanup(struct runner *r, void *state)
{
    struct ct_state *st = state;
    (void)r;
    if (!st)
        return;
    shootdown_multi_release(&st->mi);
    exp_teardown(&st->sd, &st->ts);
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
