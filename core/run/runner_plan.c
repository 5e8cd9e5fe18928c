/*
 * The runner's side of planning (core/run/plan.h): each experiment's share of
 * run_budget_s, the plan in force (runner_samples() and runner_warmup()
 * return its values), and what the record says about it.
 *
 * Shares go by weight: the shootdown experiments, where every sample
 * interrupts up to every CPU, get more than the IPI ones.
 * Experiments that plan nothing (stale_detector_control: a fixed number of
 * rounds) have weight 0 but spend from the budget all the same, and what an
 * experiment leaves unspent goes to the ones after it.
 */
#include "core/run/runner_plan.h"
#include "core/run/verify_collect.h"
#include "asm/cpu.h"
#include "core/machine/shootdown.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

static const struct {
    const char *id;
    uint32_t weight;
} weights[] = {
    { "ipi_roundtrip", 1 },  { "ipi_broadcast", 1 },           { "shootdown_seq_vs_conc", 4 },
    { "shootdown_lazy", 3 }, { "pti_double_invalidation", 2 }, { "invlpgb_range", 2 },
    { "flush_ceiling", 2 },  { "shootdown_contention", 2 },
};

uint32_t runner_plan_weight(const char *id)
{
    uint32_t i;
    for (i = 0; i < sizeof(weights) / sizeof(weights[0]); i++)
        if (str_eq(weights[i].id, id))
            return weights[i].weight;
    return 0;
}

void runner_plan_start_run(struct runner *r, uint32_t weights_to_run)
{
    r->plan_left_ticks = ms_to_ticks((uint64_t)r->run->cfg.run_budget_s * 1000);
    r->plan_weights_left = weights_to_run;
    r->plan_weights_total = weights_to_run;
}

void runner_plan_start(struct runner *r, const char *id)
{
    uint32_t w = runner_plan_weight(id);
    r->plan_samples = 0;
    r->plan_warmup = 0;
    r->plan_share_ticks = 0;
    r->plan_track.npoints = 0;
    r->plan_started = tsc_now();
    if (r->run->cfg.run_budget_s && w)
        r->plan_share_ticks = plan_share_within(
            plan_share(ms_to_ticks((uint64_t)r->run->cfg.run_budget_s * 1000), r->plan_left_ticks,
                       w, r->plan_weights_left, r->plan_weights_total),
            ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000));
    if (!r->plan_share_ticks && r->run->cfg.run_budget_s && w)
        r->plan_share_ticks = 1; /* the budget is spent: plan for the floor, not "unplanned" */
}

void runner_plan_end(struct runner *r, const char *id, uint64_t spent_ticks,
                     struct experiment_record *rec)
{
    uint32_t w = runner_plan_weight(id), i;
    r->plan_left_ticks = spent_ticks < r->plan_left_ticks ? r->plan_left_ticks - spent_ticks : 0;
    r->plan_weights_left = w < r->plan_weights_left ? r->plan_weights_left - w : 0;
    r->plan_samples = 0;
    r->plan_warmup = 0;
    if (!rec->plan.applied)
        return;
    rec->plan.samples_achieved = 0;
    for (i = 0; i < rec->results.count; i++)
        if (rec->results.items[i].nmetrics)
            rec->plan.samples_achieved += rec->results.items[i].metrics[0].st.n;
}

bool runner_plan_fits(struct runner *r, const struct plan_request *q)
{
    struct plan_request trial = *q;
    struct plan p;
    uint64_t pilot = tsc_now() - r->plan_started;
    trial.share_ticks = r->plan_share_ticks;
    if (!trial.share_ticks)
        return true;
    /* the same share and samples as runner_plan() */
    trial.share_ticks = pilot < trial.share_ticks / 2 ? trial.share_ticks - pilot
                                                       : trial.share_ticks - trial.share_ticks / 2;
    if (!trial.samples) {
        trial.samples = r->run->cfg.samples;
        trial.warmup = r->run->cfg.warmup;
    }
    trial.floor = PLAN_FLOOR;
    plan_make(&trial, &p);
    return !(p.reasons & PLAN_NO_FIT);
}

bool runner_plan(struct runner *r, struct experiment_record *rec, struct plan_request *q,
                 const char *rows_name, const char *cols_name, uint32_t results_per_point,
                 struct plan *p)
{
    char text[RECORD_REASON_LEN];
    uint64_t pilot = tsc_now() - r->plan_started;
    /* the pilot spent part of the share; half of it stays, whatever the pilot took */
    q->share_ticks = r->plan_share_ticks;
    if (q->share_ticks)
        q->share_ticks = pilot < q->share_ticks / 2 ? q->share_ticks - pilot
                                                     : q->share_ticks - q->share_ticks / 2;
    if (!q->samples) { /* an experiment with its own sample count (flush_ceiling) sets it */
        q->samples = r->run->cfg.samples;
        q->warmup = r->run->cfg.warmup;
    }
    q->floor = PLAN_FLOOR;
    plan_make(q, p);
    if (!q->share_ticks)
        return true; /* not planned: run_budget_s=0, or the experiment has no share */
    {
        /*
         * The pilot's reads are the experiment's checks too, counted apart:
         * what its points read stays an exact function of their grid
         * (tests/qemu/shape.jq). The pilot's CPUs are idle again here.
         */
        uint64_t before = rec->verification.checks;
        verify_collect(r->smp, rec);
        rec->verification.pilot_checks += rec->verification.checks - before;
    }
    plan_summarize(q, p, ms_to_ticks(1), results_per_point, &rec->plan);
    rec->plan.share_ms = ticks_to_ms(r->plan_share_ticks);
    rec->plan.pilot_ms = ticks_to_ms(pilot);
    rec->plan.rows_name = rows_name;
    rec->plan.cols_name = cols_name;
    r->plan_samples = p->samples;
    r->plan_warmup = p->warmup;
    plan_track_init(&r->plan_track, q, p, tsc_now(), tsc_now() + q->share_ticks);
    plan_describe(&rec->plan, text, sizeof(text));
    if (p->reasons & PLAN_NO_FIT) {
        /*
         * Over its share even at the floor, on the fewest points: a slow
         * machine, not a broken one. Measured all the same when the floor
         * fits the experiment's hard stop (budget_s); ERROR only when not.
         */
        uint64_t now = tsc_now();
        uint64_t hard = r->budget_deadline > now ? r->budget_deadline - now : 0;
        if (p->estimate_ticks > hard) {
            rec->plan.measured = false;
            record_escalate(rec, RESULT_ERROR, "plan: %s; more than budget_s=%u allows: not "
                            "measured", text, r->run->cfg.budget_s);
            return false;
        }
        r->plan_track.npoints = 0; /* at the floor already: nothing left to cut */
        record_note(rec, "plan %s; measured, within budget_s=%u", text, r->run->cfg.budget_s);
        return true;
    }
    if (p->reasons)
        record_note(rec, "plan %s", text);
    return true;
}

bool runner_pilot(struct runner *r, pilot_run run, void *ctx, uint64_t *per_iter,
                  uint64_t *per_point)
{
    /*
     * The long run lasts 1/256 of the share, 5 to 50 ms: 10 round trips on
     * an emulator looked 8 times cheaper than the 100 000 after them, which
     * met the host's preemptions (QEMU TCG, 288 CPUs, 2 cores). Longer
     * would cost a small machine more than its points (and the plan is
     * followed while it runs: runner_plan_follow()).
     */
    uint64_t t_short, t_long, t_again, least = r->plan_share_ticks / 256;
    uint32_t n = PLAN_PILOT_ITERS;
    if (least < ms_to_ticks(5))
        least = ms_to_ticks(5);
    if (least > ms_to_ticks(50))
        least = ms_to_ticks(50);
    /* the first short run takes the cold start (an emulator translating code) and is dropped */
    if (!run(r, ctx, PLAN_PILOT_SHORT, &t_short) || !run(r, ctx, PLAN_PILOT_SHORT, &t_short))
        return false;
    for (;;) {
        if (!run(r, ctx, n, &t_long))
            return false;
        if (t_long >= least || n >= PLAN_PILOT_MAX)
            break;
        n *= 4;
    }
    /*
     * Once more, the faster of the two: a preempted run is only ever slower
     * (QEMU TCG, 288 CPUs, a host at load 190: one long run made
     * flush_ceiling's floor look 100 times dearer than it was, and it was
     * not measured at all).
     */
    if (!run(r, ctx, n, &t_again))
        return false;
    if (t_again < t_long)
        t_long = t_again;
    plan_pilot_fit(t_short, t_long, n, per_iter, per_point);
    return true;
}

void runner_pilot_begin(struct runner *r, uint32_t iterations)
{
    r->plan_samples = 1;
    r->plan_warmup = iterations > 1 ? iterations - 1 : 0;
}

void runner_pilot_end(struct runner *r)
{
    r->plan_samples = 0;
    r->plan_warmup = 0;
}

void runner_plan_follow(struct runner *r, uint64_t done)
{
    struct plan_summary *s = &r->rec->plan;
    if (!r->plan_samples || done > UINT32_MAX ||
        !plan_track_adapt(&r->plan_track, (uint32_t)done, tsc_now()))
        return;
    r->plan_samples = r->plan_track.samples;
    r->plan_warmup = r->plan_track.warmup;
    if (r->plan_track.samples < s->samples_min)
        s->samples_min = r->plan_track.samples;
    if (r->plan_track.samples > s->samples_max)
        s->samples_max = r->plan_track.samples;
    s->replans = r->plan_track.replans;
}

uint64_t runner_plan_deadline(const struct runner *r)
{
    return r->plan_share_ticks && r->plan_samples ? r->plan_track.deadline : 0;
}

uint32_t runner_plan_budget_for(const struct runner *r, const char *id, uint64_t ticks)
{
    uint32_t w = runner_plan_weight(id);
    uint64_t s, least = (uint64_t)r->run->cfg.run_budget_s + 10;
    if (!w)
        return 0;
    s = (ticks_to_ms(ticks) / w * (r->plan_weights_total ? r->plan_weights_total : w) + 999) /
        1000;
    s = s > least ? s : least;
    s = (s + 9) / 10 * 10;
    return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}
