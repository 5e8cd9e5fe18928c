#include "core/crossover.h"

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

static uint32_t band_points(const struct curve_point *pts, uint32_t n, const struct crossover *c)
{
    uint32_t i, k = 0;
    for (i = 0; i < n; i++)
        if (pts[i].p >= c->band_low && pts[i].p <= c->band_high)
            k++;
    return k;
}

void crossover_find(struct curve_point *pts, uint32_t n, struct crossover *out)
{
    uint32_t i, changes = 0;
    int32_t first = -1;
    *out = (struct crossover){ .npoints = n, .monotonic = true, .conf = CONF_NONE };
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
    if (!out->monotonic) {
        out->conf = CONF_LOW;
        out->why = "the cheaper method changes more than once (non-monotonic data)";
    } else if (out->overlap && band_points(pts, n, out) > 4) {
        out->conf = CONF_LOW;
        out->why = "p25-p75 overlap over more than 4 page counts around the crossing";
    } else if (out->overlap) {
        out->conf = CONF_MEDIUM;
        out->why = "p25-p75 overlap next to the crossing";
    } else {
        out->conf = CONF_HIGH;
        out->why = "p25-p75 apart on both sides of the crossing";
    }
}
