/*
 * tlbi_concurrent's plan (tlbi_concurrent.c): the initiator counts of its points and the
 * pages each initiator remaps. Every point's pages lie in the test region (asm/paging.h
 * REGION_PAGES, one level-3 table): m initiators of p pages each need m x p <= REGION_PAGES,
 * or the remaps write past the level-3 table and the reads past the region. Up to 64 CPUs
 * each takes 8 pages; on a bigger machine (Altra's 128, Grace's 144 CPUs) every initiator
 * takes REGION_PAGES / CPUs at every point, fewer but the same at each, so the points'
 * latencies (and slowdown_p50 against the first) still compare like with like.
 * Header alone: the app, the model and tests/host/test_concurrent_plan_arm64.c.
 */
#ifndef TLBSCOPE_EXP_ARM64_CONCURRENT_PLAN_H
#define TLBSCOPE_EXP_ARM64_CONCURRENT_PLAN_H

#include "core/mutant.h"

#define CONCURRENT_PAGES 8          /* per initiator where the region holds every CPU's */
#define CONCURRENT_MAX_COUNTS 11    /* 1, 2, 4 .. 512 (MAX_CPUS) and every CPU */

/* pages per initiator when `cpus` CPUs may all initiate in a region of `region_pages` */
static inline unsigned concurrent_pages(unsigned cpus, unsigned region_pages)
{
    unsigned fit = cpus ? region_pages / cpus : region_pages;
    /* the mutant keeps 8 whatever the CPU count: 128 initiators remap 1024 pages of 512 */
    if (MUTANT(a64_concurrent_pages_unbounded) || fit >= CONCURRENT_PAGES)
        return CONCURRENT_PAGES;
    return fit ? fit : 1;
}

/* the initiator counts for `cpus` CPUs: 1, 2, 4 .. below cpus, then cpus; into
 * counts[CONCURRENT_MAX_COUNTS], their number returned */
static inline unsigned concurrent_counts(unsigned cpus, unsigned *counts)
{
    unsigned c, n = 0;
    for (c = 1; c < cpus && n < CONCURRENT_MAX_COUNTS - 1; c *= 2)
        counts[n++] = c;
    counts[n++] = cpus;
    return n;
}

#endif
