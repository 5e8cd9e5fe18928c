/*
 * shootdown_order: what the concurrent order saves, from
 * shootdown_seq_vs_conc (core/run/recommend.h).
 *
 * A seq point and a conc point pair up when every other parameter matches:
 * targets, pages and flush (above the ceiling cr3_reload and
 * invpcid_single_context are separate points; a seq point of one compared
 * with the conc point of the other measures the flush, not the order).
 * The value: at the most targets, 100 (S - C) / S, S and C the sums of the
 * seq and conc medians over the (pages, flush) points measured there. Its
 * 95% interval: the paired bootstrap of the same statistic, each point
 * pair's iterations resampled (seq and conc of an iteration are a pair,
 * core/exp/shootdown_seq_conc.c). An interval that contains zero is "no
 * difference"; the confidence follows from the interval (core/run/bootstrap.h),
 * with orders within 5% of S counting as the same. The same at one target
 * goes into the verdict, and so does, at the most targets, the saving at
 * each page count by its own medians, 1 page first (parts, each with its
 * paired-bootstrap interval): the sum is mostly the 512-page points' cost,
 * and the order that pays at 512 pages need not at one (issue 32).
 */
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/run/recommend_internal.h"
#include "core/lib/strbuf.h"

#define ORDER_EQUIVALENT_MILLIPCT 5000 /* 5%: the two orders are the same to within it */

struct order_sum {
    struct paired cols[BOOT_MAX_COLUMNS];
    const struct result_point *seq_pt[BOOT_MAX_COLUMNS];
    uint64_t seq_p50[BOOT_MAX_COLUMNS], conc_p50[BOOT_MAX_COLUMNS];
    uint32_t ncols;
    uint64_t seq, conc; /* sums of medians */
    bool unpaired;      /* a pair without kept samples of one run */
};

static bool pair_of(const struct result_point *s, const struct result_point *c)
{
    if (MUTANT(order_ignores_flush)) /* test-only: targets and pages, whatever the flush */
        return rec_param_num(c, "targets") == rec_param_num(s, "targets") &&
               rec_param_num(c, "pages") == rec_param_num(s, "pages");
    return rec_same_params_except(s, c, "mode");
}

static void add_pair(struct order_sum *o, const struct result_point *s, const struct stats *ss,
                     const struct result_point *c, const struct stats *cs)
{
    o->seq += ss->p50;
    o->conc += cs->p50;
    if (!points_paired(s, c) || o->ncols >= BOOT_MAX_COLUMNS) {
        o->unpaired = true;
        return;
    }
    o->seq_pt[o->ncols] = s;
    o->seq_p50[o->ncols] = ss->p50;
    o->conc_p50[o->ncols] = cs->p50;
    o->cols[o->ncols++] = (struct paired){ s->kept, c->kept, s->nkept };
}

/*
 * The saving at each (pages, flush) column of `o`, by page count (1 page
 * first; above the ceiling Linux's CR3 write before the INVPCID variant),
 * each with its paired-bootstrap interval; and, in `text`, "1: 12.3%,
 * 2: 10.1%, ..., 512: 3.0%, 512 invpcid: 2.9%".
 */
static void order_parts(struct rec_ctx *c, const struct order_sum *o, struct recommendation *e,
                        char *text, size_t cap)
{
    uint32_t i, j, idx[BOOT_MAX_COLUMNS];
    struct strbuf sb;
    sb_init_fixed(&sb, text, cap);
    for (i = 0; i < o->ncols; i++)
        idx[i] = i;
    for (i = 1; i < o->ncols; i++) /* by pages, then flush as measured (cr3_reload first) */
        for (j = i; j > 0 && rec_param_num(o->seq_pt[idx[j - 1]], "pages") >
                                  rec_param_num(o->seq_pt[idx[j]], "pages");
             j--) {
            uint32_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    e->nparts = 0;
    for (i = 0; i < o->ncols && e->nparts < RECOMMEND_MAX_PARTS; i++) {
        uint32_t k = idx[i];
        const struct point_param *fl = point_find_param(o->seq_pt[k], "flush");
        struct rec_part *pt = &e->parts[e->nparts++];
        struct boot_result br;
        pt->pages = rec_param_num(o->seq_pt[k], "pages");
        pt->flush = fl && fl->str ? fl->str : "invlpg";
        pt->saving_millipct = o->seq_p50[k] ? ((int64_t)o->seq_p50[k] - (int64_t)o->conc_p50[k]) *
                                                  100000 / (int64_t)o->seq_p50[k]
                                            : 0;
        pt->has_interval = c->boot.reps &&
                           boot_columns(&c->boot, &o->cols[k], 1, boot_stat_saving_millipct, NULL,
                                        c->seed, REC_STREAM_ORDER_PART + k, &br);
        pt->low = pt->has_interval ? br.low : 0;
        pt->high = pt->has_interval ? br.high : 0;
        sb_printf(&sb, "%s%lld%s: ", i ? ", " : "", (long long)pt->pages,
                  str_eq(pt->flush, "invlpg") || str_eq(pt->flush, "cr3_reload") ? ""
                                                                               : " invpcid");
        sb_fixed(&sb, pt->saving_millipct / 100, 1);
        sb_putc(&sb, '%');
    }
}

/* The saving's interval (milli-percent); false when it cannot be had. */
static bool saving_interval(struct rec_ctx *ctx, const struct order_sum *o, uint64_t stream,
                            struct boot_result *br)
{
    if (o->unpaired || !o->ncols || !ctx->boot.reps)
        return false;
    return boot_columns(&ctx->boot, o->cols, o->ncols, boot_stat_saving_millipct, NULL, ctx->seed,
                        stream, br);
}

/* "12.3%": what concurrent saves by the sums of medians, one decimal (negative: it costs) */
static void saving_text(const struct order_sum *o, char *buf, size_t cap)
{
    int64_t m = ((int64_t)o->seq - (int64_t)o->conc) * 1000 / (int64_t)o->seq; /* 1/10 % */
    struct strbuf sb;
    sb_init_fixed(&sb, buf, cap);
    sb_fixed(&sb, m, 1);
    sb_putc(&sb, '%');
}

static void to_interval(const struct boot_result *br, struct rec_interval *iv)
{
    *iv = (struct rec_interval){ true, "saving", "percent", 1, br->low, br->high, false, false,
                                 br->pairs };
}

void rec_order(struct rec_ctx *c, struct recommendation *e)
{
    const struct experiment_record *x = rec_usable(c->r, e, "shootdown_seq_vs_conc");
    static struct order_sum most, one;
    struct boot_result br, br1;
    uint32_t i, j, wins = 0, pairs = 0;
    int64_t kmax = -1;
    char iv[96], pct[32], parts[200];
    e->linux_default = "concurrent (since 5.13, commit 4ce94eabac16)";
    e->unit = "percent";
    if (!x)
        return;
    mem_zero(&most, sizeof(most));
    mem_zero(&one, sizeof(one));
    for (i = 0; i < x->results.count; i++)
        if (rec_param_num(&x->results.items[i], "targets") > kmax)
            kmax = rec_param_num(&x->results.items[i], "targets");
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *s = &x->results.items[i];
        const struct stats *ss;
        /* the grid's points alone: placement and cluster-mode points (issue 21) are one page
         * at other targets or with other IPIs (counted once more, 1 page stood twice) */
        if (!rec_param_is(s, "mode", "seq", 0) || point_find_param(s, "placement") ||
            point_find_param(s, "ipi_mode") || !(ss = point_find_metric(s, "latency")))
            continue;
        for (j = 0; j < x->results.count; j++) {
            const struct result_point *cp = &x->results.items[j];
            const struct stats *cs;
            if (!rec_param_is(cp, "mode", "conc", 0) || !pair_of(s, cp) ||
                !(cs = point_find_metric(cp, "latency")))
                continue;
            pairs++;
            wins += cs->p50 < ss->p50;
            if (rec_param_num(s, "targets") == kmax) {
                add_pair(&most, s, ss, cp, cs);
                rec_cite(e, i);
                rec_cite(e, j);
            } else if (rec_param_num(s, "targets") == 1) {
                add_pair(&one, s, ss, cp, cs);
            }
            break;
        }
    }
    if (!pairs || !most.seq) {
        rec_no_evidence(e, "shootdown_seq_vs_conc has no seq/conc pairs%s", NULL);
        return;
    }
    e->enough = true;
    e->has_value = true;
    e->value = ((int64_t)most.seq - (int64_t)most.conc) * 100 / (int64_t)most.seq;
    if (!saving_interval(c, &most, REC_STREAM_ORDER, &br)) {
        e->conf = CONF_NONE;
        e->enough = false;
        fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
        fmt_into(e->why, sizeof(e->why), "no per-iteration pairs of seq and conc samples, so no "
                 "interval for the saving (concurrent saves %lld%% at %lld targets by the "
                 "medians)", (long long)e->value, (long long)kmax);
        return;
    }
    to_interval(&br, &e->interval);
    e->conf = boot_difference_confidence(&br, ORDER_EQUIVALENT_MILLIPCT);
    rec_interval_text(&e->interval, 0, iv, sizeof(iv));
    saving_text(&most, pct, sizeof(pct));
    if (boot_no_difference(&br))
        fmt_into(e->verdict, sizeof(e->verdict),
                 "no difference between the orders at %lld targets: concurrent saves %s%s, an "
                 "interval that contains zero", (long long)kmax, pct, iv);
    else if (br.low > 0)
        fmt_into(e->verdict, sizeof(e->verdict), "concurrent saves %s%s at %lld targets: keep "
                 "it%s", pct, iv, (long long)kmax,
                 br.high < ORDER_EQUIVALENT_MILLIPCT ? ", though by less than 5%" : "");
    else
        fmt_into(e->verdict, sizeof(e->verdict), "concurrent costs %s more%s at %lld targets: "
                 "it does not pay here", pct + (pct[0] == '-'), iv, (long long)kmax);
    if (kmax != 1 && one.seq && saving_interval(c, &one, REC_STREAM_ORDER_ONE, &br1)) {
        struct rec_interval iv1;
        to_interval(&br1, &iv1);
        rec_interval_text(&iv1, 0, iv, sizeof(iv));
        saving_text(&one, pct, sizeof(pct));
        rec_append(e->verdict, sizeof(e->verdict), "; at 1 target %s %s%s",
                   boot_no_difference(&br1) ? "no difference, saves" : "saves", pct, iv);
    }
    order_parts(c, &most, e, parts, sizeof(parts));
    if (e->nparts)
        rec_append(e->verdict, sizeof(e->verdict), "; by page count at %lld targets: %s",
                   (long long)kmax, parts);
    fmt_into(e->why, sizeof(e->why),
             "sums of medians over %u (pages, flush) points at %lld targets, %u paired "
             "iterations each; concurrent had the lower median in %u of %u (targets, pages, "
             "flush)", most.ncols, (long long)kmax, br.pairs, wins, pairs);
}
