#include "core/run/record_samples.h"
#include "core/lib/mem.h"
#include "asm/cpu.h"
#include "core/mutant.h"
#include "core/run/bootstrap.h"

/* The experiment being measured: the BSP alone records points, one experiment at a time. */
static struct {
    struct run *run;
    struct experiment_record *rec;
    int64_t reps[BOOT_REPLICATES]; /* boot_median()'s replicates */
    struct stats_hook hook;
} current;

static const uint64_t *keep(void *ctx, const uint64_t *values, uint32_t n)
{
    struct sample_pool *pool = &current.rec->metric_samples;
    uint64_t *dst;
    (void)ctx;
    if (pool->capacity - pool->used < n) {
        current.rec->samples_not_kept++;
        return NULL;
    }
    dst = pool->values + pool->used;
    mem_copy(dst, values, (size_t)n * sizeof(uint64_t));
    pool->used += n;
    return dst;
}

static bool interval(void *ctx, const uint64_t *sorted, uint32_t n, uint64_t *low, uint64_t *high)
{
    uint64_t t0 = tsc_now();
    bool ok;
    (void)ctx;
    ok = boot_median(current.reps, sorted, n, current.run->method.order_seed, low, high);
    if (ok && MUTANT(p50_ci_of_p90)) { /* test-only: an interval around the 90th percentile */
        *low = sorted[(n * 9 + 9) / 10 - 1];
        *high = sorted[n - 1];
    }
    current.run->method.p50_intervals += ok;
    current.run->method.p50_interval_ticks += tsc_now() - t0;
    return ok;
}

/* Room for every metric of every point the experiment reserved, within RECORD_SAMPLES_MAX_BYTES */
static void reserve_samples(struct run *run, struct experiment_record *rec)
{
    uint64_t points = (uint64_t)rec->results.capacity + rec->summary.capacity;
    uint64_t want = points * POINT_MAX_METRICS * (run->cfg.samples ? run->cfg.samples : 1);
    struct sample_pool *pool = &rec->metric_samples;
    if (want > RECORD_SAMPLES_MAX_BYTES / sizeof(uint64_t))
        want = RECORD_SAMPLES_MAX_BYTES / sizeof(uint64_t);
    if (want <= pool->capacity)
        return;
    mem_free(pool->values);
    pool->values = NULL;
    pool->used = pool->capacity = 0;
    /* less than asked where memory is short: some metrics then go without their samples */
    for (; want && !pool->values; want /= 2)
        if ((pool->values = mem_alloc((size_t)want * sizeof(uint64_t))) != NULL)
            pool->capacity = want;
}

void record_samples_begin(struct run *run, struct experiment_record *rec)
{
    current.run = run;
    current.rec = rec;
    current.hook.keep = NULL;
    current.hook.interval = interval;
    current.hook.ctx = NULL;
    if (run->cfg.keep_samples) {
        reserve_samples(run, rec);
        current.hook.keep = keep;
    }
    stats_set_hook(&current.hook);
}

void record_samples_end(struct run *run, struct experiment_record *rec)
{
    stats_set_hook(NULL);
    current.run = NULL;
    current.rec = NULL;
    if (run->cfg.keep_samples && rec->samples_not_kept)
        record_note(rec, "keep_samples: the samples of %u metrics did not fit in the %llu MiB "
                         "taken for them (the report has their statistics and intervals only)",
                    rec->samples_not_kept,
                    (unsigned long long)(rec->metric_samples.capacity * sizeof(uint64_t) >> 20));
}
