/*
 * flush_ceiling under a budget (run_budget_s, core/run/plan.h): the pilot,
 * which curves and page counts the share keeps (fc_plan()), and what it has
 * left once they are measured (fc_after_plan()); the method is at the top
 * of flush_ceiling.c.
 *
 * The samples are at or below the floor already, so a plan that must
 * shrink leaves out curves first, those of working set 64 and then of the
 * most targets (where there are two target kinds), then measures every
 * 2nd, 4th... page count (1 and 512 always) but every count from two
 * thirds to one and a half times the configured ceiling (24 to 48 at 33:
 * where p* lies), a range that narrows toward the ceiling down to "1,
 * ceiling, 512", then leaves out more curves, the least important first
 * (fc_rank_rows()), down to one: never fewer than 3 page counts on a
 * curve, the fewest a crossover can be found on (issue 32: it went from 5
 * counts straight to 1, and every p* read "no crossing"). A curve left
 * out says so in its summary (pages_measured, and needs_run_budget_s: the
 * run_budget_s at which every curve gets its 3 counts, by the pilot's
 * upper bound), never "no crossing". What the share has left when the
 * plan is done goes, by the points' measured cost, first to page counts
 * between the two around each crossing where they are more than a quarter
 * apart (value `added` on those points), then to the curves left out (3
 * counts each, then their crossings). The pilot times a shootdown to every
 * other CPU at the fewest and at the most pages with the largest working
 * set, contiguous, and at the most pages scattered and cold, and every
 * point is costed as that (local points cost less: an upper bound).
 */
#include "core/exp/flush_ceiling.h"

#include "asm/cpu.h"
#include "core/mutant.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

/* Rank of a working set: the one the recommendation reads, its cold form, then by distance. */
static uint32_t set_rank(const struct fc_set *s, uint32_t typical)
{
    if (s->form == WS_SCATTERED)
        return 1;
    if (s->w == typical)
        return 0;
    return 2 + (s->w > typical ? s->w - typical : typical - s->w);
}

uint32_t fc_rank_rows(const uint32_t *kinds, uint32_t nkinds, const struct fc_set *sets,
                      uint32_t nsets, uint32_t typical_ws, uint32_t smallest_ws, uint8_t *rank,
                      uint32_t *core)
{
    /* group 0: the core; 1: the largest kind's other curves; 2: the smallest working set */
    uint32_t n = 0, group, i, j, shootdown_kinds = 0, largest = 0;
    for (i = 0; i < nkinds; i++)
        if (kinds[i]) {
            shootdown_kinds++;
            largest = kinds[i] > largest ? kinds[i] : largest;
        }
    *core = 0;
    for (group = 0; group < 3; group++) {
        uint32_t first = n;
        for (i = 0; i < nkinds * nsets; i++) {
            const struct fc_set *s = &sets[i % nsets];
            uint32_t k = kinds[i / nsets];
            bool small = nsets > 1 && s->form == WS_CONTIGUOUS && s->w == smallest_ws &&
                         s->w != typical_ws;
            bool dropped_kind = shootdown_kinds > 1 && k == largest;
            if ((small ? 2u : dropped_kind ? 1u : 0u) == group)
                rank[n++] = (uint8_t)i;
        }
        /* within a group: by working set (rank), then by kind (local first) */
        for (i = first + 1; i < n; i++)
            for (j = i; j > first; j--) {
                const struct fc_set *a = &sets[rank[j - 1] % nsets], *b = &sets[rank[j] % nsets];
                uint32_t ra = set_rank(a, typical_ws), rb = set_rank(b, typical_ws);
                uint8_t t;
                if (group == 2 ? rank[j - 1] < rank[j]
                               : ra < rb || (ra == rb && rank[j - 1] < rank[j]))
                    break;
                t = rank[j];
                rank[j] = rank[j - 1];
                rank[j - 1] = t;
            }
        if (group == 0)
            *core = n;
    }
    return n;
}

uint32_t fc_refine_between(uint32_t lo, uint32_t hi)
{
    uint64_t prod = (uint64_t)lo * hi, best_d = UINT64_MAX, g = 0;
    uint32_t i, best = 0;
    if (lo == 0 || hi <= lo + 1 || (uint64_t)hi * 4 <= (uint64_t)lo * 5)
        return 0;
    /* distance from the geometric middle in log p: c^2 against lo hi, as a ratio x 1000 */
    for (i = 0; i < FC_MAX_P; i++) {
        uint64_t c = fc_pages_default[i], d;
        if (c <= lo || c >= hi)
            continue;
        d = c * c >= prod ? c * c * 1000 / prod : prod * 1000 / (c * c);
        if (d < best_d) {
            best_d = d;
            best = (uint32_t)c;
        }
    }
    if (best)
        return best;
    while ((g + 1) * (g + 1) <= prod)
        g++;
    if ((g + 1) * (g + 1) - prod < prod - g * g)
        g++; /* the nearer integer */
    return g > lo && g < hi ? (uint32_t)g : 0;
}

/*
 * The pilot's cost model: a shootdown to every other CPU, linear in the
 * pages; the cold form adds what its cold walks cost at the most pages.
 */
static uint64_t fc_cost(const void *ctx, uint32_t row, uint32_t col)
{
    const struct fc_state *st = ctx;
    uint32_t p0 = st->pages[0], pn = st->pages[st->npages - 1];
    uint64_t c, fewest = st->pilot_fewest, most = st->pilot_most;
    if (most <= fewest || pn == p0)
        c = most > fewest ? most : fewest;
    else
        c = fewest + (most - fewest) * (st->pages[col] - p0) / (pn - p0);
    /* rows: kind major, then (working set, form) */
    if (st->sets[row % st->nsets].form == WS_SCATTERED && st->pilot_most_cold > most)
        c += st->pilot_most_cold - most;
    return c;
}

struct fc_pilot_point {
    struct fc_state *st;
    uint32_t pages;
    enum ws_form form;
};

static bool fc_body(struct runner *r, void *ctx)
{
    struct fc_pilot_point *pp = ctx;
    struct fc_state *st = pp->st;
    struct fc_where at = { st->ts.n, pp->form,
                           pp->form == WS_SCATTERED ? 512u : st->ws[st->nws - 1] };
    return fc_pilot_body(r, st, pp->pages, &at);
}

static bool fc_time(struct runner *r, void *ctx, uint32_t iterations, uint64_t *ticks)
{
    struct fc_pilot_point *pp = ctx;
    return exp_pilot_all_others(r, &pp->st->sd, &pp->st->ts, pp->pages, iterations, fc_body, pp,
                                ticks);
}

bool fc_plan(struct runner *r, struct experiment_record *rec, struct fc_state *st)
{
    struct plan_request *q = &st->q;
    uint64_t fixed[3] = { 0, 0, 0 };
    uint64_t *out[3] = { &st->pilot_fewest, &st->pilot_most, &st->pilot_most_cold };
    uint32_t i, ceiling = r->run->cfg.ceiling;
    mem_zero(q, sizeof(*q));
    for (i = 0; i < 2 + (st->sets[st->nsets - 1].form == WS_SCATTERED) && r->plan_share_ticks;
         i++) {
        struct fc_pilot_point pp = { st, st->pages[i ? st->npages - 1 : 0],
                                     i == 2 ? WS_SCATTERED : WS_CONTIGUOUS };
        if (!runner_pilot(r, fc_time, &pp, out[i], &fixed[i])) {
            rec->partial = true;
            return false;
        }
        q->point_ticks = fixed[i] > q->point_ticks ? fixed[i] : q->point_ticks;
    }
    q->samples = st->samples; /* a twentieth of the profile's: at or below the floor */
    q->warmup = st->warmup;
    q->nrows = st->nrows;
    q->ncols = st->npages;
    q->thin_rows = q->thin_cols = true;
    q->row_order = st->rank;
    q->rows_core = st->rows_core;
    /* the counts around the ceiling, where p* should lie, survive every stride */
    plan_dense_range(st->pages, st->npages, ceiling * 2 / 3, ceiling * 3 / 2, &q->dense_lo,
                     &q->dense_hi);
    if (q->dense_lo == q->dense_hi) { /* no count near it: the ceiling's own */
        q->dense_lo = st->anchor;
        q->dense_hi = st->anchor + 1;
    }
    q->anchor = st->anchor;
    q->iter_ticks = fc_cost;
    q->ctx = st;
    if (!runner_plan(r, rec, q, "curves", "page counts", st->nmodes, &st->plan))
        return false;
    st->samples = st->plan.samples ? st->plan.samples : st->samples;
    st->warmup = st->plan.samples ? st->plan.warmup : st->warmup;
    for (i = 0; i < st->nrows; i++)
        st->rows[i].planned = plan_row_kept(&st->plan, st->nrows, i);
    if (st->plan.rows < st->nrows) {
        /* every curve at 1, the ceiling and the most pages, and the pilot again */
        st->needs_budget_s = runner_plan_budget_for(r, "flush_ceiling",
                                                    plan_estimate_least(q) +
                                                        ms_to_ticks(rec->plan.pilot_ms));
        record_note(rec, "the plan keeps %u of %u curves: each one left out needs "
                         "run_budget_s=%u%s (then at least 1, %u and %u pages; by the pilot's "
                         "upper bound)",
                    st->plan.rows, st->nrows, st->needs_budget_s,
                    st->needs_budget_s <= RUN_BUDGET_FULL_S ? " or profile=full" : "",
                    st->pages[st->anchor], st->pages[st->npages - 1]);
    }
    return true;
}

/* Page counts between the two around the row's crossing (Linux's full flush), while it fits. */
static void refine(struct runner *r, struct experiment_record *rec, struct fc_state *st,
                   struct fc_row *row, uint64_t deadline)
{
    while (row->added < FC_MAX_REFINE && row->n >= 3 && !MUTANT(fc_refine_off)) {
        struct curve_point pts[FC_MAX_CURVE];
        struct crossover c;
        uint32_t p;
        mem_copy(pts, row->work[0], row->n * sizeof(pts[0]));
        crossover_find(pts, row->n, NULL, 0, 0, &c);
        p = c.found ? fc_refine_between(c.p_before, c.p_star) : 0;
        if (!p || tsc_now() + row->point_max > deadline || !runner_budget_ok(r) ||
            !fc_measure(r, rec, st, row, p, true))
            return;
    }
}

/*
 * A curve the plan left out, at 1, the ceiling and the most pages while
 * the share lasts: the first (the cheapest) measured, the others only when
 * they fit at its cost, scaled as the pilot's model scales with the pages
 * (the pilot's own cost is an upper bound, many times the cost of a local
 * curve: a pace taken from other curves would misjudge this one).
 */
static void add_row(struct runner *r, struct experiment_record *rec, struct fc_state *st,
                    uint32_t row, uint64_t deadline)
{
    struct fc_row *rw = &st->rows[row];
    uint32_t cols[3] = { 0, st->anchor, st->npages - 1 }, i;
    uint64_t t0 = tsc_now(), first;
    if (t0 + st->q.point_ticks > deadline || !runner_budget_ok(r) ||
        !fc_measure(r, rec, st, rw, st->pages[cols[0]], true))
        return;
    first = tsc_now() - t0;
    for (i = 1; i < 3; i++) {
        uint64_t est = first / (fc_cost(st, row, cols[0]) | 1) * fc_cost(st, row, cols[i]);
        if (cols[i] == cols[i - 1] || tsc_now() + est > deadline || !runner_budget_ok(r) ||
            !fc_measure(r, rec, st, rw, st->pages[cols[i]], true))
            return;
    }
    refine(r, rec, st, rw, deadline);
}

void fc_after_plan(struct runner *r, struct experiment_record *rec, struct fc_state *st)
{
    uint64_t deadline = runner_plan_deadline(r);
    uint32_t k;
    if (!deadline)
        return; /* not planned (run_budget_s=0): the grid as configured, nothing more */
    for (k = 0; k < st->nrows; k++)
        if (st->rows[st->rank[k]].planned)
            refine(r, rec, st, &st->rows[st->rank[k]], deadline);
    /* then the curves left out, most important first */
    for (k = 0; k < st->nrows && tsc_now() < deadline; k++)
        if (!st->rows[st->rank[k]].planned)
            add_row(r, rec, st, st->rank[k], deadline);
}
