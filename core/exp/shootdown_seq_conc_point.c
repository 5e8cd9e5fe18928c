/*
 * Measuring one point of shootdown_seq_conc (core/exp/shootdown_seq_conc.c,
 * whose top comment is the method): the initiator's loop over the point's
 * variants in their order, run on the initiator CPU, and the point's result
 * rows with their ratios.
 */
#include "core/exp/shootdown_seq_conc.h"

#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/exp/shootdown_breakdown.h"
#include "core/exp/protocol_steps.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/machine/placement.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

/* Runs on the initiator: warm-up and samples of every variant, then the baseline. */
static int64_t run_point(struct percpu *self, void *arg)
{
    struct point_job *job = arg;
    struct sc_state *st = job->st;
    struct target_set *ts = &st->ts;
    uint32_t i, j, m, ord[SC_MAX_VARIANTS];
    for (m = 0; m < SC_MAX_VARIANTS; m++)
        st->first[m] = 0;
    for (i = 0; i < job->warmup + job->samples; i++) {
        if (load_acquire(&self->smp->aborting))
            return -1; /* the BSP lost the experiment (smp_abort_commands) */
        exp_variant_order(st->r, job->salt, i, job->nvariants, ord);
        if (i >= job->warmup)
            st->first[ord[0]]++;
        for (j = 0; j < job->nvariants; j++) {
            uint64_t t;
            m = ord[j];
            /* the targets read it after the request's release: every ack of the last is in */
            st->sd.full_uses_invpcid = job->variant[m].flush == 1;
            if (MUTANT(remap_after_flush) && !job->variant[m].conc)
                st->sd.mutant_late_remap = job->pages; /* shootdown_flush remaps after its flush */
            else
                testmem_flip(st->sd.tm, 0, job->pages);
            t = shootdown_flush(&st->sd, ts->cpus, ts->n,
                                job->variant[m].conc ? ORDER_CONCURRENT : ORDER_SEQUENTIAL, 0,
                                job->pages, FLUSH_VERIFY);
            if (!t || !shootdown_wait_verified(&st->sd))
                return -1;
            if (i >= job->warmup) {
                uint32_t k = i - job->warmup;
                st->lat[m][k] = t;
                st->handler[m][k] = st->sd.max_handler_ticks;
                breakdown_take(&st->parts[m], k, &st->sd.parts);
            }
        }
        store_relaxed(&job->progress, i + 1);
    }
    for (i = 0; i < job->nbase; i++) {
        uint64_t t = shootdown_flush(&st->sd, ts->cpus, ts->n, ORDER_CONCURRENT, 0, 0, 0);
        if (!t)
            return -1;
        st->base[i] = t;
    }
    return 0;
}

/* The initiator is the BSP unless initiator= names an AP; the BSP then is a target too. */
static bool run_on_initiator(struct runner *r, struct point_job *job)
{
    uint32_t init = r->run->cfg.initiator;
    if (init == 0)
        return run_point(r->smp->cpu[0], job) == 0;
    if (!smp_usable(r->smp, init))
        return false;
    smp_post(r->smp, init, CMD_GENERIC, run_point, job);
    irq_enable();
    if (smp_wait_progress(r->smp, init, &job->progress) != WAIT_OK) {
        irq_disable();
        return false;
    }
    irq_disable();
    return load_acquire(&r->smp->cpu[init]->ack.result) == 0;
}

/* Variant v's point: its samples kept (paired_run) before the sorts, then its statistics. */
void sc_add_point(struct experiment_record *rec, struct sc_state *st, uint32_t init, uint32_t v,
                  const char *mode, uint32_t placement, uint32_t k, uint32_t p,
                  const char *flush, uint32_t samples, uint32_t nbase, uint32_t paired_run,
                  struct stats *lat_out)
{
    struct result_point *pt = point_list_add(&rec->results);
    struct stats h, b;
    /* the protocol's steps: the 1-page concurrent shootdown to one target, before the sorts */
    if (k == 1 && p == 1 && str_eq(mode, "conc") && placement == SC_NEAREST &&
        str_eq(flush, "invlpg"))
        protocol_steps_shootdown(st->r, st->lat[v], st->parts[v].send, st->parts[v].handler,
                                 st->parts[v].dack, samples);
    point_keep_samples(rec, pt, st->lat[v], samples, paired_run); /* iteration order */
    stats_from_array(st->lat[v], samples, lat_out);
    stats_from_array(st->handler[v], samples, &h);
    if (!pt)
        return;
    point_param_str(pt, "mode", mode);
    if (placement != SC_NEAREST)
        point_param_str(pt, "placement", placement_name(placement));
    if (st->sd.cluster_ipis)
        point_param_str(pt, "ipi_mode", "x2apic_cluster");
    point_param_num(pt, "targets", k);
    point_param_num(pt, "pages", p);
    point_param_str(pt, "flush", flush);
    point_metric(pt, "latency", lat_out);
    point_metric(pt, "remote_handler", &h);
    stats_from_array(st->base, nbase, &b);
    point_metric(pt, "baseline", &b);
    breakdown_add_values(pt, &st->parts[v], samples, st->ts.cpus, st->ts.n);
    exp_value_ran_first(pt, st->first[v]);
    point_class_mix(pt, st->sd.smp->topo, init, st->ts.cpus, st->ts.n);
    if (st->sd.cluster_ipis)
        point_value(pt, "icr_writes", (int64_t)apic_cluster_writes(st->ts.cpus, st->ts.n,
                                                                   st->sd.smp->apic_id,
                                                                   UINT32_MAX) * 1000);
}

int64_t sc_ratio_milli(uint64_t num, uint64_t den)
{
    return den ? (int64_t)(num * 1000 / den) : 0;
}

/*
 * One (k, p) point: the first k targets still usable, in topology order
 * (or k of a placement), primed with the pages, then the job on the
 * initiator. *run_ticks: the job's time on the BSP's clock; *setup_ticks:
 * sync, start and priming.
 */
bool sc_point(struct runner *r, struct experiment_record *rec, struct sc_state *st,
              uint32_t placement, uint32_t k, struct point_job *job,
              uint64_t *setup_ticks, uint64_t *run_ticks)
{
    uint32_t i, n = 0;
    uint64_t t0 = tsc_now(), t1;
    bool ok;
    if (placement != SC_NEAREST)
        n = runner_placement_pick(r, r->run->cfg.initiator, placement, k, st->ts.cpus);
    for (i = 0; placement == SC_NEAREST && i < st->norder && n < k; i++)
        if (smp_usable(r->smp, st->order[i]))
            st->ts.cpus[n++] = st->order[i];
    if (st->sd.cluster_ipis)
        ipi_sort_by_apic(r->smp, st->ts.cpus, n); /* one logical write per cluster, as Linux */
    if (n < k)
        rec->partial = true;
    st->ts.n = n;
    if (n == 0 || !shootdown_sync_all(&st->sd)) {
        rec->partial = true;
        return false;
    }
    target_set_start(r, &st->ts);
    /* load the pages into every TLB: a shootdown must have something to shoot */
    ok = shootdown_verify_cpus(&st->sd, st->ts.cpus, st->ts.n, 0, job->pages, false);
    t1 = tsc_open();
    ok = ok && run_on_initiator(r, job);
    *run_ticks = tsc_close() - t1;
    *setup_ticks = t1 - t0;
    target_set_stop(r, &st->ts);
    if (!ok)
        rec->partial = true;
    return ok;
}
