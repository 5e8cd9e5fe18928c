/*
 * invlpgb_vs_ipi, from invlpgb_range (core/run/recommend.h).
 *
 * Pairs: an INVLPGB and an IPI point of the pages form with every other
 * parameter equal (pages, CPUs, pti, path), INVLPGB on Linux's path (`path`
 * linux: one whole-PCID INVLPGB above the ceiling, not the chunked
 * alternative, which no verdict rests on). Each pair's two points were
 * measured in the same iterations (core/exp/invlpgb.c), so the IPI median
 * minus INVLPGB's gets a paired-bootstrap interval (core/run/bootstrap.h):
 * INVLPGB faster when it lies above zero, IPIs faster below, no measurable
 * difference when it contains zero.
 *
 * On the most CPUs measured the verdict says, range by range of page
 * counts, which of the three holds: a loss at one page must not hide wins
 * from 2 pages on (issue 20). The value is the largest page count of the
 * run of median wins that begins at the smallest page count INVLPGB wins
 * at (0 when it wins at none). At one page, the smallest CPU count from
 * which INVLPGB wins at every larger count measured (invlpgb_range's CPU
 * sweep), with its interval: the sweep's pairs resampled and that count
 * found again in each replicate. The same at 8 pages goes into the
 * verdict. Values from the medians, so anyone can recompute them from the
 * cited points; the confidence is the least of the pairs the value rests
 * on (up to and including the first loss after it; a pair without a
 * measurable difference there is low) and of the CPU count's interval.
 */
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/run/recommend_internal.h"
#include "core/lib/strbuf.h"

#define IB_MAX_PAIRS 64

enum ib_class { IB_FASTER, IB_SLOWER, IB_SAME };

struct ib_pair {
    int64_t pages, cpus;
    const struct result_point *a, *b; /* INVLPGB, IPI */
    bool wins;                        /* INVLPGB's median is the lower */
    bool has_interval;
    struct boot_result diff;          /* IPI minus INVLPGB, ticks */
    enum ib_class cls;
};

static enum confidence pair_conf(const struct ib_pair *p)
{
    if (!p->has_interval)
        return CONF_NONE;
    if (p->cls == IB_SAME)
        return CONF_LOW;
    return boot_difference_confidence(&p->diff, 0);
}

/* How many CPU counts were measured at `pages`. */
static uint32_t cpu_counts_at(const struct ib_pair *pr, uint32_t n, int64_t pages)
{
    uint32_t i, j, k = 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i && !(pr[j].pages == pages && pr[j].cpus == pr[i].cpus); j++)
            ;
        k += pr[i].pages == pages && j == i;
    }
    return k;
}

/* The smallest CPU count from which INVLPGB wins at `pages` up to the most CPUs; -1: none. */
static int64_t ib_cpus_from(const struct ib_pair *pr, uint32_t n, int64_t pages, int64_t most)
{
    int64_t from = -1, c, next;
    /* walk the CPU counts down from the most; stop at the first loss */
    for (c = most; c > 0; c = next) {
        uint32_t i;
        bool found = false, wins = false;
        next = 0;
        for (i = 0; i < n; i++) {
            if (pr[i].pages != pages)
                continue;
            if (pr[i].cpus == c) {
                found = true;
                wins = pr[i].wins;
            } else if (pr[i].cpus < c && pr[i].cpus > next) {
                next = pr[i].cpus;
            }
        }
        if (!found)
            continue;
        if (MUTANT(cpus_from_any_win)) { /* test-only: a loss above does not end it */
            if (wins)
                from = c;
            continue;
        }
        if (!wins)
            break;
        from = c;
    }
    return from;
}

/* cpus_from's interval over the pairs at one page; false without paired samples. */
static bool cpus_interval(struct rec_ctx *c, const struct ib_pair *pr, uint32_t n,
                          struct boot_result *br, int64_t *grid, uint32_t *ngrid)
{
    struct paired cols[BOOT_MAX_COLUMNS];
    const struct ib_pair *sorted[BOOT_MAX_COLUMNS];
    uint32_t i, j, k = 0;
    for (i = 0; i < n && k < BOOT_MAX_COLUMNS; i++) {
        if (pr[i].pages != 1)
            continue;
        if (!points_paired(pr[i].a, pr[i].b) || !c->boot.reps)
            return false;
        for (j = k; j > 0 && sorted[j - 1]->cpus > pr[i].cpus; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = &pr[i];
        k++;
    }
    for (i = 0; i < k; i++) {
        /* a the IPIs, b INVLPGB: the count from which INVLPGB's median stays the lower */
        cols[i] = (struct paired){ sorted[i]->b->kept, sorted[i]->a->kept, sorted[i]->a->nkept };
        grid[i] = sorted[i]->cpus;
    }
    *ngrid = k;
    return k && boot_columns(&c->boot, cols, k, boot_stat_crossing, grid, c->seed,
                             REC_STREAM_IB_CPUS, br);
}

/* " 2-16, 64 pages": the page counts of class `cls` on `most` CPUs, as ranges; "" if none. */
static bool ranges(const struct ib_pair *const *row, uint32_t n, enum ib_class cls, char *buf,
                   size_t cap)
{
    uint32_t i, count = 0, first = 0;
    bool any = false;
    buf[0] = 0;
    for (i = 0; i < n; i++) {
        if (row[i]->cls != cls)
            continue;
        if (i == 0 || row[i - 1]->cls != cls) {
            first = i;
            rec_append(buf, cap, "%s%lld", any ? ", " : " ", (long long)row[i]->pages);
            any = true;
        }
        count++;
        if ((i + 1 == n || row[i + 1]->cls != cls) && i > first)
            rec_append(buf, cap, "-%lld", (long long)row[i]->pages);
    }
    if (any)
        rec_append(buf, cap, " page%s", count == 1 && row[first]->pages == 1 ? "" : "s");
    return any;
}

/* The verdict's part about the most CPUs: which method is faster at which page counts. */
static void describe_most(const struct ib_pair *const *row, uint32_t n, int64_t most, char *buf,
                          size_t cap)
{
    static const char *const what[] = { "INVLPGB+TLBSYNC faster than IPIs at",
                                        "IPIs faster at", "no measurable difference at" };
    char r[96];
    uint32_t k;
    bool any = false;
    fmt_into(buf, cap, "on %lld CPUs", (long long)most);
    for (k = 0; k < 3; k++) {
        if (!ranges(row, n, (enum ib_class)k, r, sizeof(r)))
            continue;
        rec_append(buf, cap, "%s %s%s", any ? ";" : "", what[k], r);
        any = true;
    }
}

/*
 * Which placement cpus_from is read from, and spread's beside it (the
 * experiment's summary row, Linux's placement-blind process), into `why`.
 */
static void placement_note(const struct experiment_record *x, char *buf, size_t cap)
{
    uint32_t i;
    rec_append(buf, cap, "; cpus_from is read from the nearest-first sweep (summary placement "
                         "nearest_first: the cheapest IPIs there are)");
    for (i = 0; i < x->summary.count; i++) {
        const struct result_point *s = &x->summary.items[i];
        int64_t from = rec_value(s, "cpus_from", 0), most = rec_value(s, "cpus_max", 0);
        if (!rec_param_is(s, "placement", "spread", 0))
            continue;
        if (from > 0)
            rec_append(buf, cap, "; spread, Linux's placement-blind process, from %lld CPUs",
                       (long long)(from / 1000));
        else
            rec_append(buf, cap, "; spread: IPIs win up to %lld CPUs", (long long)(most / 1000));
    }
}

void rec_invlpgb(struct rec_ctx *c, struct recommendation *e)
{
    const struct experiment_record *x = rec_usable(c->r, e, "invlpgb_range");
    struct ib_pair pr[IB_MAX_PAIRS];
    const struct ib_pair *row[IB_MAX_PAIRS]; /* the most CPUs, by page count */
    struct boot_result cbr;
    int64_t grid[BOOT_MAX_COLUMNS];
    char most_text[240], iv[96];
    uint32_t i, j, n = 0, nrow = 0, ngrid = 0, ncounts, ncounts8, first_win, end;
    int64_t most = -1, from1, from8;
    bool cpus_iv = false;
    enum confidence conf = CONF_HIGH;
    e->linux_default = "INVLPGB for a process active on 4 or more CPUs (global ASID, Linux 6.15+)";
    e->unit = "pages";
    e->has_cpus_from = true;
    e->cpus_from_placement = "nearest_first";
    if (!x)
        return;
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *a = &x->results.items[i];
        const struct stats *sa;
        /*
         * The nearest-first sweep's points only (summary placement nearest_first):
         * placement points have their own crossover, beside it in the summary, and
         * busy_ws rows (targets_doing) measure what other CPUs lose, not the sweep.
         */
        if (!rec_param_is(a, "method", "invlpgb", 0) || !rec_param_is(a, "form", "pages", 0) ||
            !rec_param_is(a, "path", "linux", 0) ||
            (MUTANT(rec_cpus_from_spread) ? !rec_param_is(a, "placement", "spread", 0)
                                          : point_find_param(a, "placement") != NULL) ||
            point_find_param(a, "targets_doing") || !(sa = point_find_metric(a, "latency")))
            continue;
        for (j = 0; j < x->results.count && n < IB_MAX_PAIRS; j++) {
            const struct result_point *b = &x->results.items[j];
            const struct stats *sb;
            struct ib_pair *p = &pr[n];
            if (!rec_param_is(b, "method", "ipi", 0) || !rec_same_params_except(a, b, "method") ||
                !(sb = point_find_metric(b, "latency")))
                continue;
            rec_cite(e, i);
            rec_cite(e, j);
            *p = (struct ib_pair){ rec_param_num(a, "pages"), rec_param_num(a, "cpus"), a, b,
                                   sa->p50 < sb->p50, false, { 0 }, IB_SLOWER };
            p->has_interval = rec_pair_difference(c, a, b, REC_STREAM_IB_PAIR + n, &p->diff);
            if (p->has_interval)
                p->cls = p->diff.low > 0 ? IB_FASTER : p->diff.high < 0 ? IB_SLOWER : IB_SAME;
            else
                p->cls = p->wins ? IB_FASTER : IB_SLOWER;
            if (p->cpus > most)
                most = p->cpus;
            n++;
            break;
        }
    }
    if (!n) {
        rec_no_evidence(e, "invlpgb_range has no pairs of INVLPGB and IPI points%s", NULL);
        return;
    }
    /* the most CPUs, page counts ascending */
    for (i = 0; i < n; i++) {
        if (pr[i].cpus != most)
            continue;
        for (j = nrow; j > 0 && row[j - 1]->pages > pr[i].pages; j--)
            row[j] = row[j - 1];
        row[j] = &pr[i];
        nrow++;
    }
    /* the run of median wins from the smallest win; end: one past it */
    for (first_win = 0; first_win < nrow && !row[first_win]->wins; first_win++)
        ;
    if (MUTANT(invlpgb_verdict_first_page) && first_win > 0)
        first_win = nrow; /* test-only: a loss at the smallest count ends every win */
    for (end = first_win; end < nrow && row[end]->wins; end++)
        ;
    e->enough = true;
    e->has_value = true;
    e->value = end > first_win ? row[end - 1]->pages : 0;
    /* what the value rests on: every count up to and including the loss that ends the run */
    for (i = 0; i < nrow && (e->value == 0 || i <= end); i++)
        conf = rec_min_conf(conf, pair_conf(row[i]));
    from1 = ib_cpus_from(pr, n, 1, most);
    from8 = ib_cpus_from(pr, n, 8, most);
    ncounts = cpu_counts_at(pr, n, 1);
    ncounts8 = cpu_counts_at(pr, n, 8);
    if (from1 > 0)
        e->cpus_from = from1;
    if (ncounts >= 2) {
        cpus_iv = cpus_interval(c, pr, n, &cbr, grid, &ngrid);
        conf = rec_min_conf(conf, cpus_iv ? boot_grid_confidence(&cbr, grid, ngrid) : CONF_NONE);
        if (cpus_iv)
            e->interval = (struct rec_interval){ true, "cpus_from", "cpus", 0, cbr.low * 1000,
                                                 cbr.high * 1000, cbr.low == BOOT_NONE,
                                                 cbr.high == BOOT_NONE, cbr.pairs };
    }
    e->conf = conf;
    describe_most(row, nrow, most, most_text, sizeof(most_text));
    if (e->value == 0 && !MUTANT(invlpgb_verdict_first_page)) {
        fmt_into(e->verdict, sizeof(e->verdict), "INVLPGB+TLBSYNC never faster by the medians %s",
                 most_text);
    } else if (e->value == 0) { /* test-only: the verdict before issue 20 */
        fmt_into(e->verdict, sizeof(e->verdict),
                 "IPIs were faster than INVLPGB+TLBSYNC at every page count on %lld CPUs, the "
                 "most measured", (long long)most);
    } else if (ncounts < 2) {
        fmt_into(e->verdict, sizeof(e->verdict), "%s (%s, so no smallest CPU count)", most_text,
                 ncounts ? "the only CPU count measured at one page" : "no one-page points");
    } else {
        char at8[64] = "";
        rec_interval_text(&e->interval, most, iv, sizeof(iv));
        if (ncounts8 >= 2 && from8 > 0)
            fmt_into(at8, sizeof(at8), "; at 8 pages from %lld CPUs", (long long)from8);
        else if (ncounts8 >= 2)
            fmt_into(at8, sizeof(at8), "; at 8 pages IPIs win on %lld CPUs", (long long)most);
        if (from1 > 0)
            fmt_into(e->verdict, sizeof(e->verdict),
                     "INVLPGB+TLBSYNC faster than IPIs at one page from %lld CPUs%s, Linux from "
                     "4%s; %s", (long long)from1, iv, at8, most_text);
        else
            fmt_into(e->verdict, sizeof(e->verdict),
                     "at one page IPIs win on %lld CPUs, so no smallest CPU count%s%s; %s",
                     (long long)most, iv, at8, most_text);
    }
    fmt_into(e->why, sizeof(e->why),
             "per (pages, CPUs) pair a paired-bootstrap interval of the IPI median minus "
             "INVLPGB's; %u CPU counts at one page%s; the least confidence of the pairs the value "
             "rests on and of the CPU count's interval",
             ncounts, cpus_iv ? ", the smallest that wins resampled too" : "");
    placement_note(x, e->why, sizeof(e->why));
    if (conf == CONF_NONE) {
        e->enough = false;
        e->has_value = false;
        e->cpus_from = 0;
        e->interval.valid = false;
        fmt_into(e->why, sizeof(e->why), "no per-iteration pairs of INVLPGB and IPI samples, so "
                 "no intervals; by the medians: %s", e->verdict);
        fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
    }
}
