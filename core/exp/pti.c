/*
 * pti_double_invalidation: what page-table isolation adds to a flush.
 *
 * With PTI every user address lives in two PCIDs, the kernel's (k) and the
 * user's (k | 0x800, Linux's bit 11). Linux's flush_tlb_one_user():
 *   invlpg_invpcid   INVLPG (current = kernel PCID) + INVPCID type 0 on the
 *                    user PCID, per page;
 *   invlpg_deferred  INVLPG + mark the user PCID; the next return to user
 *                    loads CR3 without NOFLUSH (SWITCH_TO_USER_CR3), which
 *                    flushes the whole user PCID;
 *   no_pti           INVLPG only (the baseline).
 * Method. Every sample remaps p pages (1, 8, the ceiling) and invalidates
 * them: `local` on the initiator alone (cost per page = latency / p);
 * `shootdown_seq` / `shootdown_conc` on all CPUs in both orders (the seed
 * expects concurrency to help more under PTI, since each target does twice
 * the work). Before each sample the pages are present in both PCIDs
 * (the verification reads them in the user PCID too, as a return to user),
 * and so is a user working set of W = PTI_USER_WS pages (the working-set
 * pages of testmem.h, parameter `working_set`): the process's own
 * translations, which INVLPG + INVPCID leave alone and the deferred flush
 * throws away with the whole user PCID. Before the first sample of a
 * (kind, p) every CPU of it returns to user once, untimed, under PTI
 * (shootdown_prime_user()); each timed return leaves the working set there
 * for the next sample, whichever variant that is.
 * The variants of a (kind, p) are measured together: each iteration takes
 * one sample of each, in an order drawn per iteration from the run's order
 * seed (exp_variant_order(): none always first, so drift and the state one
 * leaves favour none); the points keep those samples (core/run/record.h: the
 * samples of an iteration are pairs) and record in `ran_first` how many
 * iterations each began. A no_pti sample leaves the user PCID's entries of
 * the p pages stale; the next PTI variant's own user flush of those same
 * pages removes them before any read there, as its verification shows.
 *
 * The return to user is timed, for every variant alike: the deferred
 * variant pays its user-PCID flush there, not in the flush, and every
 * variant refills there what its flush threw away. After the flush (the
 * last ack) the initiator loads the user PCID (NOFLUSH unless its flush is
 * pending; no_pti: no switch, one address space), reads one word of each
 * flushed page, then of each of the W working-set pages, and comes back
 * (shootdown_return_to_user()): the deferred variant refills all W, the
 * others find them cached. Metrics: `flush` (to the last ack),
 * `return_to_user` (the initiator's), `latency` = their sum, the figure to
 * compare across variants; on shootdown points also
 * `remote_return_to_user`, the slowest target's own return (its TSC, the
 * same pages and working set), done once the initiator's window has
 * closed. Without memory for the working set W is 0, with a note.
 * Verification reads the pages in the kernel and in the user PCID, after
 * the timed steps.
 *
 * CPUs: those cpus= selects; the shootdown kinds need 2 (with the BSP
 * alone only `local` is measured, and a note says so). Every point names
 * its CPUs (parameter `cpus`).
 * Needs PCID (CR4.PCIDE); the INVPCID variant needs INVPCID. Without PCID
 * the experiment is SKIP with the CPUID evidence; QEMU's TCG has no PCID and
 * CR4.PCIDE cannot be emulated. Where the tool runs without PCID although
 * the CPU has it (the INVLPG/global erratum of Alder and Raptor Lake with
 * old microcode, core/run/method.c, as Linux does), SKIP with that reason:
 * erratum, CPU signature, microcode revision.
 */
#include "asm/cpu.h"
#include "asm/features.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/run/experiments.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

static const struct {
    const char *name;
    enum pti_mode mode;
} variants[] = {
    { "no_pti", PTI_OFF },
    { "invlpg_invpcid", PTI_INVPCID },
    { "invlpg_deferred", PTI_DEFERRED },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static const char *const kinds[] = { "local", "shootdown_seq", "shootdown_conc" };
/*
 * The user working set: 512 pages, 2 MiB, one page table's worth (as
 * recommend.h's typical working set): what a deferred flush makes a
 * process refill at its next return to user.
 */
#define PTI_USER_WS 512u

struct pti_state {
    struct shootdown sd;
    struct target_set ts;
    uint32_t pages[3], npages;
    uint64_t *lat[NVARIANTS], *flush[NVARIANTS], *ret[NVARIANTS], *remote[NVARIANTS], *base;
    uint32_t first[NVARIANTS]; /* iterations each variant ran first */
    struct plan plan; /* the samples run_budget_s leaves */
};

static bool pti_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    const struct cpu_features *f = &r->run->cpu;
    (void)emulated;
    if (!arch_has_feature(f, ARCH_FEAT_PCID)) {
        fmt_into(reason, cap,
                 "no PCID: CPUID.01H:ECX[17] = 0 (ECX = 0x%08x); INVPCID CPUID.(07H,0):EBX[10] = "
                 "%u (EBX = 0x%08x). PTI's two PCIDs cannot be set up%s",
                 f->evidence.leaf1_ecx, arch_has_feature(f, ARCH_FEAT_INVPCID) ? 1u : 0u,
                 f->evidence.leaf7_ebx,
                 f->hypervisor ? " (an emulator cannot emulate CR4.PCIDE)" : "");
        return false;
    }
    if (!r->run->method.pcid_enabled) {
        /* the tool chose to run without PCID (core/run/method.c says why: an erratum) */
        fmt_into(reason, cap, "PCID %s. PTI's two PCIDs need CR4.PCIDE",
                 r->run->method.pcid_reason[0] ? r->run->method.pcid_reason
                                               : "present but CR4.PCIDE is not used in this run");
        return false;
    }
    return runner_need_test_region(r, reason, cap) && runner_need_user_mappings(r, reason, cap);
}

static bool pti_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct pti_state *st = mem_zalloc(sizeof(*st));
    uint32_t ceiling = r->run->cfg.ceiling, v;
    if (!st)
        return false;
    *state = st;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    st->sd.user_ws_pages = r->mem->has_ws ? PTI_USER_WS : 0;
    if (!r->mem->has_ws)
        record_note(rec, "no memory for the working-set pages: the return to user refills the "
                         "flushed pages only (working_set 0), which under-costs the deferred flush");
    st->pages[st->npages++] = 1;
    st->pages[st->npages++] = 8;
    if (ceiling > 8 && ceiling <= TEST_PAGES)
        st->pages[st->npages++] = ceiling;
    for (v = 0; v < NVARIANTS; v++) {
        st->lat[v] = mem_alloc(runner_samples(r) * sizeof(uint64_t));
        st->flush[v] = mem_alloc(runner_samples(r) * sizeof(uint64_t));
        st->ret[v] = mem_alloc(runner_samples(r) * sizeof(uint64_t));
        st->remote[v] = mem_alloc(runner_samples(r) * sizeof(uint64_t));
        if (!st->lat[v] || !st->flush[v] || !st->ret[v] || !st->remote[v])
            return false;
    }
    st->base = mem_alloc(exp_baseline_count(r) * sizeof(uint64_t));
    if (!st->base)
        return false;
    if (!arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID))
        record_note(rec, "no INVPCID (CPUID.(07H,0):EBX[10] = 0, EBX = 0x%08x): the "
                         "invlpg_invpcid variant is skipped, Linux would defer the user flush "
                         "here", r->run->cpu.evidence.leaf7_ebx);
    return point_list_reserve(&rec->results, (uint32_t)(NVARIANTS * 3 * st->npages)) &&
           record_reserve_kept(rec, (uint32_t)(NVARIANTS * 3 * st->npages), r->run->cfg.samples);
}

struct pti_sample {
    struct stats lat, flush, ret, remote_ret, base;
};

/* One sample of the current variant (sd->pti): flush, return to user, verify. False: a CPU lost. */
static bool sample_one(struct pti_state *st, uint32_t kind, uint32_t pages, uint64_t *t_out,
                       uint64_t *ret_out, uint64_t *remote_out)
{
    struct shootdown *sd = &st->sd;
    struct percpu *self = this_percpu();
    uint64_t t, ret, remote = 0;
    testmem_flip(sd->tm, 0, pages);
    if (kind == 0) {
        uint64_t t0 = tsc_open();
        shootdown_flush_local(sd, 0, pages);
        t = tsc_close() - t0;
        ret = shootdown_return_to_user(sd, self, 0, pages);
        shootdown_verify_self(sd, self, 0, pages, false);
    } else {
        t = shootdown_flush(sd, st->ts.cpus, st->ts.n,
                            kind == 1 ? ORDER_SEQUENTIAL : ORDER_CONCURRENT, 0, pages,
                            FLUSH_VERIFY | FLUSH_RETURN_TO_USER);
        if (!t)
            return false;
        ret = shootdown_return_to_user(sd, self, 0, pages);
        if (!shootdown_wait_verified(sd))
            return false;
        remote = sd->max_return_ticks;
    }
    *t_out = t;
    *ret_out = ret;
    *remote_out = remote;
    return true;
}

/* The baseline of the current variant: the same kind with nothing to invalidate. */
static bool baseline(struct runner *r, struct pti_state *st, uint32_t kind, struct stats *out)
{
    struct shootdown *sd = &st->sd;
    uint32_t i;
    if (kind != 0)
        return exp_baseline(sd, st->ts.cpus, st->ts.n, 0, st->base, exp_baseline_count(r), out);
    /* local: the timestamps around a flush with nothing to invalidate */
    for (i = 0; i < exp_baseline_count(r); i++) {
        uint64_t t0 = tsc_open();
        shootdown_flush_local(sd, 0, 0);
        st->base[i] = tsc_close() - t0;
    }
    stats_from_array(st->base, exp_baseline_count(r), out);
    return true;
}

/*
 * The variants of `mask` (bit v: variants[v]) on one (kind, pages),
 * interleaved per iteration, then each one's baseline. st->lat[v] and the
 * others keep variant v's samples in iteration order until the points are
 * added.
 */
static bool sample_point(struct runner *r, struct pti_state *st, uint32_t kind, uint32_t pages,
                         uint32_t mask, struct pti_sample out[NVARIANTS])
{
    uint32_t i, j, nv = 0, vs[NVARIANTS], ord[NVARIANTS];
    uint32_t samples = runner_samples(r), warmup = runner_warmup(r);
    for (j = 0; j < NVARIANTS; j++) {
        st->first[j] = 0;
        if (mask & (1u << j))
            vs[nv++] = j;
    }
    for (i = 0; i < warmup + samples; i++) {
        exp_variant_order(r, (uint64_t)kind << 32 | pages, i, nv, ord);
        if (i >= warmup)
            st->first[vs[ord[0]]]++;
        for (j = 0; j < nv; j++) {
            uint32_t v = vs[ord[j]];
            uint64_t t, ret, remote;
            st->sd.pti = variants[v].mode; /* targets read it after the request's release */
            if (!sample_one(st, kind, pages, &t, &ret, &remote))
                return false;
            if (i >= warmup) {
                st->lat[v][i - warmup] = t + ret;
                st->flush[v][i - warmup] = t;
                st->ret[v][i - warmup] = ret;
                st->remote[v][i - warmup] = remote;
            }
        }
    }
    for (j = 0; j < nv; j++) {
        uint32_t v = vs[j];
        st->sd.pti = variants[v].mode;
        if (!baseline(r, st, kind, &out[v].base))
            return false;
    }
    return true;
}

/*
 * The pilot (run_budget_s, core/run/plan.h; short then long runs, timed) of a
 * sequential shootdown to every CPU without PTI, of the fewest and of the
 * most pages. Every point is taken to cost that (local ones less, so this
 * is an upper bound), linear in the pages, twice that under PTI (two
 * invalidations per page). Only samples are reduced: the grid is small.
 */
struct pti_pilot {
    const struct pti_state *st;
    bool invpcid;
    uint64_t fewest, most; /* ticks per iteration */
};

static uint64_t pti_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct pti_pilot *pl = ctx;
    uint32_t v = row / 3, p0 = pl->st->pages[0], pn = pl->st->pages[pl->st->npages - 1];
    uint64_t c = pl->fewest;
    if (variants[v].mode == PTI_INVPCID && !pl->invpcid)
        return 0; /* not measured on this CPU */
    if (pn > p0 && pl->most > pl->fewest)
        c += (pl->most - pl->fewest) * (pl->st->pages[col] - p0) / (pn - p0);
    return variants[v].mode == PTI_OFF ? c : 2 * c;
}

struct pti_pilot_point {
    struct pti_state *st;
    uint32_t pages;
};

static bool pti_body(struct runner *r, void *ctx)
{
    struct pti_pilot_point *pp = ctx;
    struct pti_sample sm[NVARIANTS];
    return sample_point(r, pp->st, 1, pp->pages, 1u << 0 /* no_pti */, sm);
}

static bool pti_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct pti_pilot_point *pp = ctx;
    pp->st->sd.pti = PTI_OFF;
    return exp_pilot_all_others(r, &pp->st->sd, &pp->st->ts, pp->pages, iterations, pti_body,
                                pp, ticks);
}

static bool pti_plan(struct runner *r, struct experiment_record *rec, struct pti_state *st)
{
    struct pti_pilot pilot = { st, arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID), 0, 0 };
    struct plan_request q;
    uint64_t fixed[2] = { 0, 0 };
    uint32_t i;
    mem_zero(&q, sizeof(q));
    for (i = 0; i < 2 && r->plan_share_ticks; i++) {
        struct pti_pilot_point pp = { st, st->pages[i ? st->npages - 1 : 0] };
        if (!runner_pilot(r, pti_time, &pp, i ? &pilot.most : &pilot.fewest, &fixed[i])) {
            rec->partial = true;
            return false;
        }
    }
    q.point_ticks = fixed[0] > fixed[1] ? fixed[0] : fixed[1];
    q.baseline_div = 4;
    q.nrows = (uint32_t)NVARIANTS * 3;
    q.ncols = st->npages;
    q.iter_ticks = pti_cost;
    q.ctx = &pilot;
    if (!runner_plan(r, rec, &q, "variants x kinds", "page counts", 1, &st->plan))
        return false;
    if (rec->plan.applied && !pilot.invpcid) { /* invlpg_invpcid is not measured */
        rec->plan.points_planned -= 3 * st->npages;
        rec->plan.samples_planned = (uint64_t)rec->plan.points_planned * rec->plan.samples;
    }
    return true;
}

/* Variant v's point of one (kind, pages) from what sample_point() measured. False: no room. */
static bool add_point(struct runner *r, struct experiment_record *rec, struct pti_state *st,
                      uint32_t v, uint32_t kind, uint32_t pages, uint32_t run,
                      struct pti_sample *sm)
{
    struct result_point *pt = point_list_add(&rec->results);
    uint32_t samples = runner_samples(r);
    point_keep_samples(rec, pt, st->lat[v], samples, run); /* iteration order, before the sort */
    stats_from_array(st->lat[v], samples, &sm->lat);
    stats_from_array(st->flush[v], samples, &sm->flush);
    stats_from_array(st->ret[v], samples, &sm->ret);
    stats_from_array(st->remote[v], samples, &sm->remote_ret);
    if (!pt)
        return false;
    point_param_str(pt, "variant", variants[v].name);
    point_param_str(pt, "kind", kinds[kind]);
    point_param_num(pt, "pages", pages);
    point_param_num(pt, "cpus", st->ts.n + 1);
    point_param_num(pt, "working_set", st->sd.user_ws_pages);
    point_metric(pt, "latency", &sm->lat);
    point_metric(pt, "flush", &sm->flush);
    point_metric(pt, "return_to_user", &sm->ret);
    if (kind != 0)
        point_metric(pt, "remote_return_to_user", &sm->remote_ret);
    point_metric(pt, "baseline", &sm->base);
    if (kind == 0)
        point_value(pt, "p50_per_page", (int64_t)(sm->lat.p50 * 1000 / pages));
    exp_value_ran_first(pt, st->first[v]);
    return true;
}

static void pti_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct pti_state *st = state;
    uint32_t v, kind, p, n, mask = 0, nv = 0, done = 0;
    uint32_t planned = (uint32_t)(NVARIANTS * 3) * st->npages;
    if (!pti_plan(r, rec, st))
        goto out;
    for (v = 0; v < NVARIANTS; v++)
        if (variants[v].mode != PTI_INVPCID || arch_has_feature(&r->run->cpu, ARCH_FEAT_INVPCID)) {
            mask |= 1u << v;
            nv++;
        }
    for (kind = 0; kind < 3; kind++) {
        for (p = 0; p < st->npages; p++) {
            struct pti_sample sm[NVARIANTS];
            uint32_t run;
            bool ok;
            if (!runner_budget_ok(r))
                goto out;
            runner_progress(r, done, planned);
            done += nv;
            n = target_set_all_others(r, &st->ts);
            if (kind == 0)
                st->ts.n = 0; /* local: the initiator alone */
            if (kind != 0 && n == 0)
                continue;
            if (!shootdown_sync_all(&st->sd)) {
                rec->partial = true;
                continue;
            }
            /* prime under PTI: the pages and the user working set in both PCIDs, whichever
             * variant comes first */
            st->sd.pti = PTI_DEFERRED;
            target_set_start(r, &st->ts);
            ok = shootdown_prime_user(&st->sd, st->ts.cpus, st->ts.n) &&
                 shootdown_verify_cpus(&st->sd, st->ts.cpus, st->ts.n, 0, st->pages[p], false) &&
                 sample_point(r, st, kind, st->pages[p], mask, sm);
            target_set_stop(r, &st->ts);
            if (!ok) {
                rec->partial = true;
                continue;
            }
            run = record_paired_run(rec);
            for (v = 0; v < NVARIANTS; v++)
                if ((mask & (1u << v)) &&
                    !add_point(r, rec, st, v, kind, st->pages[p], run, &sm[v]))
                    goto out;
        }
    }
out:
    if (runner_usable_count(r) < 2)
        record_note(rec, "shootdown_seq and shootdown_conc not measured: they need at least 2 "
                         "CPUs, %u usable (cpus= selects them)", runner_usable_count(r));
    st->sd.pti = PTI_OFF;
    st->sd.user_ws_pages = 0;
    exp_finish_verification(r, &st->sd, rec);
    exp_note_lost(rec, planned, "points");
}

static void pti_cleanup(struct runner *r, void *state)
{
    struct pti_state *st = state;
    uint32_t v;
    (void)r;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    for (v = 0; v < NVARIANTS; v++) {
        mem_free(st->lat[v]);
        mem_free(st->flush[v]);
        mem_free(st->ret[v]);
        mem_free(st->remote[v]);
    }
    mem_free(st->base);
    mem_free(st);
}

const struct experiment exp_pti = {
    .id = "pti_double_invalidation",
    .title = "PTI: invalidating kernel and user PCID (INVLPG+INVPCID, deferred) vs no PTI",
    .x_axis = "pages",
    .series = "variant",
    .supported = pti_supported,
    .prepare = pti_prepare,
    .run = pti_run,
    .cleanup = pti_cleanup,
};
