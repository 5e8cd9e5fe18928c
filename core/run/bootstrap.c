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

/* The 95% percentile interval of BOOT_REPLICATES replicate values (sorts them). */
static void percentile_interval(int64_t *reps, int64_t *low, int64_t *high)
{
    sort_i64(reps, BOOT_REPLICATES);
    /* the 2.5th and 97.5th percentiles, nearest rank: ranks 25 and 975 of 1000 */
    *low = reps[(BOOT_REPLICATES * (100 - BOOT_LEVEL_PERCENT) + 199) / 200 - 1];
    *high = reps[(BOOT_REPLICATES * (100 + BOOT_LEVEL_PERCENT) + 199) / 200 - 1];
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
    percentile_interval(w->reps, &out->low, &out->high);
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

/*
 * A point's own interval (issue 31): one list of samples, resampled alone.
 *
 * A resample of sorted samples x[0..n) draws n indices, uniform and
 * independent; its median (nearest rank k = ceil(n / 2)) is x[M], M the k-th
 * smallest index drawn, since x is sorted. So a replicate needs M only,
 * which is drawn here without drawing the n indices: each index is one of
 * 2^32 slots (slot s stands for index floor(s n / 2^32)), and the draws that
 * fall into a range of slots split between its two halves as Bin(c, 1/2),
 * the set bits of c random bits. Going down the halves that hold the k-th
 * draw until a range stands for one index costs about n/32 random words and
 * 32 steps at most, not the n draws and the selection of a literal
 * resample; its M has the same distribution, but for the slots: index i
 * gets floor or ceil(2^32 / n) of them, a chance off 1/n by less than
 * n / 2^32 of itself (2.3e-4 at a million samples, far inside what 1000
 * replicates resolve). tests/host/test_bootstrap.c checks both against a
 * literal resample.
 */
#define SLOT_BITS 32

/* The set bits of x, without POPCNT (not in the baseline x86-64 the EFI build targets). */
static uint32_t bits_set(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* Of c uniform draws into a range, how many fall into its lower half: Bin(c, 1/2). */
static uint32_t lower_half(struct splitmix *g, uint32_t c)
{
    uint32_t lower = 0;
    for (; c >= 64; c -= 64)
        lower += bits_set(splitmix_next(g));
    if (c)
        lower += bits_set(splitmix_next(g) & ((1ull << c) - 1));
    if (MUTANT(median_boot_biased)) /* test-only: one draw more to the lower half */
        lower += lower < c;
    return lower;
}

/* The k-th smallest (1-based) of n indices drawn uniformly from 0..n-1. */
static uint32_t resample_rank(struct splitmix *g, uint32_t n, uint32_t k)
{
    uint64_t lo = 0; /* the first slot of the range that holds the k-th draw */
    uint32_t c = n;  /* the draws in that range */
    unsigned bits = SLOT_BITS;
    while (bits > 0 && ((lo * n) >> SLOT_BITS) != (((lo + (1ull << bits) - 1) * n) >> SLOT_BITS)) {
        uint32_t lower;
        if (c == 1) { /* one draw left (k is 1): uniform over the range */
            lo += splitmix_next(g) & ((1ull << bits) - 1);
            break;
        }
        bits--;
        lower = lower_half(g, c);
        if (k <= lower) {
            c = lower;
        } else {
            k -= lower;
            c -= lower;
            lo += 1ull << bits;
        }
    }
    return (uint32_t)((lo * n) >> SLOT_BITS);
}

uint64_t boot_samples_stream(const uint64_t *sorted, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits, over the samples' bytes */
    uint32_t i, b;
    for (i = 0; i < n; i++)
        for (b = 0; b < 64; b += 8) {
            h ^= (sorted[i] >> b) & 0xff;
            h *= 0x100000001b3ull;
        }
    return h;
}

bool boot_median(int64_t *reps, const uint64_t *sorted, uint32_t n, uint64_t seed,
                 uint64_t *low, uint64_t *high)
{
    struct splitmix g;
    int64_t lo_rank, hi_rank;
    uint32_t r;
    if (!reps || n < BOOT_MEDIAN_MIN_N)
        return false;
    splitmix_seed(&g, seed, boot_samples_stream(sorted, n));
    for (r = 0; r < BOOT_REPLICATES; r++)
        reps[r] = resample_rank(&g, n, (n + 1) / 2);
    percentile_interval(reps, &lo_rank, &hi_rank);
    *low = sorted[lo_rank];
    *high = sorted[hi_rank];
    return true;
}

uint32_t boot_seed_from(uint64_t entropy)
{
    uint64_t z = entropy + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(z ^ (z >> 31));
}
