#include "core/run/crossover.h"
#include "core/run/bootstrap.h"
#include "core/mutant.h"

const char *confidence_name(enum confidence c)
{
    static const char *const names[] = { "none", "low", "medium", "high" };
    return (unsigned)c < 4 ? names[c] : "none";
}

static bool overlaps(const struct curve_point *c)
{
    uint64_t lo = c->a25 > c->b25 ? c->a25 : c->b25;
    uint64_t hi = c->a75 < c->b75 ? c->a75 : c->b75;
    return lo <= hi;
}

static bool b_cheaper(const struct curve_point *c) { return c->b50 < c->a50; }

static void sort_by_p(struct curve_point *pts, uint32_t n)
{
    uint32_t i, j;
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && pts[j - 1].p > pts[j].p; j--) {
            struct curve_point t = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = t;
        }
}

/* The overlapping run that contains index lo or hi (lo = hi - 1, or hi alone). */
static void band(const struct curve_point *pts, uint32_t n, int32_t lo, int32_t hi,
                 struct crossover *out)
{
    int32_t a, b;
    if (lo >= 0 && overlaps(&pts[lo]))
        a = b = lo;
    else if (hi >= 0 && hi < (int32_t)n && overlaps(&pts[hi]))
        a = b = hi;
    else
        return;
    while (a > 0 && overlaps(&pts[a - 1]))
        a--;
    while (b + 1 < (int32_t)n && overlaps(&pts[b + 1]))
        b++;
    out->overlap = true;
    out->band_low = pts[a].p;
    out->band_high = pts[b].p;
}

/* The largest measured count below p (0: none); pts sorted by p. */
static uint32_t count_before(const struct curve_point *pts, uint32_t n, int64_t p)
{
    uint32_t i, before = 0;
    for (i = 0; i < n && (int64_t)pts[i].p < p; i++)
        before = pts[i].p;
    return before;
}

enum confidence crossover_width_confidence(const struct curve_point *pts, uint32_t n, int64_t low,
                                           int64_t high)
{
    int64_t from;
    if (low == BOOT_NONE && high == BOOT_NONE)
        return CONF_HIGH; /* no crossing in any replicate: the full flush never won */
    if (high == BOOT_NONE || low < 1)
        return CONF_LOW; /* open above the largest count */
    /* the crossing lies after the count measured before low, and at or before high */
    from = (int64_t)count_before(pts, n, low) + 1;
    if (high * 1000 <= from * CROSSOVER_HIGH_RATIO_MILLI)
        return CONF_HIGH;
    return high * 1000 <= from * CROSSOVER_MEDIUM_RATIO_MILLI ? CONF_MEDIUM : CONF_LOW;
}

/* p*'s paired-bootstrap interval; false when a point kept no samples. */
static bool interval(const struct curve_point *pts, uint32_t n, struct boot_work *w,
                     uint64_t seed, uint64_t stream, struct crossover *out)
{
    struct paired cols[BOOT_MAX_COLUMNS];
    int64_t ps[BOOT_MAX_COLUMNS];
    struct boot_result br;
    uint32_t i;
    if (!w || n > BOOT_MAX_COLUMNS)
        return false;
    for (i = 0; i < n; i++) {
        if (!pts[i].a_kept || !pts[i].b_kept || !pts[i].nkept)
            return false;
        cols[i] = (struct paired){ pts[i].a_kept, pts[i].b_kept, pts[i].nkept };
        ps[i] = pts[i].p;
    }
    if (!boot_columns(w, cols, n, boot_stat_crossing, ps, seed, stream, &br))
        return false;
    out->has_interval = true;
    out->p_low = br.low;
    out->p_high = br.high;
    out->pairs = br.pairs;
    out->conf = MUTANT(crossover_span_confidence) ? boot_grid_confidence(&br, ps, n)
                                                  : crossover_width_confidence(pts, n, br.low,
                                                                               br.high);
    return true;
}

void crossover_find(struct curve_point *pts, uint32_t n, struct boot_work *w, uint64_t seed,
                    uint64_t stream, struct crossover *out)
{
    uint32_t i, changes = 0;
    int32_t first = -1;
    *out = (struct crossover){ .npoints = n, .monotonic = true, .conf = CONF_NONE,
                               .p_low = BOOT_NONE, .p_high = BOOT_NONE };
    if (n == 0) {
        out->why = "no measured points";
        return;
    }
    sort_by_p(pts, n);
    /* the smallest index from which b stays cheaper */
    for (i = n; i > 0 && b_cheaper(&pts[i - 1]); i--)
        first = (int32_t)(i - 1);
    for (i = 1; i < n; i++)
        if (b_cheaper(&pts[i]) != b_cheaper(&pts[i - 1]))
            changes++;
    out->monotonic = changes == 0 || (changes == 1 && first > 0);
    if (first >= 0) {
        out->found = true;
        out->p_star = pts[first].p;
        out->p_before = first > 0 ? pts[first - 1].p : 0;
        band(pts, n, first - 1, first, out);
    } else {
        band(pts, n, (int32_t)n - 1, -1, out); /* no crossing: noise at the largest count? */
    }
    if (n < 3) {
        out->why = "fewer than 3 page counts measured";
        return;
    }
    if (!interval(pts, n, w, seed, stream, out)) {
        out->why = "no per-iteration samples, so no interval for p*";
        return;
    }
    if (!out->monotonic) {
        out->conf = CONF_LOW;
        out->why = "the cheaper method changes more than once (non-monotonic data)";
    } else if (out->p_high == BOOT_NONE && out->p_low != BOOT_NONE) {
        out->why = "p*'s paired-bootstrap 95% interval is open above the largest count";
    } else if (out->conf == CONF_HIGH) {
        out->why = "where p* lies (its paired-bootstrap 95% interval, from the count measured "
                   "before it) is within 1.5 times its lower end";
    } else if (out->conf == CONF_MEDIUM) {
        out->why = "where p* lies (its paired-bootstrap 95% interval, from the count measured "
                   "before it) is within 2 times its lower end";
    } else {
        out->why = "where p* lies (its paired-bootstrap 95% interval, from the count measured "
                   "before it) spans more than 2 times its lower end";
    }
}
