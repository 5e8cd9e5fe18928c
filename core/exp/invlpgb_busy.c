#include "core/exp/invlpgb_busy.h"
#include "asm/cpu.h"
#include "core/exp/target_lost.h"
#include "core/machine/emulate.h"
#include "core/lib/atomic.h"
#include "core/machine/ipi.h"
#include "core/machine/timing.h"
#include "core/mutant.h"
#include "core/run/experiments.h"

/* Written by the initiator only; the bystanders poll it once a pass. */
struct ib_busy_ctl {
    volatile uint64_t go;  /* window w opens: go == w */
    volatile uint64_t end; /* window w closes: end == w */
    volatile uint32_t stop;
    uint64_t deadline;
} __attribute__((aligned(CACHE_LINE)));

/* Written by its CPU only. */
struct ib_busy_line {
    volatile uint64_t nlost, lost_sum; /* flush handlers' lost time recorded, and its sum */
    volatile uint64_t started, done;   /* the window seen open / closed */
    volatile uint64_t win_ticks, win_passes;
} __attribute__((aligned(CACHE_LINE)));

bool ib_busy_init(struct ib_busy *b, uint32_t ncpus, uint32_t samples)
{
    mem_zero(b, sizeof(*b));
    b->ncpus = ncpus;
    b->ctl = mem_alloc_aligned(sizeof(*b->ctl), CACHE_LINE);
    b->line = mem_alloc_aligned(ncpus * sizeof(*b->line), CACHE_LINE);
    b->ws = mem_alloc_aligned((size_t)ncpus * SPIN_WS_BYTES, 4096);
    b->work = mem_alloc(4 * (size_t)ncpus * sizeof(uint64_t));
    b->lost[0] = mem_alloc(samples * sizeof(uint64_t));
    b->lost[1] = mem_alloc(samples * sizeof(uint64_t));
    if (!b->ctl || !b->line || !b->ws || !b->work || !b->lost[0] || !b->lost[1])
        return false;
    mem_zero(b->ctl, sizeof(*b->ctl));
    mem_zero(b->line, ncpus * sizeof(*b->line));
    mem_zero(b->ws, (size_t)ncpus * SPIN_WS_BYTES);
    return true;
}

void ib_busy_free(struct ib_busy *b)
{
    mem_free_aligned(b->ctl);
    mem_free_aligned(b->line);
    mem_free_aligned(b->ws);
    mem_free(b->work);
    mem_free(b->lost[0]);
    mem_free(b->lost[1]);
    mem_zero(b, sizeof(*b));
}

/* A bystander's window w: its passes until the initiator closes it, on its own clock. */
static uint32_t busy_window(struct ib_busy *b, struct ib_busy_line *l, uint8_t *ws, uint32_t line,
                            uint64_t w)
{
    uint64_t passes = 0, t0;
    store_release(&l->started, w);
    t0 = tsc_now();
    while (load_acquire(&b->ctl->end) != w && !deadline_passed(b->ctl->deadline)) {
        line = ipi_busy_ws_step(ws, line);
        passes++;
    }
    store_relaxed(&l->win_ticks, tsc_now() - t0);
    store_relaxed(&l->win_passes, passes);
    store_release(&l->done, w);
    return line;
}

/*
 * Every other CPU: busy_ws, each pass timed; a pass that held the flush
 * handler records its lost time (target_lost.h, as ipi_target_state's busy
 * state), a window opened by the initiator counts its passes.
 */
static int64_t busy_loop(struct percpu *self, void *arg)
{
    struct ib_busy *b = arg;
    struct ib_busy_line *l = &b->line[self->index];
    uint8_t *ws = b->ws + (size_t)self->index * SPIN_WS_BYTES;
    uint64_t seen = load_acquire(&self->flush.ack_gen), shortest = UINT64_MAX, prev, now;
    uint64_t win = load_acquire(&b->ctl->go);
    uint32_t line = 0;
    irq_enable();
    prev = tsc_now();
    while (!load_acquire(&b->ctl->stop) && !load_acquire(&self->smp->aborting) &&
           !deadline_passed(b->ctl->deadline)) {
        uint64_t h, lost, w;
        line = ipi_busy_ws_step(ws, line);
        now = tsc_now();
        h = load_acquire(&self->flush.ack_gen);
        if (target_lost_account(LOST_GAP, prev, now, h != seen,
                                load_relaxed(&self->flush.entry_tsc), &shortest, NULL, NULL,
                                &lost) == LOST_RECORDED) {
            store_relaxed(&l->lost_sum, l->lost_sum + lost);
            store_release(&l->nlost, l->nlost + 1);
            seen = h;
            now = tsc_now(); /* the bookkeeping is not a pass */
        }
        w = load_acquire(&b->ctl->go);
        if (w != win) {
            win = w;
            line = busy_window(b, l, ws, line, w);
            now = tsc_now();
        }
        prev = now;
    }
    irq_disable();
    return 0;
}

static bool busy_start(struct runner *r, struct ib_busy *b, const struct target_set *ts)
{
    uint32_t i;
    b->ctl->deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    store_release(&b->ctl->stop, 0);
    for (i = 0; i < ts->n; i++)
        if (smp_usable(r->smp, ts->cpus[i]))
            smp_post(r->smp, ts->cpus[i], CMD_GENERIC, busy_loop, b);
    return true;
}

static bool busy_stop(struct runner *r, struct ib_busy *b, const struct target_set *ts)
{
    uint64_t deadline = tsc_now() + r->smp->timeout_ticks;
    uint32_t i;
    bool ok = true;
    store_release(&b->ctl->stop, 1);
    for (i = 0; i < ts->n; i++)
        if (smp_usable(r->smp, ts->cpus[i]) &&
            smp_wait(r->smp, ts->cpus[i], deadline) != WAIT_OK)
            ok = false;
    return ok;
}

/*
 * After a shootdown: each target's lost time for it (recorded by its next
 * pass at the latest, counted from work[] as ipi_sample() left it), summed
 * over the targets into *sum, and into *all whatever the mutant. False if a
 * target never records.
 */
static bool targets_lost(struct smp *s, struct ib_busy *b, const struct target_set *ts,
                         uint64_t *sum, uint64_t *all)
{
    uint64_t deadline = tsc_now() + s->timeout_ticks, *nbefore = b->work + 2 * b->ncpus;
    uint64_t *sbefore = nbefore + b->ncpus;
    uint32_t i;
    *sum = *all = 0;
    for (i = 0; i < ts->n; i++) {
        struct ib_busy_line *l = &b->line[ts->cpus[i]];
        uint64_t lost;
        if (!wait_u64_ge(&l->nlost, nbefore[i] + 1, deadline))
            return false;
        lost = load_acquire(&l->lost_sum) - sbefore[i];
        *all += lost;
        if (!(MUTANT(target_lost_first_only) && i > 0)) /* test-only: one target for all */
            *sum += lost;
    }
    return true;
}

/* One IPI sample: a concurrent 1-page shootdown, its latency and the targets' loss. */
static bool ipi_sample(struct runner *r, struct ib_busy *b, struct shootdown *sd,
                       const struct target_set *ts, uint64_t *lat, uint64_t *lost, uint64_t *all)
{
    uint64_t *nbefore = b->work + 2 * b->ncpus, *sbefore = nbefore + b->ncpus;
    uint32_t i;
    for (i = 0; i < ts->n; i++) {
        nbefore[i] = load_acquire(&b->line[ts->cpus[i]].nlost);
        sbefore[i] = load_acquire(&b->line[ts->cpus[i]].lost_sum);
    }
    *lat = shootdown_flush(sd, ts->cpus, ts->n, ORDER_CONCURRENT, 0, 1, 0);
    return *lat && targets_lost(r->smp, b, ts, lost, all);
}

/* One window w: `op` IB_BUSY_OPS times (or a spin of `spin` ticks); the initiator's ticks. */
static bool busy_window_run(struct smp *s, struct ib_busy *b, const struct target_set *ts,
                            ib_busy_op op, void *ctx, uint64_t spin, uint64_t *ticks)
{
    uint64_t w = b->ctl->go + 1, deadline = tsc_now() + s->timeout_ticks, t0;
    uint32_t i;
    store_release(&b->ctl->go, w);
    for (i = 0; i < ts->n; i++)
        if (!wait_u64_eq(&b->line[ts->cpus[i]].started, w, deadline))
            return false;
    t0 = tsc_open();
    if (op && !MUTANT(bystander_without_loop)) {
        for (i = 0; i < IB_BUSY_OPS; i++)
            op(ctx);
        b->ops += IB_BUSY_OPS;
    } else {
        if (op) /* test-only: the window as long as an INVLPGB loop, without one */
            spin = ms_to_ticks(1) / 50;
        /* spin-ok: a window of `spin` ticks on this CPU's own clock, nothing waited for */
        while (tsc_now() - t0 < spin)
            cpu_relax();
    }
    *ticks = tsc_close() - t0;
    store_release(&b->ctl->end, w);
    deadline = tsc_now() + s->timeout_ticks;
    for (i = 0; i < ts->n; i++)
        if (!wait_u64_eq(&b->line[ts->cpus[i]].done, w, deadline))
            return false;
    return true;
}

/*
 * The bystander sample: a loaded window, then a quiet one as long; each
 * bystander's passes of the loaded window at its quiet rate, and what is
 * left of the window is its loss (at least 0), summed, per INVLPGB.
 */
static bool bystander_sample(struct smp *s, struct ib_busy *b, const struct target_set *ts,
                             ib_busy_op op, void *ctx, uint64_t *lat, uint64_t *lost)
{
    uint64_t loaded, quiet, sum = 0, *work = b->work;
    uint32_t i;
    if (!busy_window_run(s, b, ts, op, ctx, 0, &loaded))
        return false;
    for (i = 0; i < ts->n; i++) { /* keep the loaded windows before the quiet ones overwrite them */
        struct ib_busy_line *l = &b->line[ts->cpus[i]];
        work[2 * i] = load_acquire(&l->win_ticks);
        work[2 * i + 1] = load_acquire(&l->win_passes);
    }
    if (!busy_window_run(s, b, ts, NULL, NULL, loaded, &quiet))
        return false;
    for (i = 0; i < ts->n; i++) {
        struct ib_busy_line *l = &b->line[ts->cpus[i]];
        uint64_t qt = load_acquire(&l->win_ticks), qp = load_acquire(&l->win_passes);
        uint64_t expect = qp ? work[2 * i + 1] * qt / qp : 0;
        if (qp && work[2 * i] > expect)
            sum += work[2 * i] - expect;
    }
    *lat = loaded / IB_BUSY_OPS;
    *lost = sum / IB_BUSY_OPS;
    return true;
}

/* What one point of the rows measured. */
struct busy_point {
    struct stats lat, lost;
    uint32_t first;
    uint64_t all_sum; /* ipi: every target's loss, summed over samples (the mutant's check) */
    uint64_t emulated_invlpgb, emulated_tlbsync;
    uint64_t ops; /* invlpgb: INVLPGB+TLBSYNC run in its loaded windows, warm-up included */
};

static void busy_add_point(struct runner *r, struct experiment_record *rec, struct shootdown *sd,
                           const struct target_set *ts, uint32_t m, uint64_t *lat,
                           struct busy_point *bp, uint32_t run)
{
    struct result_point *pt = point_list_add(&rec->results);
    uint32_t samples = runner_samples(r), warmup = runner_warmup(r);
    point_keep_samples(rec, pt, lat, samples, run);
    stats_from_array(lat, samples, &bp->lat);
    if (!pt)
        return;
    point_param_str(pt, "method", m ? "ipi" : "invlpgb");
    point_param_str(pt, "form", "pages");
    point_param_num(pt, "pages", 1);
    point_param_num(pt, "cpus", ts->n + 1);
    point_param_str(pt, "pti", sd->pti != PTI_OFF ? "on" : "off");
    point_param_str(pt, "path", "linux");
    point_param_str(pt, "targets_doing", "busy_ws");
    if (m && sd->cluster_ipis)
        point_param_str(pt, "ipi_mode", "x2apic_cluster");
    /* every other CPU, from the BSP: the IPI row's targets, the INVLPGB row's bystanders */
    point_class_mix(pt, r->smp->topo, 0, ts->cpus, ts->n);
    point_metric(pt, "latency", &bp->lat);
    point_metric(pt, m ? "target_lost" : "bystander_lost", &bp->lost);
    if (m) {
        point_value(pt, "lost_targets", (int64_t)ts->n * 1000);
        /* every target's loss per shootdown, averaged per target: sum / (samples x targets) */
        point_value(pt, "lost_per_target_mean",
                    (int64_t)(bp->all_sum * 1000 / ((uint64_t)samples * (ts->n ? ts->n : 1))));
    } else {
        /* what the initiator ran inside the loaded windows: the evidence of the row */
        point_value(pt, "invlpgb_per_window", (int64_t)(bp->ops * 1000 / (warmup + samples)));
    }
    if (r->emulated) {
        point_value(pt, "emulated_invlpgb", (int64_t)bp->emulated_invlpgb * 1000);
        point_value(pt, "emulated_tlbsync", (int64_t)bp->emulated_tlbsync * 1000);
    }
    exp_value_ran_first(pt, bp->first);
}

/* One sample of point m (0 invlpgb, 1 ipi), remapped before and verified after. */
static bool busy_sample(struct runner *r, struct ib_busy *b, struct shootdown *sd,
                        const struct target_set *ts, ib_busy_op op, void *ctx, uint32_t m,
                        uint64_t *lat, uint64_t *lost, uint64_t *all)
{
    bool ok;
    testmem_flip(sd->tm, 0, 1);
    if (m)
        ok = ipi_sample(r, b, sd, ts, lat, lost, all);
    else
        ok = bystander_sample(r->smp, b, ts, op, ctx, lat, lost);
    return ok && shootdown_verify_cpus(sd, ts->cpus, ts->n, 0, 1, false);
}

bool ib_busy_rows(struct runner *r, struct experiment_record *rec, struct ib_busy *b,
                  struct shootdown *sd, struct target_set *ts, ib_busy_op op, void *ctx,
                  uint64_t *lat[2])
{
    struct busy_point bp[2];
    uint32_t samples = runner_samples(r), warmup = runner_warmup(r), i, j, ord[2], run;
    bool ok = true;
    mem_zero(bp, sizeof(bp));
    target_set_all_others(r, ts);
    if (!ts->n || !shootdown_sync_all(sd)) {
        rec->partial = true;
        return true;
    }
    busy_start(r, b, ts);
    ok = shootdown_verify_cpus(sd, ts->cpus, ts->n, 0, 1, false);
    for (i = 0; ok && i < warmup + samples; i++) {
        exp_variant_order(r, 0xb5u, i, 2, ord);
        if (i >= warmup)
            bp[ord[0]].first++;
        for (j = 0; ok && j < 2; j++) {
            uint32_t m = ord[j];
            struct emulation_counts before = *emulate_counts();
            uint64_t t = 0, lost = 0, all = 0, ops = b->ops;
            ok = busy_sample(r, b, sd, ts, op, ctx, m, &t, &lost, &all);
            bp[m].ops += b->ops - ops;
            bp[m].emulated_invlpgb += emulate_counts()->invlpgb - before.invlpgb;
            bp[m].emulated_tlbsync += emulate_counts()->tlbsync - before.tlbsync;
            if (i < warmup)
                continue;
            lat[m][i - warmup] = t;
            b->lost[m][i - warmup] = lost;
            bp[m].all_sum += all;
        }
    }
    ok = busy_stop(r, b, ts) && ok;
    if (!ok) {
        rec->partial = true;
        return true;
    }
    stats_from_array(b->lost[0], samples, &bp[0].lost);
    stats_from_array(b->lost[1], samples, &bp[1].lost);
    run = record_paired_run(rec);
    for (j = 0; j < 2; j++) {
        if (rec->results.count >= rec->results.capacity)
            return false;
        busy_add_point(r, rec, sd, ts, j, lat[j], &bp[j], run);
    }
    return true;
}
