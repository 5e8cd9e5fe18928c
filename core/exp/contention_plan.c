#include "core/exp/contention_plan.h"

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

int64_t contention_rate_milli(uint64_t count, uint64_t ticks, uint64_t hz)
{
    /* count * hz * 1000 / ticks without overflow for any count and clock we meet */
    unsigned __int128 num = (unsigned __int128)count * hz * 1000u;
    if (!ticks)
        return 0;
    return (int64_t)(num / ticks);
}
