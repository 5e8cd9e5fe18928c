/*
 * What a run suggests for the kernel's tunables, each backed by the points
 * it came from: the `recommendations` section of the report
 * (reports/SCHEMA.md) and the "What this machine suggests" block of the
 * text summary. Pure: reads the run's records, writes nothing else;
 * host-tested (tests/host/test_crossover.c).
 *
 *   flush_ceiling   p* of flush_ceiling (full_cr3 as Linux does it) for the
 *                   working set nearest RECOMMEND_TYPICAL_WS, contiguous,
 *                   locally and for each shootdown's target count (the
 *                   initiator's wait plus the slowest target's refill); the
 *                   ceiling is the smallest over the confident curves of
 *                   the largest count measured below p* (where INVLPG
 *                   still won), against Linux's 33;
 *   invlpgb_vs_ipi  the largest page count at which INVLPGB+TLBSYNC beats
 *                   the IPI shootdown on the most CPUs, and the smallest
 *                   CPU count from which it beats it at one page;
 *   shootdown_order what the concurrent order saves per target count;
 *   lazy_skip       what skipping k lazy CPUs saves, and their catch-up;
 *   pti_user_flush  immediate (INVPCID) vs deferred user-PCID flush per page.
 * No evidence, a failed verification or spread that hides the difference:
 * "not enough evidence" and why. A virtualised, emulated or simulated run
 * labels every entry so: it does not describe hardware.
 */
#ifndef TLBSCOPE_CORE_RECOMMEND_H
#define TLBSCOPE_CORE_RECOMMEND_H

#include "core/crossover.h"
#include "core/run.h"

#define RECOMMEND_TYPICAL_WS 512 /* pages: 2 MiB, one page table's worth */
#define RECOMMEND_MAX 5
#define RECOMMEND_MAX_POINTS 192 /* flush_ceiling: 22 page counts x 2 modes x 4 curves */

struct recommendation {
    const char *id;
    bool enough;               /* false: "not enough evidence" */
    bool has_value;
    bool has_cpus_from;        /* the entry has a `cpus_from` (invlpgb_vs_ipi) */
    int64_t cpus_from;         /* the smallest CPU count that wins; 0: none known */
    int64_t value;             /* the recommended number (pages, CPUs, percent) */
    const char *unit;
    char verdict[320];         /* one sentence */
    const char *linux_default; /* NULL where Linux has none */
    const char *experiment;    /* the evidence */
    uint32_t points[RECOMMEND_MAX_POINTS]; /* indexes into that experiment's results */
    uint32_t npoints;
    enum confidence conf;
    char why[RECORD_REASON_LEN + 64]; /* what the confidence rests on, or why no evidence */
    const char *environment;   /* "hardware", "virtualised", "emulated", "simulated" */
};

struct recommendations {
    const char *environment;   /* of the run */
    uint32_t count;
    struct recommendation items[RECOMMEND_MAX];
};

void recommend_compute(const struct run *r, struct recommendations *out);
/* True when an environment is not bare hardware. */
bool recommend_not_hardware(const char *environment);

#endif
