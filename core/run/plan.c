#include "core/run/plan.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"

bool plan_kept(uint32_t n, uint32_t stride, uint32_t i)
{
    if (i >= n)
        return false;
    if (stride == PLAN_LAST_ONLY)
        return i == n - 1;
    if (stride == PLAN_FIRST_ONLY)
        return i == 0;
    return stride <= 1 || i % stride == 0 || i == n - 1;
}

uint32_t plan_kept_count(uint32_t n, uint32_t stride)
{
    uint32_t i, k = 0;
    for (i = 0; i < n; i++)
        k += plan_kept(n, stride, i);
    return k;
}

bool plan_kept_dense(uint32_t n, uint32_t stride, uint32_t dense_lo, uint32_t dense_hi,
                     uint32_t i)
{
    if (plan_kept(n, stride, i))
        return true;
    if (MUTANT(plan_thin_stride_only)) /* test-only: every stride-th, the ceiling's too */
        return false;
    return i < n && i >= dense_lo && i < dense_hi && stride != PLAN_FIRST_ONLY;
}

uint32_t plan_kept_dense_count(uint32_t n, uint32_t stride, uint32_t dense_lo, uint32_t dense_hi)
{
    uint32_t i, k = 0;
    for (i = 0; i < n; i++)
        k += plan_kept_dense(n, stride, dense_lo, dense_hi, i);
    return k;
}

bool plan_col_kept(const struct plan *p, uint32_t n, uint32_t i)
{
    return plan_kept_dense(n, p->col_stride, p->dense_lo, p->dense_hi, i);
}

bool plan_row_kept(const struct plan *p, uint32_t n, uint32_t i)
{
    if (p->row_mask)
        return i < n && i < PLAN_MAX_RANKED_ROWS && (p->row_mask >> i & 1);
    return plan_kept(n, p->row_stride, i);
}

void plan_dense_range(const uint32_t *values, uint32_t n, uint32_t from, uint32_t to,
                      uint32_t *lo, uint32_t *hi)
{
    uint32_t i = 0;
    while (i < n && values[i] < from)
        i++;
    *lo = *hi = i;
    while (*hi < n && values[*hi] <= to)
        (*hi)++;
}

/* a stride no grid reaches: index 0 and the last (PLAN_FIRST_ONLY and LAST_ONLY are above) */
#define WIDEST_STRIDE (1u << 31)

/* Which points a plan keeps: what plan_make() narrows step by step. */
struct selection {
    uint32_t rs, cs;       /* row and column strides */
    uint32_t dense_lo, dense_hi;
    uint64_t row_mask;     /* ranked rows kept; 0: rows by rs */
    bool lean;             /* without the optional variants */
};

static bool sel_row(const struct plan_request *q, const struct selection *s, uint32_t r)
{
    if (s->row_mask)
        return r < PLAN_MAX_RANKED_ROWS && (s->row_mask >> r & 1);
    return plan_kept(q->nrows, s->rs, r);
}

static bool sel_col(const struct plan_request *q, const struct selection *s, uint32_t c)
{
    return plan_kept_dense(q->ncols, s->cs, s->dense_lo, s->dense_hi, c);
}

static uint32_t sel_cols(const struct plan_request *q, const struct selection *s)
{
    return plan_kept_dense_count(q->ncols, s->cs, s->dense_lo, s->dense_hi);
}

/* The first `keep` rows of the request's ranking. */
static uint64_t ranked_mask(const struct plan_request *q, uint32_t keep)
{
    uint64_t m = 0;
    uint32_t i;
    for (i = 0; i < keep && i < q->nrows; i++)
        if (q->row_order[i] < PLAN_MAX_RANKED_ROWS)
            m |= 1ull << q->row_order[i];
    return m;
}

uint32_t plan_warmup(uint32_t warmup, uint32_t configured, uint32_t samples)
{
    uint32_t w, least = warmup < PLAN_MIN_WARMUP ? warmup : PLAN_MIN_WARMUP;
    if (samples >= configured || configured == 0)
        return warmup;
    w = (uint32_t)((uint64_t)warmup * samples / configured);
    return w > least ? w : least;
}

/* Iterations of one point: warm-up, samples, and the baseline's share. */
static uint64_t iterations(const struct plan_request *q, uint32_t samples)
{
    return (uint64_t)plan_warmup(q->warmup, q->samples, samples) + samples +
           (q->baseline_div ? samples / q->baseline_div : 0);
}

static uint64_t iter_cost(const struct plan_request *q, bool lean, uint32_t r, uint32_t c)
{
    return lean && q->iter_ticks_lean ? q->iter_ticks_lean(q->ctx, r, c)
                                      : q->iter_ticks(q->ctx, r, c);
}

static uint64_t sel_estimate(const struct plan_request *q, uint32_t samples,
                             const struct selection *s)
{
    uint64_t total = 0, it = iterations(q, samples);
    uint32_t r, c;
    for (r = 0; r < q->nrows; r++) {
        if (!sel_row(q, s, r))
            continue;
        for (c = 0; c < q->ncols; c++)
            if (sel_col(q, s, c))
                total += q->point_ticks + it * iter_cost(q, s->lean, r, c);
    }
    return total;
}

uint64_t plan_estimate(const struct plan_request *q, uint32_t samples, uint32_t row_stride,
                       uint32_t col_stride)
{
    struct selection s = { row_stride, col_stride, q->dense_lo, q->dense_hi, 0, false };
    return sel_estimate(q, samples, &s);
}

static void sel_of_plan(const struct plan *p, struct selection *s)
{
    *s = (struct selection){ p->row_stride, p->col_stride, p->dense_lo, p->dense_hi, p->row_mask,
                             p->lean };
}

uint64_t plan_estimate_plan(const struct plan_request *q, const struct plan *p)
{
    struct selection s;
    sel_of_plan(p, &s);
    return sel_estimate(q, p->samples, &s);
}

/* The most samples in [lo, hi] whose estimate fits; lo is known to fit. */
static uint32_t most_samples(const struct plan_request *q, uint32_t lo, uint32_t hi,
                             const struct selection *s)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (sel_estimate(q, mid, s) <= q->share_ticks)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The column a dense range narrows to: the request's anchor, or the range's middle. */
static uint32_t anchor_of(const struct plan_request *q)
{
    if (q->anchor >= q->dense_lo && q->anchor < q->dense_hi)
        return q->anchor;
    return q->dense_lo + (q->dense_hi - q->dense_lo - 1) / 2;
}

uint64_t plan_estimate_least(const struct plan_request *q)
{
    uint32_t floor = q->floor < q->samples ? q->floor : q->samples;
    uint32_t a = q->dense_lo < q->dense_hi ? anchor_of(q) : 0;
    struct selection s = { 1, WIDEST_STRIDE, a, q->dense_lo < q->dense_hi ? a + 1 : a, 0,
                           q->iter_ticks_lean != NULL };
    return sel_estimate(q, floor, &s);
}

void plan_make(const struct plan_request *q, struct plan *p)
{
    uint32_t floor = q->floor < q->samples ? q->floor : q->samples;
    uint32_t ranked = q->row_order && q->nrows <= PLAN_MAX_RANKED_ROWS ? q->nrows : 0;
    struct selection s = { 1, 1, q->dense_lo, q->dense_hi, ranked ? ranked_mask(q, ranked) : 0,
                           false };
    uint32_t anchor = q->dense_lo < q->dense_hi ? anchor_of(q) : 0;
    bool fits;
    p->samples = q->samples;
    p->warmup = q->warmup;
    p->reasons = 0;
    p->full_ticks = sel_estimate(q, q->samples, &s);
    if (q->share_ticks == 0 || p->full_ticks <= q->share_ticks || MUTANT(plan_ignores_budget))
        goto done;
    p->reasons |= PLAN_FEWER_SAMPLES;
    fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    /* at the floor: the optional variants first (Linux's own flush stays) */
    if (!fits && q->iter_ticks_lean) {
        s.lean = true;
        p->reasons |= PLAN_FEWER_VARIANTS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    /* rows: the least important ranked ones down to the core, else by stride, ends kept */
    while (!fits && q->thin_rows && ranked > q->rows_core && ranked > 1) {
        s.row_mask = ranked_mask(q, --ranked);
        p->reasons |= PLAN_FEWER_ROWS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    while (!fits && q->thin_rows && !ranked && plan_kept_count(q->nrows, s.rs) > 2) {
        s.rs *= 2;
        p->reasons |= PLAN_FEWER_ROWS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    /* columns: down to the two ends and the dense ones (what the widest stride keeps) */
    while (!fits && q->thin_cols && s.cs < WIDEST_STRIDE) {
        struct selection wider = s;
        wider.cs = WIDEST_STRIDE;
        if (sel_cols(q, &s) <= sel_cols(q, &wider))
            break;
        s.cs *= 2;
        p->reasons |= PLAN_FEWER_COLS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    /*
     * then the dense range itself, a column from each side of its anchor at
     * a time (on a grid spaced about evenly in log p around the ceiling, the
     * ceiling and its neighbours), down to the anchor alone: with the two
     * ends, the three counts a crossover needs at the least
     */
    while (!fits && q->thin_cols && s.dense_hi - s.dense_lo > 1) {
        if (anchor > s.dense_lo)
            s.dense_lo++;
        if (s.dense_hi - 1 > anchor)
            s.dense_hi--;
        p->reasons |= PLAN_FEWER_COLS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    /* the last resort before ERROR: one row (the most targets, or the most important) */
    while (!fits && q->thin_rows && ranked > 1) {
        s.row_mask = ranked_mask(q, --ranked);
        p->reasons |= PLAN_FEWER_ROWS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    if (!fits && q->thin_rows && !ranked && q->nrows > 1) {
        s.rs = PLAN_LAST_ONLY;
        p->reasons |= PLAN_FEWER_ROWS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    /* then one column, where no dense range (the answer's own counts) must stay */
    if (!fits && q->thin_cols && q->ncols > 1 &&
        (q->dense_lo == q->dense_hi || MUTANT(plan_one_column))) {
        s.cs = PLAN_FIRST_ONLY;
        p->reasons |= PLAN_FEWER_COLS;
        fits = sel_estimate(q, floor, &s) <= q->share_ticks;
    }
    if (!fits) {
        p->reasons |= PLAN_NO_FIT;
        p->samples = floor;
    } else {
        p->samples = most_samples(q, floor, q->samples, &s);
    }
    p->warmup = plan_warmup(q->warmup, q->samples, p->samples);
    if (p->samples == q->samples)
        p->reasons &= ~PLAN_FEWER_SAMPLES; /* thinning alone made room for every sample */
done:
    p->row_stride = s.rs;
    p->col_stride = s.cs;
    p->dense_lo = s.dense_lo;
    p->dense_hi = s.dense_hi;
    p->row_mask = s.row_mask;
    p->lean = s.lean;
    p->rows = ranked ? ranked : plan_kept_count(q->nrows, s.rs);
    p->cols = sel_cols(q, &s);
    p->estimate_ticks = sel_estimate(q, p->samples, &s);
}

/* left * weight / total without overflow (ticks of a few minutes are far below 2^64 / 2^32) */
static uint64_t part(uint64_t ticks, uint32_t weight, uint32_t total)
{
    if (total == 0 || weight >= total)
        return ticks;
    if (ticks > UINT64_MAX / weight)
        return ticks / total * weight;
    return ticks * weight / total;
}

void plan_pilot_fit(uint64_t t_short, uint64_t t_long, uint32_t n_long, uint64_t *per_iter,
                    uint64_t *fixed)
{
    uint64_t extra, c;
    if (n_long <= PLAN_PILOT_SHORT || t_long <= t_short) {
        *per_iter = n_long ? (t_long + n_long - 1) / n_long : t_long;
        *fixed = 0;
        return;
    }
    extra = n_long - PLAN_PILOT_SHORT;
    c = (t_long - t_short + extra - 1) / extra;
    /*
     * A noisy host can make the short run as slow as the long one: never
     * less than half the long run's mean (QEMU TCG, 287 targets: a fit 4
     * times too low).
     */
    if (c < t_long / n_long / 2)
        c = t_long / n_long / 2;
    *per_iter = c;
    *fixed = t_long > c * n_long ? t_long - c * n_long : 0;
}

void plan_track_init(struct plan_track *t, const struct plan_request *q, const struct plan *p,
                     uint64_t now, uint64_t deadline)
{
    uint64_t it = iterations(q, p->samples);
    uint32_t r, c, n = 0;
    t->npoints = 0;
    t->samples = p->samples;
    t->warmup = p->warmup;
    t->configured = q->samples;
    t->configured_warmup = q->warmup;
    t->floor = q->floor < q->samples ? q->floor : q->samples;
    t->done_base = 0;
    t->t_base = now;
    t->deadline = deadline;
    t->scale_milli = 1000;
    t->replans = 0;
    if (!q->share_ticks)
        return; /* not planned: nothing to follow */
    for (r = 0; r < q->nrows; r++) {
        if (!plan_row_kept(p, q->nrows, r))
            continue;
        for (c = 0; c < q->ncols; c++) {
            if (!plan_col_kept(p, q->ncols, c))
                continue;
            if (n == PLAN_TRACK)
                return; /* too many to follow */
            t->est[n++] = q->point_ticks + it * iter_cost(q, p->lean, r, c);
        }
    }
    t->npoints = n;
}

static uint64_t est_sum(const struct plan_track *t, uint32_t from, uint32_t to)
{
    uint64_t sum = 0;
    uint32_t i;
    for (i = from; i < to; i++)
        sum += t->est[i] / 1000 * t->scale_milli;
    return sum;
}

bool plan_track_adapt(struct plan_track *t, uint32_t done, uint64_t now)
{
    uint64_t expected, actual, pace_milli, rest, left, want;
    if (!t->npoints || done <= t->done_base || done >= t->npoints)
        return false;
    expected = est_sum(t, t->done_base, done);
    actual = now - t->t_base;
    if (expected == 0)
        return false;
    pace_milli = actual / expected >= UINT64_MAX / 1000000 ? UINT64_MAX / 1000000
                                                           : actual * 1000 / expected;
    if (pace_milli == 0)
        pace_milli = 1;
    rest = est_sum(t, done, t->npoints) / 1000 * pace_milli;
    left = t->deadline > now ? t->deadline - now : 0;
    want = (uint64_t)t->samples * (left / 1000) / (rest / 1000 ? rest / 1000 : 1);
    if (rest > left) {
        /* behind: fewer samples for the rest, never below the floor */
        if (want < t->floor)
            want = t->floor;
        if (want >= t->samples)
            return false;
    } else {
        /*
         * ahead (the pilot overestimated): more samples, up to the configured
         * count, once two points agree and it is worth a quarter more
         */
        if (want > t->configured)
            want = t->configured;
        if (done - t->done_base < 2 || want < (uint64_t)t->samples + t->samples / 4)
            return false;
    }
    t->scale_milli = (uint32_t)((uint64_t)t->scale_milli * want / t->samples);
    t->samples = (uint32_t)want;
    t->warmup = plan_warmup(t->configured_warmup, t->configured, t->samples);
    t->done_base = done;
    t->t_base = now;
    t->replans++;
    return true;
}

uint64_t plan_share(uint64_t budget, uint64_t left, uint32_t weight, uint32_t weights_left,
                    uint32_t weights_total)
{
    uint64_t share = part(left, weight, weights_left), least = part(budget, weight, weights_total) / 2;
    if (weight == 0)
        return 0;
    return share > least ? share : least;
}

uint64_t plan_share_within(uint64_t share, uint64_t hard_stop)
{
    uint64_t most = hard_stop / 1000 * PLAN_HARD_STOP_PERMILLE;
    return share < most ? share : most;
}

uint32_t plan_power_series(uint32_t max, uint32_t *out, uint32_t cap)
{
    uint32_t n = 0, v;
    for (v = 1; v < max && n < cap; v *= 2)
        out[n++] = v;
    if (max >= 1 && n < cap)
        out[n++] = max;
    return n;
}

void plan_summarize(const struct plan_request *q, const struct plan *p, uint64_t ticks_per_ms,
                    uint32_t results_per_point, struct plan_summary *s)
{
    uint64_t tpm = ticks_per_ms ? ticks_per_ms : 1;
    uint32_t c, cols = 0;
    for (c = 0; c < q->ncols; c++)
        if (plan_col_kept(p, q->ncols, c))
            cols += q->col_variants && !p->lean ? q->col_variants[c] : 1;
    s->applied = true;
    s->measured = true;
    s->reasons = p->reasons;
    s->share_ms = q->share_ticks / tpm;
    s->estimate_ms = p->estimate_ticks / tpm;
    s->full_estimate_ms = p->full_ticks / tpm;
    s->pilot_ms = 0;
    s->samples_configured = q->samples;
    s->samples = p->samples;
    s->warmup = p->warmup;
    s->rows_configured = q->nrows;
    s->rows = p->rows;
    s->cols_configured = q->ncols;
    s->cols = p->cols;
    s->variants_name = NULL;
    s->points_planned = p->rows * cols * results_per_point;
    s->samples_planned = (uint64_t)s->points_planned * p->samples;
    s->samples_achieved = 0;
    s->samples_min = s->samples_max = p->samples;
    s->replans = 0;
    s->points_added = 0;
}

static void seconds(struct strbuf *sb, uint64_t ms)
{
    sb_printf(sb, "%llu.%llu s", (unsigned long long)(ms / 1000),
              (unsigned long long)(ms % 1000 / 100));
}

void plan_describe(const struct plan_summary *s, char *buf, size_t cap)
{
    struct strbuf sb;
    sb_init_fixed(&sb, buf, cap);
    if (!s->applied) {
        sb_puts(&sb, "not planned");
        return;
    }
    if (s->reasons & PLAN_NO_FIT)
        sb_puts(&sb, "over its share even at the floor: ");
    else if (!s->reasons)
        sb_puts(&sb, "as configured: ");
    else
        sb_puts(&sb, "reduced: ");
    sb_printf(&sb, "samples %u", s->samples_configured);
    if (s->samples != s->samples_configured)
        sb_printf(&sb, " -> %u", s->samples);
    if (s->replans)
        sb_printf(&sb, ", re-planned %u times while running (%u to %u a point)", s->replans,
                  s->samples_min, s->samples_max);
    if (s->reasons & PLAN_FEWER_VARIANTS)
        sb_printf(&sb, ", without %s", s->variants_name ? s->variants_name : "variants");
    if (s->reasons & PLAN_FEWER_ROWS)
        sb_printf(&sb, ", %s %u -> %u", s->rows_name ? s->rows_name : "rows", s->rows_configured,
                  s->rows);
    if (s->reasons & PLAN_FEWER_COLS)
        sb_printf(&sb, ", %s %u -> %u", s->cols_name ? s->cols_name : "columns",
                  s->cols_configured, s->cols);
    sb_puts(&sb, " (estimated ");
    seconds(&sb, s->estimate_ms);
    if (s->reasons) {
        sb_puts(&sb, ", as configured ");
        seconds(&sb, s->full_estimate_ms);
    }
    sb_puts(&sb, ", share ");
    seconds(&sb, s->share_ms);
    if (s->pilot_ms) {
        sb_puts(&sb, ", pilot ");
        seconds(&sb, s->pilot_ms);
    }
    sb_putc(&sb, ')');
}

bool plan_status_detail(const struct plan_summary *s, char *buf, size_t cap)
{
    struct strbuf sb;
    const char *sep = "reduced: ";
    sb_init_fixed(&sb, buf, cap);
    if (!s->applied || !s->measured ||
        !(s->reasons & (PLAN_FEWER_COLS | PLAN_FEWER_ROWS | PLAN_FEWER_VARIANTS)))
        return false;
    /* the axis the answer lies along first: page counts, then curves or target counts */
    if (s->reasons & PLAN_FEWER_COLS) {
        sb_printf(&sb, "%s%u of %u %s", sep, s->cols, s->cols_configured,
                  s->cols_name ? s->cols_name : "columns");
        sep = ", ";
    }
    if (s->reasons & PLAN_FEWER_ROWS) {
        sb_printf(&sb, "%s%u of %u %s", sep, s->rows, s->rows_configured,
                  s->rows_name ? s->rows_name : "rows");
        sep = ", ";
    }
    if (s->reasons & PLAN_FEWER_VARIANTS)
        sb_printf(&sb, "%swithout %s", sep, s->variants_name ? s->variants_name : "variants");
    if (s->points_added)
        sb_printf(&sb, "; %u points added", s->points_added);
    return true;
}

uint64_t plan_pace_allowance(uint64_t share, uint64_t spent, uint32_t points_left)
{
    return spent < share ? (share - spent) / (points_left ? points_left : 1) : 0;
}

bool plan_pace_more(uint32_t taken, uint32_t floor, uint32_t configured, uint64_t now,
                    uint64_t point_end)
{
    if (taken >= configured)
        return false;
    if (taken < floor || MUTANT(plan_pace_floor_only))
        return taken < floor;
    return now < point_end;
}
