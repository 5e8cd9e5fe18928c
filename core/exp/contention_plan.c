#include "core/exp/contention_plan.h"
#include "core/mutant.h"

uint32_t contention_m_series(uint32_t ncpus, bool groups, uint32_t page_limit, uint32_t *out,
                             uint32_t cap)
{
    uint32_t max = groups ? ncpus / 2 : ncpus, n = 0, v;
    if (max > page_limit)
        max = page_limit;
    for (v = 1; v < max && n < cap; v *= 2)
        out[n++] = v;
    if (max >= 1 && n < cap)
        out[n++] = max;
    return n;
}

void contention_partition(uint32_t n, uint32_t m, uint32_t *start)
{
    uint32_t g, base = m ? n / m : 0, extra = m ? n % m : 0, at = 0;
    for (g = 0; g < m; g++) {
        start[g] = at;
        at += base + (g < extra ? 1 : 0);
    }
    start[m] = at;
}

/*
 * a * b / c on 64-bit words only: the firmware build has no 128-bit
 * division (its libgcc helper faulted under OVMF), so the 128-bit product is
 * divided bit by bit. Saturates when the quotient does not fit.
 */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
    uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    uint64_t lo = (ll & 0xffffffffu) | (mid << 32);
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    uint64_t q = 0, r = 0;
    int i;
    for (i = 127; i >= 0; i--) {
        uint64_t bit = i >= 64 ? (hi >> (i - 64)) & 1u : (lo >> i) & 1u;
        uint64_t carry = r >> 63;
        r = (r << 1) | bit;
        if (carry || r >= c) {
            r -= c;
            if (i >= 64)
                return UINT64_MAX;
            q |= 1ull << i;
        }
    }
    return q;
}

int64_t contention_rate_milli(uint64_t count, uint64_t ticks, uint64_t hz)
{
    uint64_t v;
    if (!ticks)
        return 0;
    v = mul_div(count * 1000u, hz, ticks); /* count * 1000 fits: counts are far below 2^54 */
    return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

int64_t contention_ms_milli(uint64_t ticks, uint64_t hz)
{
    uint64_t v;
    if (!hz)
        return 0;
    v = mul_div(ticks, 1000000u, hz);
    return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

uint32_t contention_window_ms(uint32_t configured_ms, uint64_t share_ms, uint32_t npoints)
{
    uint64_t ms;
    if (configured_ms)
        return configured_ms;
    if (!share_ms || !npoints)
        return CONTENTION_WINDOW_MS;
    ms = share_ms / 4 / npoints / CONTENTION_WINDOWS;
    if (MUTANT(contention_window_as_before)) /* one window per point, up to 250 ms */
        ms = share_ms / 4 / npoints > 250 ? 250 : share_ms / 4 / npoints;
    else if (ms > CONTENTION_WINDOW_MS)
        ms = CONTENTION_WINDOW_MS;
    return ms < CONTENTION_WINDOW_MIN_MS ? CONTENTION_WINDOW_MIN_MS : (uint32_t)ms;
}

int64_t contention_median(int64_t *v, uint32_t n)
{
    uint32_t i, j;
    if (!n)
        return 0;
    for (i = 1; i < n; i++) /* insertion sort: a handful of windows */
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int64_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

uint32_t contention_per_initiator(uint32_t samples, uint32_t m)
{
    uint32_t k = (samples + m - 1) / m;
    return k < 2 ? 2 : k;
}

uint64_t contention_point_shootdowns(uint32_t samples, uint32_t warmup, uint32_t m)
{
    return (uint64_t)m * (contention_per_initiator(samples, m) + warmup);
}

bool contention_box_allows(const struct contention_box *b, uint64_t now, uint64_t column_start,
                           uint64_t last_ticks, uint64_t last_steady, uint64_t last_shots,
                           uint64_t shots)
{
    uint64_t used = now - b->start, part, estimate, rounds;
    if (!b->share || !last_shots || MUTANT(contention_unboxed))
        return true;
    part = used < b->share ? (b->share - (column_start - b->start)) / b->columns_left : 0;
    rounds = last_ticks > last_steady ? last_ticks - last_steady : 0;
    estimate = rounds * shots / last_shots + last_steady;
    return now - column_start + estimate <= part;
}
