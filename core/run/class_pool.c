#include "core/run/class_pool.h"
#include "core/mutant.h"

uint32_t class_pool_share(const uint32_t *pairs_in_class, uint32_t nclasses, uint32_t samples,
                          uint32_t cap)
{
    uint32_t share = samples, c;
    for (c = 0; c < nclasses; c++)
        if ((uint64_t)pairs_in_class[c] * share > cap)
            share = cap / pairs_in_class[c];
    return share ? share : 1;
}

uint32_t class_pool_take(const uint64_t *src, uint32_t samples, uint32_t share, uint64_t *dst,
                         uint32_t room)
{
    uint32_t j, n = 0;
    if (MUTANT(unequal_class_pool)) {
        /* the old pooling: a rounded-down stride, until the pool is full */
        uint32_t step = samples / share ? samples / share : 1;
        for (j = 0; j < samples && n < room; j += step)
            dst[n++] = src[j];
        return n;
    }
    if (share > samples)
        share = samples;
    for (j = 0; j < share && n < room; j++)
        dst[n++] = src[(uint64_t)j * samples / share];
    return n;
}
