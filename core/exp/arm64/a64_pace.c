/* The samples of an aarch64 experiment's points within its share of the run budget: see a64_pace.h. */
#include "core/exp/arm64/a64_pace.h"

#include "asm/timer.h"
#include "core/lib/mem.h"
#include "core/run/plan.h"

/* this experiment's share: what is left of run_budget_s over the experiments left, within budget_s */
static uint64_t share_ticks(const struct arm64_run *run, uint64_t now)
{
    uint64_t left = run->budget_end > now ? run->budget_end - now : 0;
    uint64_t share = left / (run->experiments_left ? run->experiments_left : 1);
    uint64_t cap = (uint64_t)run->budget_s * tick_freq();
    return run->budget_s && share > cap ? cap : share;
}

bool a64_pace_begin(struct arm64_run *run, struct experiment_record *e, struct a64_pace *p,
                    uint32_t points, uint32_t slots)
{
    mem_zero(p, sizeof(*p));
    p->start = ticks();
    p->planned = run->run_budget_s != 0;
    p->configured = run->samples ? run->samples : 1;
    p->floor = p->configured < PLAN_FLOOR ? p->configured : PLAN_FLOOR;
    p->points = points;
    p->share_ticks = p->planned ? share_ticks(run, p->start) : 0;
    p->min = UINT32_MAX;
    p->run = run;
    p->buf = mem_alloc((size_t)p->configured * (slots ? slots : 1) * sizeof(uint64_t));
    if (!p->buf) {
        record_set_status(e, RESULT_ERROR, "no memory for %u samples of a point", p->configured);
        return false;
    }
    return true;
}

/* the firmware's interrupts back (UEFI's RestoreTPL) after a point, or at the end */
static void unmask(struct a64_pace *p)
{
    if (p->masked && p->run->irq_restore)
        p->run->irq_restore(p->irq_token);
    p->masked = false;
}

void a64_pace_point(struct a64_pace *p)
{
    uint64_t now;
    if (!p->masked && p->run->irq_mask) {
        p->irq_token = p->run->irq_mask();
        p->masked = true;
    }
    now = ticks();
    uint32_t left = p->points > p->done ? p->points - p->done : 1;
    p->point_start = now;
    p->point_end = now + plan_pace_allowance(p->share_ticks, now - p->start, left);
}

uint32_t a64_pace_count(const struct a64_pace *p)
{
    uint64_t per_sample, want;
    if (!p->planned)
        return p->configured;
    if (!p->samples_done)
        return p->floor;
    per_sample = p->sample_ticks / p->samples_done + 1;
    want = (p->point_end - p->point_start) / per_sample;
    return want < p->floor ? p->floor : want > p->configured ? p->configured : (uint32_t)want;
}

bool a64_pace_more(const struct a64_pace *p, uint32_t taken)
{
    if (!p->planned)
        return taken < p->configured;
    return plan_pace_more(taken, p->floor, p->configured, ticks(), p->point_end);
}

void a64_pace_point_done(struct a64_pace *p, uint32_t taken, bool complete)
{
    unmask(p);
    p->done++;
    p->samples_done += taken;
    p->sample_ticks += ticks() - p->point_start;
    if (!complete) /* cut short by a lost CPU: not what the pace gave it */
        return;
    p->complete++;
    p->complete_samples += taken;
    if (taken < p->min)
        p->min = taken;
    if (taken > p->max)
        p->max = taken;
}

void a64_pace_end(struct arm64_run *run, struct experiment_record *e, struct a64_pace *p)
{
    struct plan_summary *s = &e->plan;
    uint64_t hz = tick_freq(), took = ticks() - p->start;
    uint64_t per_sample = p->samples_done ? took / p->samples_done : 0;
    unmask(p); /* a point left without its end (a lost CPU): the firmware frees the room */
    mem_free(p->buf);
    p->buf = 0;
    /* from the points measured in full: one cut short by a lost CPU says nothing of the pace */
    if (p->complete && p->min == p->max)
        record_note(e, "%u samples per point%s", p->min,
                    p->planned ? "" : " (run_budget_s=0: as configured, not planned)");
    else if (p->complete)
        record_note(e, "%u to %u samples per point: each point had an equal part of the experiment's "
                       "share of run_budget_s (plan)", p->min, p->max);
    if (!p->planned || !p->complete)
        return; /* plan: null, as x86's unplanned experiments */
    s->applied = true;
    s->measured = true;
    s->samples_configured = p->configured;
    s->samples = p->min; /* what every point got at least */
    s->samples_min = p->min;
    s->samples_max = p->max;
    s->reasons = p->min < p->configured ? PLAN_FEWER_SAMPLES : 0;
    s->share_ms = p->share_ticks * 1000 / hz;
    s->estimate_ms = took * 1000 / hz; /* paced as it ran: what it took */
    s->full_estimate_ms = per_sample * p->configured * p->points * 1000 / hz;
    s->rows_configured = s->rows = 1;
    s->cols_configured = s->cols = p->points;
    s->cols_name = "points";
    s->points_planned = p->points;
    /* the pace plans each point as it runs (its part of the share, at most the configured
     * samples): what the points measured in full took is what was planned for them */
    s->samples_planned = p->complete_samples;
    s->samples_achieved = p->samples_done;
    if (s->samples_achieved > (uint64_t)p->points * s->samples_max)
        s->samples_achieved = (uint64_t)p->points * s->samples_max;
}
