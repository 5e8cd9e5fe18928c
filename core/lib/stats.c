#include "core/lib/stats.h"
#include "core/lib/mem.h"
#include "core/mutant.h"

bool samples_init(struct sample_set *s, uint32_t capacity)
{
    s->count = 0;
    s->capacity = 0;
    s->values = mem_alloc((size_t)(capacity ? capacity : 1) * sizeof(uint64_t));
    if (!s->values)
        return false;
    s->capacity = capacity;
    return true;
}

void samples_release(struct sample_set *s)
{
    mem_free(s->values);
    s->values = NULL;
    s->count = s->capacity = 0;
}

static void sift_down(uint64_t *a, uint32_t start, uint32_t end)
{
    uint32_t root = start;
    while (2 * root + 1 < end) {
        uint32_t child = 2 * root + 1;
        uint64_t t;
        if (child + 1 < end && a[child] < a[child + 1])
            child++;
        if (a[root] >= a[child])
            return;
        t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

void sort_u64(uint64_t *a, uint32_t n)
{
    uint32_t i;
    if (n < 2)
        return;
    for (i = n / 2; i-- > 0;)
        sift_down(a, i, n);
    for (i = n - 1; i > 0; i--) {
        uint64_t t = a[0];
        a[0] = a[i];
        a[i] = t;
        sift_down(a, 0, i);
    }
}

uint64_t percentile_sorted(const uint64_t *sorted, uint32_t n, uint32_t per_mille)
{
    uint64_t rank;
    if (n == 0)
        return 0;
    rank = ((uint64_t)per_mille * n + 999) / 1000; /* ceil(p * n) */
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return sorted[rank - 1];
}

static const struct stats_hook *stats_hook; /* see stats.h: one run's, on the BSP */

void stats_set_hook(const struct stats_hook *hook)
{
    stats_hook = hook;
}

void stats_from_array(uint64_t *values, uint32_t n, struct stats *out)
{
    const struct stats_hook *hook = stats_hook;
    uint64_t sum = 0;
    uint32_t i;
    mem_zero(out, sizeof(*out));
    if (n == 0)
        return;
    if (hook && hook->keep && !MUTANT(samples_kept_sorted))
        out->samples = hook->keep(hook->ctx, values, n); /* the order measured, before the sort */
    sort_u64(values, n);
    if (hook && hook->keep && MUTANT(samples_kept_sorted)) /* test-only */
        out->samples = hook->keep(hook->ctx, values, n);
    for (i = 0; i < n; i++)
        sum += values[i];
    out->n = n;
    out->min = values[0];
    out->max = values[n - 1];
    out->p50 = percentile_sorted(values, n, 500);
    out->p90 = percentile_sorted(values, n, 900);
    out->p99 = percentile_sorted(values, n, 990);
    out->mean = sum / n;
    if (hook && hook->interval)
        out->has_p50_ci = hook->interval(hook->ctx, values, n, &out->p50_low, &out->p50_high);
}

void stats_compute(struct sample_set *s, struct stats *out)
{
    stats_from_array(s->values, s->count, out);
}
