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

static bool col_kept(const struct plan_request *q, uint32_t stride, uint32_t c)
{
    return plan_kept_dense(q->ncols, stride, q->dense_lo, q->dense_hi, c);
}

static uint32_t cols_kept(const struct plan_request *q, uint32_t stride)
{
    return plan_kept_dense_count(q->ncols, stride, q->dense_lo, q->dense_hi);
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

uint64_t plan_estimate(const struct plan_request *q, uint32_t samples, uint32_t row_stride,
                       uint32_t col_stride)
{
    uint64_t total = 0, it = iterations(q, samples);
    uint32_t r, c;
    for (r = 0; r < q->nrows; r++) {
        if (!plan_kept(q->nrows, row_stride, r))
            continue;
        for (c = 0; c < q->ncols; c++)
            if (col_kept(q, col_stride, c))
                total += q->point_ticks + it * q->iter_ticks(q->ctx, r, c);
    }
    return total;
}

/* The most samples in [lo, hi] whose estimate fits; lo is known to fit. */
static uint32_t most_samples(const struct plan_request *q, uint32_t lo, uint32_t hi, uint32_t rs,
                             uint32_t cs)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (plan_estimate(q, mid, rs, cs) <= q->share_ticks)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void plan_make(const struct plan_request *q, struct plan *p)
{
    uint32_t floor = q->floor < q->samples ? q->floor : q->samples;
    uint32_t rs = 1, cs = 1;
    struct plan_request w = *q; /* its dense range narrows as a last step before one column */
    bool fits;
    p->samples = q->samples;
    p->warmup = q->warmup;
    p->row_stride = p->col_stride = 1;
    p->dense_lo = q->dense_lo;
    p->dense_hi = q->dense_hi;
    p->rows = q->nrows;
    p->cols = q->ncols;
    p->reasons = 0;
    p->full_ticks = plan_estimate(q, q->samples, 1, 1);
    p->estimate_ticks = p->full_ticks;
    if (q->share_ticks == 0 || p->full_ticks <= q->share_ticks || MUTANT(plan_ignores_budget))
        return;
    p->reasons |= PLAN_FEWER_SAMPLES;
    fits = plan_estimate(&w, floor, rs, cs) <= w.share_ticks;
    /* at the floor: leave out rows, then columns, doubling the stride, ends kept */
    while (!fits && w.thin_rows && plan_kept_count(w.nrows, rs) > 2) {
        rs *= 2;
        p->reasons |= PLAN_FEWER_ROWS;
        fits = plan_estimate(&w, floor, rs, cs) <= w.share_ticks;
    }
    /* columns: down to the two ends and the dense ones (what the widest stride keeps) */
    while (!fits && w.thin_cols && cols_kept(&w, cs) > cols_kept(&w, WIDEST_STRIDE)) {
        cs *= 2;
        p->reasons |= PLAN_FEWER_COLS;
        fits = plan_estimate(&w, floor, rs, cs) <= w.share_ticks;
    }
    /*
     * then the dense range itself, one column from each edge at a time, down
     * to its middle three (on a grid spaced about evenly in log p around the
     * ceiling, the ceiling and its neighbours): better than one column alone
     */
    while (!fits && w.thin_cols && w.dense_hi - w.dense_lo > 3) {
        w.dense_lo++;
        w.dense_hi--;
        p->reasons |= PLAN_FEWER_COLS;
        fits = plan_estimate(&w, floor, rs, cs) <= w.share_ticks;
    }
    /* the last resort before ERROR: one row (the most targets), then one column */
    if (!fits && w.thin_rows && w.nrows > 1) {
        rs = PLAN_LAST_ONLY;
        p->reasons |= PLAN_FEWER_ROWS;
        fits = plan_estimate(&w, floor, rs, cs) <= w.share_ticks;
    }
    if (!fits && w.thin_cols && w.ncols > 1) {
        cs = PLAN_FIRST_ONLY;
        p->reasons |= PLAN_FEWER_COLS;
        fits = plan_estimate(&w, floor, rs, cs) <= w.share_ticks;
    }
    p->row_stride = rs;
    p->col_stride = cs;
    p->dense_lo = w.dense_lo;
    p->dense_hi = w.dense_hi;
    p->rows = plan_kept_count(w.nrows, rs);
    p->cols = cols_kept(&w, cs);
    if (!fits) {
        p->reasons |= PLAN_NO_FIT;
        p->samples = floor;
    } else {
        p->samples = most_samples(&w, floor, w.samples, rs, cs);
    }
    p->warmup = plan_warmup(w.warmup, w.samples, p->samples);
    if (p->samples == w.samples)
        p->reasons &= ~PLAN_FEWER_SAMPLES; /* thinning alone made room for every sample */
    p->estimate_ticks = plan_estimate(&w, p->samples, rs, cs);
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
        if (!plan_kept(q->nrows, p->row_stride, r))
            continue;
        for (c = 0; c < q->ncols; c++) {
            if (!plan_col_kept(p, q->ncols, c))
                continue;
            if (n == PLAN_TRACK)
                return; /* too many to follow */
            t->est[n++] = q->point_ticks + it * q->iter_ticks(q->ctx, r, c);
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
    s->points_planned = p->rows * p->cols * results_per_point;
    s->samples_planned = (uint64_t)s->points_planned * p->samples;
    s->samples_achieved = 0;
    s->samples_min = s->samples_max = p->samples;
    s->replans = 0;
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
