#include "core/recommend.h"
#include "core/mem.h"
#include "core/mutant.h"
#include "core/strbuf.h"

#define MAX_CURVE 64

bool recommend_not_hardware(const char *environment)
{
    return environment && !str_eq(environment, "hardware");
}

static const struct experiment_record *find(const struct run *r, const char *id)
{
    uint32_t i;
    for (i = 0; i < r->experiment_count; i++)
        if (r->experiments[i].ran && str_eq(r->experiments[i].id, id))
            return &r->experiments[i];
    return NULL;
}

static bool param_is(const struct result_point *p, const char *key, const char *str, int64_t num)
{
    const struct point_param *pp = point_find_param(p, key);
    if (!pp)
        return false;
    return str ? pp->str && str_eq(pp->str, str) : !pp->str && pp->num == num;
}

static int64_t param_num(const struct result_point *p, const char *key)
{
    const struct point_param *pp = point_find_param(p, key);
    return pp && !pp->str ? pp->num : -1;
}

static const struct stats *metric(const struct result_point *p, const char *name)
{
    uint8_t i;
    for (i = 0; i < p->nmetrics; i++)
        if (str_eq(p->metrics[i].name, name))
            return &p->metrics[i].st;
    return NULL;
}

static int64_t value(const struct result_point *p, const char *key, int64_t dflt)
{
    uint8_t i;
    for (i = 0; i < p->nvalues; i++)
        if (str_eq(p->values[i].key, key))
            return p->values[i].milli;
    return dflt;
}

static void cite(struct recommendation *e, uint32_t index)
{
    if (e->npoints < RECOMMEND_MAX_POINTS)
        e->points[e->npoints++] = index;
}

/* An entry without evidence: why, in one line. */
static void no_evidence(struct recommendation *e, const char *fmt, const char *arg)
{
    e->enough = false;
    e->conf = CONF_NONE;
    fmt_into(e->why, sizeof(e->why), fmt, arg ? arg : "");
    fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
}

/* The record the entry needs, measured and verified; NULL (and why) otherwise. */
static const struct experiment_record *usable(const struct run *r, struct recommendation *e,
                                              const char *id)
{
    const struct experiment_record *x = find(r, id);
    e->experiment = x ? id : NULL; /* evidence names only experiments the report holds */
    if (!x) {
        no_evidence(e, "%s was not run", id);
        return NULL;
    }
    if (x->status == RESULT_SKIP) {
        fmt_into(e->why, sizeof(e->why), "%s was skipped: %s", id, x->reason);
        e->enough = false;
        fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
        return NULL;
    }
    if (x->status == RESULT_FAILURE || x->verification.stale_reads) {
        no_evidence(e, "%s failed its verification: its timings do not describe a correct flush",
                    id);
        return NULL;
    }
    if (!x->results.count) {
        no_evidence(e, "%s recorded no points", id);
        return NULL;
    }
    return x;
}

/* Confidence of "A is cheaper than B" from two points' medians and p90s. */
static enum confidence two_point_conf(const struct stats *a, const struct stats *b)
{
    if (a->p90 < b->p50)
        return CONF_HIGH;
    if (a->p50 * 10 < b->p50 * 9)
        return CONF_MEDIUM; /* more than 10% apart in the medians */
    return CONF_LOW;
}

static void append(char *buf, size_t cap, const char *fmt, uint32_t a, uint32_t b)
{
    size_t len = 0;
    while (len < cap && buf[len])
        len++;
    if (len < cap)
        fmt_into(buf + len, cap - len, fmt, a, b);
}

static enum confidence min_conf(enum confidence a, enum confidence b) { return a < b ? a : b; }

/*
 * flush_ceiling. The working set nearest RECOMMEND_TYPICAL_WS, contiguous
 * form (the lower bound of the refill, as Linux's 33 was measured): one
 * crossover per curve, locally (latency: flush + refill) and for each
 * shootdown's target count (with_refill: the initiator's wait plus the
 * slowest target's refill). The ceiling is the smallest of the curves'
 * ceilings (the largest count still cheaper page by page, or the largest
 * measured where the full flush never won), over the curves of medium or
 * high confidence (all of them when none is); its confidence the least of
 * theirs. The scattered, cold form's local p* is named as the other bound.
 */
#define FC_MAX_CURVES 4
struct fc_curve {
    int64_t targets;          /* 0: local */
    const char *form;
    struct curve_point pts[MAX_CURVE];
    uint32_t n;
    struct crossover c;
    bool used;
};

/* Fills one curve: invlpg against full_cr3 at working set w, in `form`. */
static void fc_fill(const struct experiment_record *x, int64_t w, struct fc_curve *cv)
{
    const char *name = cv->targets ? "with_refill" : "latency";
    const char *k25 = cv->targets ? "with_refill_p25" : "p25";
    const char *k75 = cv->targets ? "with_refill_p75" : "p75";
    uint32_t i, j;
    cv->n = 0;
    for (i = 0; i < x->results.count && cv->n < MAX_CURVE; i++) {
        const struct result_point *a = &x->results.items[i];
        const struct stats *sa;
        if (param_num(a, "targets") != cv->targets || !param_is(a, "working_set", NULL, w) ||
            !param_is(a, "working_set_form", cv->form, 0) || !param_is(a, "mode", "invlpg", 0) ||
            !(sa = metric(a, name)))
            continue;
        for (j = 0; j < x->results.count; j++) {
            const struct result_point *b = &x->results.items[j];
            const struct stats *sb;
            if (param_num(b, "targets") != cv->targets || !param_is(b, "working_set", NULL, w) ||
                !param_is(b, "working_set_form", cv->form, 0) ||
                !param_is(b, "mode", "full_cr3", 0) ||
                param_num(b, "pages") != param_num(a, "pages") || !(sb = metric(b, name)))
                continue;
            cv->pts[cv->n++] = (struct curve_point){
                .p = (uint32_t)param_num(a, "pages"),
                .a25 = (uint64_t)value(a, k25, (int64_t)sa->p50 * 1000) / 1000,
                .a50 = sa->p50,
                .a75 = (uint64_t)value(a, k75, (int64_t)sa->p50 * 1000) / 1000,
                .b25 = (uint64_t)value(b, k25, (int64_t)sb->p50 * 1000) / 1000,
                .b50 = sb->p50,
                .b75 = (uint64_t)value(b, k75, (int64_t)sb->p50 * 1000) / 1000,
                .a_index = i,
                .b_index = j,
            };
            break;
        }
    }
    crossover_find(cv->pts, cv->n, &cv->c);
}

/* The ceiling one curve gives: the largest count still cheaper page by page. */
static uint32_t fc_ceiling(const struct fc_curve *cv)
{
    return cv->c.found ? cv->c.p_before : cv->pts[cv->n - 1].p;
}

static void fc_describe(struct strbuf *sb, const struct fc_curve *cv)
{
    if (cv->targets)
        sb_printf(sb, "%lld target%s", (long long)cv->targets, cv->targets == 1 ? "" : "s");
    else
        sb_puts(sb, "local");
    if (cv->c.found)
        sb_printf(sb, " p* = %u", cv->c.p_star);
    else
        sb_printf(sb, " no p* up to %u", cv->pts[cv->n - 1].p);
    if (!cv->used)
        sb_puts(sb, " (noisy, not used)");
}

static void rec_flush_ceiling(const struct run *r, struct recommendation *e)
{
    const struct experiment_record *x = usable(r, e, "flush_ceiling");
    static struct fc_curve cv[FC_MAX_CURVES + 1]; /* the contiguous curves, then the cold one */
    uint32_t i, j, n = 0, nused = 0, value = UINT32_MAX, decider = 0;
    int64_t best_w = -1, targets[FC_MAX_CURVES];
    uint32_t ntargets = 0;
    char list[200];
    struct strbuf sb;
    enum confidence conf = CONF_HIGH;
    e->linux_default = "33 (tlb_single_page_flush_ceiling: page by page up to 33 pages)";
    e->unit = "pages";
    if (!x)
        return;
    /* the measured working set nearest the typical one; the target counts measured */
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *p = &x->results.items[i];
        int64_t w = param_num(p, "working_set"), k = param_num(p, "targets");
        if (w >= 0 && (best_w < 0 || (w > RECOMMEND_TYPICAL_WS ? w - RECOMMEND_TYPICAL_WS
                                                               : RECOMMEND_TYPICAL_WS - w) <
                                         (best_w > RECOMMEND_TYPICAL_WS
                                              ? best_w - RECOMMEND_TYPICAL_WS
                                              : RECOMMEND_TYPICAL_WS - best_w)))
            best_w = w;
        for (j = 0; j < ntargets && targets[j] != k; j++)
            ;
        if (k >= 0 && j == ntargets && ntargets < FC_MAX_CURVES)
            targets[ntargets++] = k;
    }
    for (i = 0; i < ntargets; i++) /* ascending: local first */
        for (j = i + 1; j < ntargets; j++)
            if (targets[j] < targets[i]) {
                int64_t t = targets[i];
                targets[i] = targets[j];
                targets[j] = t;
            }
    for (i = 0; i < ntargets; i++) {
        cv[n].targets = targets[i];
        cv[n].form = "contiguous";
        fc_fill(x, best_w, &cv[n]);
        if (cv[n].n)
            n++;
    }
    cv[n].targets = 0;
    cv[n].form = "scattered_cold";
    fc_fill(x, best_w, &cv[n]);
    for (i = 0; i <= n; i++)
        for (j = 0; j < cv[i].n; j++) {
            cite(e, cv[i].pts[j].a_index);
            cite(e, cv[i].pts[j].b_index);
        }
    if (MUTANT(evidence_nowhere))
        cite(e, x->results.count); /* test-only: one past the last point */
    /* the curves the value rests on: medium or high confidence, else every measured one */
    for (i = 0; i < n; i++)
        nused += cv[i].used = cv[i].c.conf >= CONF_MEDIUM;
    for (i = 0; i < n && !nused; i++)
        nused += cv[i].used = cv[i].c.conf > CONF_NONE;
    sb_init_fixed(&sb, list, sizeof(list));
    for (i = 0; i < n; i++) {
        if (cv[i].used) {
            conf = min_conf(conf, cv[i].c.conf);
            if (fc_ceiling(&cv[i]) < value) {
                value = fc_ceiling(&cv[i]);
                decider = i;
            }
        }
        if (i)
            sb_puts(&sb, "; ");
        fc_describe(&sb, &cv[i]);
    }
    if (cv[n].n && cv[n].c.found)
        sb_printf(&sb, "; scattered frames, cold page tables: local p* = %u", cv[n].c.p_star);
    fmt_into(e->why, sizeof(e->why), "%s (%u page counts, working set %lld pages, %u curve%s: "
                                     "local, and shootdowns as the initiator's wait plus the "
                                     "slowest target's refill)",
             n ? cv[decider].c.why : "no curve", n ? cv[decider].n : 0, (long long)best_w, n,
             n == 1 ? "" : "s");
    if (!nused) {
        e->conf = CONF_NONE;
        e->enough = false;
        fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
        return;
    }
    e->conf = conf;
    e->enough = true;
    e->has_value = true;
    e->value = value;
    if (!cv[decider].c.found)
        fmt_into(e->verdict, sizeof(e->verdict),
                 "page by page up to at least %u pages: INVLPG then the refills stayed cheaper "
                 "than a full flush at every count measured (working set %lld pages, "
                 "contiguous): %s",
                 value, (long long)best_w, list);
    else if (value)
        fmt_into(e->verdict, sizeof(e->verdict),
                 "ceiling %u: INVLPG then the refills cheaper up to %u page%s on every curve "
                 "(working set %lld pages, contiguous): %s",
                 value, value, value == 1 ? "" : "s", (long long)best_w, list);
    else
        fmt_into(e->verdict, sizeof(e->verdict),
                 "ceiling 0: a full flush was cheaper from the smallest count measured "
                 "(working set %lld pages, contiguous): %s",
                 (long long)best_w, list);
    if (cv[decider].c.overlap)
        append(e->verdict, sizeof(e->verdict), "; within noise from %u to %u pages",
               cv[decider].c.band_low, cv[decider].c.band_high);
}

/*
 * invlpgb_vs_ipi. Pairs of INVLPGB and IPI points of the pages form at the
 * same page count and CPU count, INVLPGB on Linux's path (`path` linux: one
 * whole-PCID INVLPGB above the ceiling, not the chunked alternative). Two answers: on the most CPUs measured,
 * the largest page count up to which INVLPGB wins (from one page on: the
 * first loss ends it); and at one page, the smallest CPU count from which
 * it wins at every larger count measured (invlpgb_range's CPU sweep,
 * core/exp/invlpgb.c). The same at 8 pages goes into the verdict.
 */
#define IB_MAX_PAIRS 64
struct ib_pair {
    int64_t pages, cpus;
    bool wins;
    enum confidence conf; /* of the faster one being faster */
};

/*
 * The smallest CPU count from which INVLPGB wins at `pages` up to the most
 * CPUs; -1: none. *counts: the CPU counts measured at `pages`; *conf (may
 * be NULL): the least confidence among the wins walked.
 */
static int64_t ib_cpus_from(const struct ib_pair *pr, uint32_t n, int64_t pages, int64_t most,
                            enum confidence *conf, uint32_t *counts)
{
    int64_t from = -1, c, next;
    enum confidence cf = CONF_HIGH;
    *counts = 0;
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
                if (wins)
                    cf = min_conf(cf, pr[i].conf);
            } else if (pr[i].cpus < c && pr[i].cpus > next) {
                next = pr[i].cpus;
            }
        }
        if (!found)
            continue;
        (*counts)++;
        if (MUTANT(cpus_from_any_win)) { /* test-only: a loss above does not end it */
            if (wins)
                from = c;
            continue;
        }
        if (!wins)
            break;
        from = c;
    }
    if (conf)
        *conf = cf;
    return from;
}

static void rec_invlpgb(const struct run *r, struct recommendation *e)
{
    const struct experiment_record *x = usable(r, e, "invlpgb_range");
    struct ib_pair pr[IB_MAX_PAIRS];
    uint32_t i, j, n = 0, ncounts, ncounts8;
    int64_t largest = -1, first_loss = -1, most = -1, from1, from8;
    enum confidence conf = CONF_HIGH, conf1;
    e->linux_default = "INVLPGB for a process active on 4 or more CPUs (global ASID, Linux 6.15+)";
    e->unit = "pages";
    e->has_cpus_from = true;
    if (!x)
        return;
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *a = &x->results.items[i];
        const struct stats *sa;
        if (!param_is(a, "method", "invlpgb", 0) || !param_is(a, "form", "pages", 0) ||
            !param_is(a, "path", "linux", 0) || !(sa = metric(a, "latency")))
            continue;
        for (j = 0; j < x->results.count && n < IB_MAX_PAIRS; j++) {
            const struct result_point *b = &x->results.items[j];
            const struct stats *sb;
            if (!param_is(b, "method", "ipi", 0) || !param_is(b, "form", "pages", 0) ||
                param_num(b, "pages") != param_num(a, "pages") ||
                param_num(b, "cpus") != param_num(a, "cpus") || !(sb = metric(b, "latency")))
                continue;
            cite(e, i);
            cite(e, j);
            pr[n] = (struct ib_pair){
                .pages = param_num(a, "pages"),
                .cpus = param_num(a, "cpus"),
                .wins = sa->p50 < sb->p50,
                .conf = sa->p50 < sb->p50 ? two_point_conf(sa, sb) : two_point_conf(sb, sa),
            };
            if (pr[n].cpus > most)
                most = pr[n].cpus;
            n++;
            break;
        }
    }
    if (!n) {
        no_evidence(e, "invlpgb_range has no pairs of INVLPGB and IPI points%s", NULL);
        return;
    }
    /* on the most CPUs: page counts ascending, up to the first loss */
    for (i = 0; i < n; i++)
        if (pr[i].cpus == most && !pr[i].wins && (first_loss < 0 || pr[i].pages < first_loss))
            first_loss = pr[i].pages;
    for (i = 0; i < n; i++)
        if (pr[i].cpus == most && pr[i].wins && (first_loss < 0 || pr[i].pages < first_loss) &&
            pr[i].pages > largest)
            largest = pr[i].pages;
    for (i = 0; i < n; i++) /* every win that the answer rests on */
        if (pr[i].cpus == most && pr[i].wins && pr[i].pages <= largest)
            conf = min_conf(conf, pr[i].conf);
    from1 = ib_cpus_from(pr, n, 1, most, &conf1, &ncounts);
    from8 = ib_cpus_from(pr, n, 8, most, NULL, &ncounts8);
    e->enough = true;
    e->has_value = true;
    if (largest < 0) {
        e->value = 0;
        e->conf = CONF_MEDIUM;
        fmt_into(e->verdict, sizeof(e->verdict),
                 "IPIs were faster than INVLPGB+TLBSYNC at every page count on %lld CPUs, the "
                 "most measured",
                 (long long)most);
        fmt_into(e->why, sizeof(e->why), "medians compared per page count on %lld CPUs",
                 (long long)most);
        return;
    }
    e->value = largest;
    e->conf = conf;
    /* largest >= 0: one page wins on the most CPUs, so from1 > 0 unless none was measured */
    if (from1 > 0) {
        e->cpus_from = from1;
        e->conf = min_conf(e->conf, conf1);
    }
    if (ncounts == 0) {
        fmt_into(e->verdict, sizeof(e->verdict),
                 "INVLPGB+TLBSYNC faster than IPIs up to %lld pages on %lld CPUs (no one-page "
                 "points, so no smallest CPU count)",
                 (long long)largest, (long long)most);
    } else if (ncounts == 1) {
        fmt_into(e->verdict, sizeof(e->verdict),
                 "INVLPGB+TLBSYNC faster than IPIs up to %lld pages on %lld CPUs (the only CPU "
                 "count measured, so also the smallest known to win)",
                 (long long)largest, (long long)most);
    } else {
        char at8[64] = "";
        if (ncounts8 >= 2 && from8 > 0)
            fmt_into(at8, sizeof(at8), "; at 8 pages from %lld CPUs", (long long)from8);
        else if (ncounts8 >= 2)
            fmt_into(at8, sizeof(at8), "; at 8 pages IPIs win on %lld CPUs", (long long)most);
        fmt_into(e->verdict, sizeof(e->verdict),
                 "INVLPGB+TLBSYNC faster than IPIs from %lld CPUs at one page (Linux: from 4)%s; "
                 "up to %lld pages on %lld CPUs",
                 (long long)from1, at8, (long long)largest, (long long)most);
    }
    fmt_into(e->why, sizeof(e->why),
             "medians compared per page count and CPU count (%u CPU counts at one page); "
             "confidence from p90 against the other median",
             ncounts);
}

static void rec_order(const struct run *r, struct recommendation *e)
{
    const struct experiment_record *x = usable(r, e, "shootdown_seq_vs_conc");
    uint32_t i, j, wins = 0, pairs = 0;
    int64_t kmax = -1;
    uint64_t seq_sum = 0, conc_sum = 0, seq1 = 0, conc1 = 0;
    e->linux_default = "concurrent (since 5.13, commit 4ce94eabac16)";
    e->unit = "percent";
    if (!x)
        return;
    for (i = 0; i < x->results.count; i++)
        if (param_num(&x->results.items[i], "targets") > kmax)
            kmax = param_num(&x->results.items[i], "targets");
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *s = &x->results.items[i];
        const struct stats *ss;
        if (!param_is(s, "mode", "seq", 0) || !(ss = metric(s, "latency")))
            continue;
        for (j = 0; j < x->results.count; j++) {
            const struct result_point *c = &x->results.items[j];
            const struct stats *cs;
            if (!param_is(c, "mode", "conc", 0) ||
                param_num(c, "targets") != param_num(s, "targets") ||
                param_num(c, "pages") != param_num(s, "pages") || !(cs = metric(c, "latency")))
                continue;
            pairs++;
            wins += cs->p50 < ss->p50;
            if (param_num(s, "targets") == kmax) {
                seq_sum += ss->p50;
                conc_sum += cs->p50;
                cite(e, i);
                cite(e, j);
            } else if (param_num(s, "targets") == 1) {
                seq1 += ss->p50;
                conc1 += cs->p50;
            }
            break;
        }
    }
    if (!pairs || !seq_sum) {
        no_evidence(e, "shootdown_seq_vs_conc has no seq/conc pairs%s", NULL);
        return;
    }
    e->enough = true;
    e->has_value = true;
    e->value = ((int64_t)seq_sum - (int64_t)conc_sum) * 100 / (int64_t)seq_sum;
    /* all pairs agree: high; three quarters agree: medium; else the orders are within noise */
    e->conf = wins == pairs || wins == 0 ? CONF_HIGH
              : wins * 4 >= pairs * 3 || wins * 4 <= pairs ? CONF_MEDIUM
                                                           : CONF_LOW;
    fmt_into(e->verdict, sizeof(e->verdict),
             "concurrent saves %lld%% at %lld targets (sum of medians over page counts): %s",
             (long long)e->value, (long long)kmax, e->value > 0 ? "keep it" : "it does not pay here");
    if (seq1 && kmax != 1)
        append(e->verdict, sizeof(e->verdict), "; %u%% at 1 target",
               (uint32_t)(seq1 > conc1 ? (seq1 - conc1) * 100 / seq1 : 0),
               0);
    fmt_into(e->why, sizeof(e->why), "concurrent had the lower median in %u of %u (targets, pages)",
             wins, pairs);
}

static void rec_lazy(const struct run *r, struct recommendation *e)
{
    const struct experiment_record *x = usable(r, e, "shootdown_lazy");
    uint32_t i;
    int64_t kmax = 0;
    const struct stats *skip = NULL, *all = NULL, *catchup = NULL;
    e->linux_default = "skip lazy CPUs unless page tables were freed (should_flush_tlb())";
    e->unit = "ticks";
    if (!x)
        return;
    for (i = 0; i < x->results.count; i++)
        if (param_num(&x->results.items[i], "lazy") > kmax)
            kmax = param_num(&x->results.items[i], "lazy");
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *p = &x->results.items[i];
        if (param_num(p, "lazy") != kmax)
            continue;
        if (param_is(p, "variant", "skip_lazy", 0)) {
            skip = metric(p, "latency");
            catchup = metric(p, "catchup");
            cite(e, i);
        } else if (param_is(p, "variant", "ipi_all", 0)) {
            all = metric(p, "latency");
            cite(e, i);
        }
    }
    if (kmax == 0 || !skip || !all || !catchup) {
        no_evidence(e, "shootdown_lazy measured no lazy CPU (it needs 2 or more targets)%s",
                    NULL);
        return;
    }
    e->enough = true;
    e->has_value = true;
    e->value = (int64_t)all->p50 - (int64_t)skip->p50;
    e->conf = e->value > 0 ? two_point_conf(skip, all) : two_point_conf(all, skip);
    fmt_into(e->verdict, sizeof(e->verdict),
             "skipping %lld lazy CPUs saves %lld ticks per shootdown (median); each pays a "
             "catch-up of %llu ticks (median) when it switches back",
             (long long)kmax, (long long)e->value, (unsigned long long)catchup->p50);
    fmt_into(e->why, sizeof(e->why), "skip_lazy vs ipi_all at %lld lazy CPUs: p90 against the "
                                     "other median",
             (long long)kmax);
}

static void rec_pti(const struct run *r, struct recommendation *e)
{
    const struct experiment_record *x = usable(r, e, "pti_double_invalidation");
    uint32_t i, j;
    int64_t best = -1;
    e->linux_default = "immediate INVPCID per page where INVPCID exists, else deferred";
    e->unit = "ticks/page";
    if (!x)
        return;
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *a = &x->results.items[i];
        const struct stats *sa;
        if (!param_is(a, "variant", "invlpg_invpcid", 0) || !param_is(a, "kind", "local", 0) ||
            !(sa = metric(a, "latency")))
            continue;
        for (j = 0; j < x->results.count; j++) {
            const struct result_point *b = &x->results.items[j];
            const struct stats *sb;
            int64_t pages = param_num(a, "pages");
            if (!param_is(b, "variant", "invlpg_deferred", 0) || !param_is(b, "kind", "local", 0) ||
                param_num(b, "pages") != pages || !(sb = metric(b, "latency")) || pages <= 0)
                continue;
            if (pages > best) {
                best = pages;
                e->npoints = 0;
                cite(e, i);
                cite(e, j);
                e->value = ((int64_t)sa->p50 - (int64_t)sb->p50) / pages;
                e->conf = sa->p50 > sb->p50 ? two_point_conf(sb, sa) : two_point_conf(sa, sb);
            }
            break;
        }
    }
    if (best < 0) {
        no_evidence(e, "no INVPCID, so no immediate variant to compare with the deferred one%s",
                    NULL);
        return;
    }
    e->enough = true;
    e->has_value = true;
    /* both latencies include the return to user, where the deferred flush refills the user
     * working set (issue 20): deferring may cost more, and the sentence says which way */
    if (e->value >= 0)
        fmt_into(e->verdict, sizeof(e->verdict),
                 "immediate INVPCID costs %lld ticks per page more than deferring (at %lld "
                 "pages), the deferred flush's refill of the user working set included",
                 (long long)e->value, (long long)best);
    else
        fmt_into(e->verdict, sizeof(e->verdict),
                 "deferring costs %lld ticks per page more than immediate INVPCID (at %lld "
                 "pages): the next return to user refills the whole user working set",
                 (long long)-e->value, (long long)best);
    fmt_into(e->why, sizeof(e->why), "local medians at %lld pages, p90 against the other median",
             (long long)best);
}

static const char *run_environment(const struct run *r)
{
    if (r->sim.simulated)
        return "simulated";
    if (r->cpu.hypervisor)
        return "virtualised";
    /* an emulator CPUID does not show (Bochs): named by the harness, never guessed */
    if (r->cfg.emulator != EMULATOR_NONE)
        return "emulated";
    return "hardware";
}

void recommend_compute(const struct run *r, struct recommendations *out)
{
    static const char *const ids[RECOMMEND_MAX] = { "flush_ceiling", "invlpgb_vs_ipi",
                                                    "shootdown_order", "lazy_skip",
                                                    "pti_user_flush" };
    static void (*const fns[RECOMMEND_MAX])(const struct run *, struct recommendation *) = {
        rec_flush_ceiling, rec_invlpgb, rec_order, rec_lazy, rec_pti,
    };
    uint32_t i;
    mem_zero(out, sizeof(*out));
    out->environment = run_environment(r);
    for (i = 0; i < RECOMMEND_MAX; i++) {
        struct recommendation *e = &out->items[out->count++];
        const struct experiment_record *x;
        e->id = ids[i];
        e->environment = out->environment;
        fns[i](r, e);
        if (e->enough && e->conf == CONF_LOW) {
            /* too noisy to recommend: say so, keep what was measured in the reason */
            char why[sizeof(e->why)];
            fmt_into(why, sizeof(why), "too noisy: %s; measured: %s", e->why, e->verdict);
            fmt_into(e->why, sizeof(e->why), "%s", why);
            fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
            e->enough = false;
            e->has_value = false;
            e->cpus_from = 0;
        }
        x = e->experiment ? find(r, e->experiment) : NULL;
        if (x && x->emulated && !r->sim.simulated)
            e->environment = "emulated";
    }
}
