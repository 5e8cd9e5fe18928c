#include "core/run/bootstrap.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/lib/splitmix.h"
#include "core/lib/stats.h"

bool boot_work_init(struct boot_work *w, uint32_t max_samples)
{
    mem_zero(w, sizeof(*w));
    if (!max_samples)
        max_samples = 1;
    w->reps = mem_alloc(BOOT_REPLICATES * sizeof(int64_t));
    w->a = mem_alloc((size_t)max_samples * sizeof(uint64_t));
    w->b = mem_alloc((size_t)max_samples * sizeof(uint64_t));
    if (!w->reps || !w->a || !w->b) {
        boot_work_release(w);
        return false;
    }
    w->cap = max_samples;
    return true;
}

void boot_work_release(struct boot_work *w)
{
    mem_free(w->reps);
    mem_free(w->a);
    mem_free(w->b);
    mem_zero(w, sizeof(*w));
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
    uint64_t t = *a;
    *a = *b;
    *b = t;
}

/* The k-th smallest (0-based) of v[0..n): Wirth's selection (Algorithms + Data Structures
 * = Programs, 1976), O(n) on average; equal values stop both scans, so duplicates are cheap. */
static uint64_t select_kth(uint64_t *v, uint32_t n, uint32_t k)
{
    int32_t l = 0, m = (int32_t)n - 1, kk = (int32_t)k;
    while (l < m) {
        uint64_t x = v[kk];
        int32_t i = l, j = m;
        do {
            while (v[i] < x)
                i++;
            while (x < v[j])
                j--;
            if (i <= j) {
                swap_u64(&v[i], &v[j]);
                i++;
                j--;
            }
        } while (i <= j);
        if (j < kk)
            l = i;
        if (kk < i)
            m = j;
    }
    return v[kk];
}

uint64_t median_select(uint64_t *v, uint32_t n)
{
    if (n == 0)
        return 0;
    return select_kth(v, n, (n + 1) / 2 - 1); /* rank ceil(n / 2), as percentile_sorted(500) */
}

/* One replicate of one column: the medians of a resample of its pairs. */
static void resample(struct splitmix *g, const struct paired *p, struct boot_work *w,
                     uint64_t *med_a, uint64_t *med_b)
{
    uint32_t i;
    for (i = 0; i < p->n; i++) {
        uint32_t k = splitmix_below(g, p->n);
        w->a[i] = p->a[k];
        if (MUTANT(bootstrap_unpaired)) /* test-only: b's iterations drawn apart from a's */
            k = splitmix_below(g, p->n);
        w->b[i] = p->b[k];
    }
    *med_a = median_select(w->a, p->n);
    *med_b = median_select(w->b, p->n);
}

static void sort_i64(int64_t *v, uint32_t n)
{
    uint32_t i, j;
    /* Shell sort (gaps 1, 4, 13, ...): 1000 values, no recursion, no allocation */
    uint32_t gap = 1;
    while (gap < n / 3)
        gap = gap * 3 + 1;
    for (; gap > 0; gap /= 3)
        for (i = gap; i < n; i++) {
            int64_t t = v[i];
            for (j = i; j >= gap && v[j - gap] > t; j -= gap)
                v[j] = v[j - gap];
            v[j] = t;
        }
}

bool boot_columns(struct boot_work *w, const struct paired *cols, uint32_t ncols,
                  boot_stat_fn stat, const void *ctx, uint64_t seed, uint64_t stream,
                  struct boot_result *out)
{
    uint64_t med_a[BOOT_MAX_COLUMNS], med_b[BOOT_MAX_COLUMNS];
    struct splitmix g;
    uint32_t c, r;
    mem_zero(out, sizeof(*out));
    if (!w->reps || ncols == 0 || ncols > BOOT_MAX_COLUMNS)
        return false;
    out->pairs = UINT32_MAX;
    for (c = 0; c < ncols; c++) {
        if (!cols[c].a || !cols[c].b || cols[c].n == 0 || cols[c].n > w->cap)
            return false;
        if (cols[c].n < out->pairs)
            out->pairs = cols[c].n;
        /* the estimate: the full samples' medians, the numbers the report holds */
        mem_copy(w->a, cols[c].a, cols[c].n * sizeof(uint64_t));
        mem_copy(w->b, cols[c].b, cols[c].n * sizeof(uint64_t));
        med_a[c] = median_select(w->a, cols[c].n);
        med_b[c] = median_select(w->b, cols[c].n);
    }
    out->estimate = stat(ctx, med_a, med_b, ncols);
    splitmix_seed(&g, seed, stream);
    for (r = 0; r < BOOT_REPLICATES; r++) {
        for (c = 0; c < ncols; c++)
            resample(&g, &cols[c], w, &med_a[c], &med_b[c]);
        w->reps[r] = stat(ctx, med_a, med_b, ncols);
    }
    sort_i64(w->reps, BOOT_REPLICATES);
    /* the 2.5th and 97.5th percentiles, nearest rank: ranks 25 and 975 of 1000 */
    out->low = w->reps[(BOOT_REPLICATES * (100 - BOOT_LEVEL_PERCENT) + 199) / 200 - 1];
    out->high = w->reps[(BOOT_REPLICATES * (100 + BOOT_LEVEL_PERCENT) + 199) / 200 - 1];
    out->replicates = BOOT_REPLICATES;
    out->valid = true;
    return true;
}

int64_t boot_stat_sum_diff(const void *ctx, const uint64_t *med_a, const uint64_t *med_b,
                           uint32_t n)
{
    int64_t d = 0;
    uint32_t c;
    (void)ctx;
    for (c = 0; c < n; c++)
        d += (int64_t)med_b[c] - (int64_t)med_a[c];
    return d;
}

int64_t boot_stat_saving_millipct(const void *ctx, const uint64_t *med_a, const uint64_t *med_b,
                                  uint32_t n)
{
    int64_t sa = 0, sb = 0;
    uint32_t c;
    (void)ctx;
    for (c = 0; c < n; c++) {
        sa += (int64_t)med_a[c];
        sb += (int64_t)med_b[c];
    }
    return sa ? (sa - sb) * 100000 / sa : 0;
}

int64_t boot_stat_crossing(const void *ctx, const uint64_t *med_a, const uint64_t *med_b,
                           uint32_t n)
{
    const int64_t *counts = ctx;
    int64_t from = BOOT_NONE;
    uint32_t i;
    for (i = n; i > 0 && med_b[i - 1] < med_a[i - 1]; i--)
        from = counts[i - 1];
    return from;
}

bool boot_no_difference(const struct boot_result *r)
{
    return r->low <= 0 && r->high >= 0;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

enum confidence boot_difference_confidence(const struct boot_result *r, int64_t equivalence)
{
    int64_t nearest;
    if (!r->valid)
        return CONF_NONE;
    if (boot_no_difference(r))
        return r->low >= -equivalence && r->high <= equivalence ? CONF_MEDIUM : CONF_LOW;
    nearest = r->low > 0 ? r->low : -r->high;
    return nearest * 2 >= abs64(r->estimate) ? CONF_HIGH : CONF_MEDIUM;
}

enum confidence boot_grid_confidence(const struct boot_result *r, const int64_t *grid, uint32_t n)
{
    uint32_t i, span = 0;
    if (!r->valid)
        return CONF_NONE;
    for (i = 0; i < n; i++)
        span += grid[i] >= r->low && grid[i] <= r->high;
    span += r->high == BOOT_NONE; /* "none": one position past the largest count */
    return span <= 1 ? CONF_HIGH : span <= 3 ? CONF_MEDIUM : CONF_LOW;
}
