/*
 * flush_ceiling's measurement (the method is at the top of flush_ceiling.c):
 * one sample of a (kind, form, working set) at p pages, a point's samples
 * and their metrics, and the planning pilot's iterations. The experiment
 * (flush_ceiling.c) and its plan (flush_ceiling_plan.c) both call in here;
 * nothing here calls either back.
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

/*
 * The critical path's end: every target's refill done (the generation it
 * publishes after refilling, core/machine/shootdown.c), seen on this
 * CPU's clock. False when a target does not answer (it is marked lost).
 */
static bool wait_refilled(struct shootdown *sd)
{
    struct smp *s = sd->smp;
    uint64_t deadline = tsc_now() + s->timeout_ticks;
    uint32_t i;
    for (i = 0; i < sd->nsent; i++) {
        struct percpu *t = s->cpu[sd->sent[i]];
        uint64_t gen = load_acquire(&t->flush.request_gen);
        if (!smp_wait_answer(s, sd->sent[i], &t->flush.refill_gen, ANSWER_EQ, gen, deadline)) {
            smp_mark_unanswered(s, sd->sent[i], "working-set refill", &t->flush.refill_gen,
                                gen);
            return false;
        }
    }
    return true;
}

/* What the targets spent, each on its own clock: handler (entry to ack) and refill. */
static uint64_t targets_work(const struct shootdown *sd)
{
    uint64_t sum = 0;
    uint32_t i;
    for (i = 0; i < sd->nsent; i++) {
        const struct percpu *t = sd->smp->cpu[sd->sent[i]];
        sum += load_acquire(&t->flush.handler_ticks) + load_acquire(&t->flush.refill_ticks);
    }
    return sum;
}

/* One sample's numbers (ticks; the shootdown-only ones 0 for a local point). */
struct fc_sample {
    uint64_t lat, refill, own, work, crit;
};

/*
 * One sample of one mode: flush p pages (or everything), refill W, verify.
 * False: a CPU was lost.
 */
static bool sample(struct fc_state *st, uint32_t mode, uint32_t p, const struct fc_where *at,
                   struct fc_sample *out)
{
    struct shootdown *sd = &st->sd;
    uint32_t flags = mode ? FLUSH_ALL : 0;
    uint64_t t0, close, end;
    sd->full_uses_invpcid = mode == 2;
    if (MUTANT(remap_after_flush) && mode && st->ts.n == 0)
        sd->mutant_late_remap = p; /* shootdown_flush remaps after the local full flush */
    else
        testmem_flip(sd->tm, 0, p);
    *out = (struct fc_sample){ 0, 0, 0, 0, 0 };
    /* the initiator's working set in its TLB, as every target's is (its verification) */
    this_percpu()->touch_sink += testmem_touch_ws_form(sd->tm, at->form, at->w);
    /* the scattered form's page tables out of every CPU's caches (they are shared) */
    testmem_ws_chill(sd->tm, at->form, at->w);
    if (st->ts.n == 0) {
        t0 = tsc_open();
        if (!shootdown_flush(sd, NULL, 0, ORDER_CONCURRENT, 0, p, flags))
            return false;
        this_percpu()->touch_sink += testmem_touch_ws_form(sd->tm, at->form, at->w);
        out->lat = tsc_close() - t0;
        shootdown_verify_self(sd, this_percpu(), 0, p, false);
        out->lat = out->lat ? out->lat : 1;
        out->work = out->crit = out->lat;
        return true;
    }
    /* the targets refill after acknowledging, then touch the working set again at verification */
    out->lat = shootdown_flush(sd, st->ts.cpus, st->ts.n, ORDER_CONCURRENT, 0, p,
                               flags | FLUSH_VERIFY);
    if (!out->lat)
        return false;
    close = sd->close_tsc;
    /* the initiator's own refill: its process runs on after the flush */
    if (!MUTANT(fc_initiator_no_refill)) /* test-only: the initiator's refill left out */
        this_percpu()->touch_sink += testmem_touch_ws_form(sd->tm, at->form, at->w);
    end = tsc_close();
    out->own = end - close;
    if (!wait_refilled(sd))
        return false;
    end = tsc_close();
    /* the initiator's clock only: from the PTE change (close - lat) to the last refill seen */
    out->crit = out->lat + (end - close);
    if (!shootdown_wait_verified(sd))
        return false;
    out->refill = sd->max_refill_ticks;
    out->work = out->lat + out->own + targets_work(sd);
    return true;
}

static bool run_point(struct runner *r, struct fc_state *st, uint32_t p, const struct fc_where *at)
{
    uint64_t salt = (uint64_t)st->ts.n << 40 | (uint64_t)at->form << 36 | (uint64_t)at->w << 20 | p;
    uint32_t i, j, m, ord[FC_NMODES];
    for (m = 0; m < FC_NMODES; m++)
        st->first[m] = 0;
    for (i = 0; i < st->warmup + st->samples; i++) {
        if (load_acquire(&r->smp->aborting))
            return false;
        exp_variant_order(r, salt, i, st->nmodes, ord);
        if (i >= st->warmup)
            st->first[ord[0]]++;
        for (j = 0; j < st->nmodes; j++) {
            struct fc_sample s;
            m = ord[j];
            if (!sample(st, m, p, at, &s))
                return false;
            if (i >= st->warmup) {
                uint32_t k = i - st->warmup;
                st->lat[m][k] = s.lat;
                st->refill[m][k] = s.refill;
                st->own[m][k] = s.own;
                st->work[m][k] = s.work;
                st->crit[m][k] = s.crit;
            }
        }
    }
    return true;
}

/* The shootdown side of a point: the targets refill the working set of the point's form. */
static void targets_refill(struct fc_state *st, const struct fc_where *at)
{
    st->sd.touch_pages = at->k ? at->w : 0;
    st->sd.touch_form = at->form;
}

/* p25, p50, p75 of one sample array (sorted in place), into a curve's side */
static void quartiles(uint64_t *v, uint32_t n, struct stats *s, uint64_t *p25, uint64_t *p75)
{
    stats_from_array(v, n, s); /* sorts */
    *p25 = percentile_sorted(v, n, 250);
    *p75 = percentile_sorted(v, n, 750);
}

/* The shootdown-only metrics of point pt (mode m); *w: work's, the curve's side. */
static void shootdown_metrics(struct fc_state *st, struct result_point *pt, uint32_t m,
                              struct stats *w, uint64_t *w25, uint64_t *w75, struct stats *c)
{
    struct stats refill, own;
    uint64_t c25, c75;
    stats_from_array(st->refill[m], st->samples, &refill);
    stats_from_array(st->own[m], st->samples, &own);
    quartiles(st->work[m], st->samples, w, w25, w75);
    quartiles(st->crit[m], st->samples, c, &c25, &c75);
    point_metric(pt, "target_refill", &refill);
    point_metric(pt, "initiator_refill", &own);
    point_metric(pt, "work", w);
    point_metric(pt, "critical_path", c);
    point_value(pt, "work_p25", (int64_t)*w25 * 1000);
    point_value(pt, "work_p75", (int64_t)*w75 * 1000);
}

static void add_points(struct fc_state *st, struct experiment_record *rec, struct fc_row *row,
                       uint32_t p, bool added)
{
    uint32_t m, f, run = record_paired_run(rec), at_n = row->n;
    const struct fc_where *at = &row->at;
    for (m = 0; m < st->nmodes; m++) {
        struct result_point *pt;
        struct stats lat, w, c;
        uint64_t p25, p75;
        uint32_t index = rec->results.count;
        pt = point_list_add(&rec->results);
        /* the curve's samples in iteration order, before the sorts: pairs with the other modes' */
        point_keep_samples(rec, pt, at->k ? st->work[m] : st->lat[m], st->samples, run);
        quartiles(st->lat[m], st->samples, &lat, &p25, &p75);
        if (!pt)
            return;
        point_param_str(pt, "kind", at->k ? "shootdown" : "local");
        point_param_num(pt, "targets", at->k);
        point_param_num(pt, "working_set", at->w);
        point_param_str(pt, "working_set_form", fc_form_names[at->form]);
        point_param_num(pt, "pages", p);
        point_param_str(pt, "mode", fc_mode_names[m]);
        point_metric(pt, "latency", &lat);
        point_value(pt, "p25", (int64_t)p25 * 1000);
        point_value(pt, "p75", (int64_t)p75 * 1000);
        c = lat;
        if (at->k) {
            shootdown_metrics(st, pt, m, &w, &p25, &p75, &c);
            lat.p50 = w.p50; /* a shootdown's curve is its work */
        }
        exp_value_ran_first(pt, st->first[m]);
        if (added)
            point_value(pt, "added", 1000);
        if (m > 0) { /* full mode m: side b of its curves */
            struct curve_point *cw = &row->work[m - 1][at_n], *cc = &row->crit[m - 1][at_n];
            cw->b25 = p25;
            cw->b50 = lat.p50;
            cw->b75 = p75;
            cw->b_index = index;
            cw->b_kept = pt->kept;
            cc->b25 = cc->b50 = cc->b75 = c.p50;
            cc->b_index = index;
            continue;
        }
        for (f = 0; f + 1 < st->nmodes; f++) { /* invlpg: side a of every full mode's curves */
            row->work[f][at_n] = (struct curve_point){ .p = p, .a25 = p25, .a50 = lat.p50,
                                                       .a75 = p75, .a_index = index,
                                                       .a_kept = pt->kept, .nkept = pt->nkept };
            row->crit[f][at_n] = (struct curve_point){ .p = p, .a25 = c.p50, .a50 = c.p50,
                                                       .a75 = c.p50, .a_index = index };
        }
    }
    row->n++;
    row->added += added;
    st->added += added;
}

bool fc_measure(struct runner *r, struct experiment_record *rec, struct fc_state *st,
                struct fc_row *row, uint32_t p, bool added)
{
    uint32_t i, n = 0;
    uint64_t t0 = tsc_open();
    bool ok;
    row->tried = true;
    for (i = 0; i < st->norder && n < row->at.k; i++)
        if (smp_usable(r->smp, st->order[i]))
            st->ts.cpus[n++] = st->order[i];
    if (n < row->at.k) {
        rec->partial = true;
        return false;
    }
    if (row->n >= FC_MAX_CURVE)
        return false;
    st->ts.n = n;
    if (!shootdown_sync_all(&st->sd)) {
        rec->partial = true;
        return false;
    }
    targets_refill(st, &row->at);
    target_set_start(r, &st->ts);
    /* load the p pages into every TLB taking part (the flush must have work), and the
     * working set into the targets' (their verification touches it) */
    ok = shootdown_verify_cpus(&st->sd, st->ts.cpus, st->ts.n, 0, p, false) &&
         run_point(r, st, p, &row->at);
    target_set_stop(r, &st->ts);
    st->sd.touch_pages = 0;
    if (!ok) {
        rec->partial = true;
        return false;
    }
    add_points(st, rec, row, p, added);
    if (tsc_close() - t0 > row->point_max)
        row->point_max = tsc_close() - t0;
    return true;
}

bool fc_pilot_body(struct runner *r, struct fc_state *st, uint32_t p, const struct fc_where *at)
{
    uint32_t samples = st->samples, warmup = st->warmup;
    bool ok;
    /* runner_pilot_begin(): one sample, the rest warm-up; never recorded as a point */
    st->samples = runner_samples(r);
    st->warmup = runner_warmup(r);
    targets_refill(st, at);
    ok = run_point(r, st, p, at);
    st->samples = samples;
    st->warmup = warmup;
    st->sd.touch_pages = 0;
    return ok;
}
