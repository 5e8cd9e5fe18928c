/*
 * splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): a 64-bit state, one addition and a mix per
 * number. The same sequence on every build and machine, which is what the
 * tool needs it for: the variant order of each iteration (core/exp/common.h)
 * and the bootstrap's resamples (core/run/bootstrap.h), both reproducible from
 * the run's order seed. Not for anything secret.
 */
#ifndef TLBSCOPE_CORE_SPLITMIX_H
#define TLBSCOPE_CORE_SPLITMIX_H

#include <stdint.h>

struct splitmix {
    uint64_t state;
};

/* A generator for one purpose (`stream`) of one seed: different streams, unrelated sequences. */
static inline void splitmix_seed(struct splitmix *g, uint64_t seed, uint64_t stream)
{
    g->state = seed ^ (stream * 0xd1b54a32d192ed03ull);
}

static inline uint64_t splitmix_next(struct splitmix *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 (n >= 1); multiply-shift, biased by less than 2^-32 per draw. */
static inline uint32_t splitmix_below(struct splitmix *g, uint32_t n)
{
    return (uint32_t)(((splitmix_next(g) >> 32) * (uint64_t)n) >> 32);
}

#endif
