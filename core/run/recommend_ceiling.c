/*
 * flush_ceiling: the ceiling this machine suggests, from flush_ceiling's
 * points (core/run/recommend.h).
 *
 * The working set nearest RECOMMEND_TYPICAL_WS, contiguous form (the lower
 * bound of the refill, as Linux's 33 was measured): one crossover per
 * curve, locally (latency: flush + refill on one CPU) and for each
 * shootdown's target count on its work summed over CPUs (the initiator's
 * wait and its own refill, and every target's handler and refill: the CPU
 * time a full flush's refills cost the machine; the critical path, whose
 * parallel refills hide most of them, is only reported beside it), each
 * with p*'s paired-bootstrap interval from the samples the points kept
 * (work's on shootdown points), on the stream of the experiment's own
 * summary of that curve (the same interval), and a confidence that follows
 * from it (core/run/crossover.h: the interval's relative width, the grid's
 * coarseness included).
 *
 * The ceiling is the smallest of the curves' ceilings (the largest count
 * still cheaper page by page, or the largest measured where the full flush
 * never won), over the curves of medium or high confidence (all of them
 * when none is); its confidence the least of theirs, its interval that of
 * the curve that sets it. Where a curve's grid has no count between its
 * p_before and p* (a budget thinned it, the quick profile), its ceiling is
 * anywhere from p_before to p* - 1, and so is the recommendation: value
 * and value_high (issue 32: "ceiling 34" read as a number when the curve
 * had nothing measured between 34 and 512). A curve with fewer than 3
 * page counts (a budget left it out) has no p*: it is named "not
 * measured", with the run_budget_s its summary says would measure it. The
 * scattered, cold form's local p* is named as the other bound.
 */
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/run/recommend_internal.h"
#include "core/lib/strbuf.h"

#define MAX_CURVE 64
#define FC_MAX_CURVES 4

struct fc_curve {
    int64_t targets;          /* 0: local */
    const char *form;
    struct curve_point pts[MAX_CURVE];
    uint32_t n;
    struct crossover c;
    bool used;
};

/* Fills one curve: invlpg against full_cr3 at working set w, in `form`, and finds its p*. */
static void fc_fill(struct rec_ctx *ctx, const struct experiment_record *x, int64_t w,
                    struct fc_curve *cv)
{
    const char *name = cv->targets ? "work" : "latency";
    const char *k25 = cv->targets ? "work_p25" : "p25";
    const char *k75 = cv->targets ? "work_p75" : "p75";
    bool cold = str_eq(cv->form, "scattered_cold");
    uint32_t i, j;
    cv->n = 0;
    for (i = 0; i < x->results.count && cv->n < MAX_CURVE; i++) {
        const struct result_point *a = &x->results.items[i];
        const struct stats *sa;
        if (rec_param_num(a, "targets") != cv->targets ||
            !rec_param_is(a, "working_set", NULL, w) ||
            !rec_param_is(a, "working_set_form", cv->form, 0) ||
            !rec_param_is(a, "mode", "invlpg", 0) || !(sa = point_find_metric(a, name)))
            continue;
        for (j = 0; j < x->results.count; j++) {
            const struct result_point *b = &x->results.items[j];
            const struct stats *sb;
            bool paired;
            if (rec_param_num(b, "targets") != cv->targets ||
                !rec_param_is(b, "working_set", NULL, w) ||
                !rec_param_is(b, "working_set_form", cv->form, 0) ||
                !rec_param_is(b, "mode", "full_cr3", 0) ||
                rec_param_num(b, "pages") != rec_param_num(a, "pages") ||
                !(sb = point_find_metric(b, name)))
                continue;
            /* pairs only when both were measured in the same iterations */
            paired = points_paired(a, b);
            cv->pts[cv->n++] = (struct curve_point){
                .p = (uint32_t)rec_param_num(a, "pages"),
                .a25 = (uint64_t)rec_value(a, k25, (int64_t)sa->p50 * 1000) / 1000,
                .a50 = sa->p50,
                .a75 = (uint64_t)rec_value(a, k75, (int64_t)sa->p50 * 1000) / 1000,
                .b25 = (uint64_t)rec_value(b, k25, (int64_t)sb->p50 * 1000) / 1000,
                .b50 = sb->p50,
                .b75 = (uint64_t)rec_value(b, k75, (int64_t)sb->p50 * 1000) / 1000,
                .a_index = i,
                .b_index = j,
                .a_kept = paired ? a->kept : NULL,
                .b_kept = paired ? b->kept : NULL,
                .nkept = paired ? a->nkept : 0,
            };
            break;
        }
    }
    crossover_find(cv->pts, cv->n, ctx->boot.reps ? &ctx->boot : NULL, ctx->seed,
                   crossover_stream((uint32_t)cv->targets, (uint32_t)w, cold, 1), &cv->c);
}

/* The ceiling one curve gives: the largest count still cheaper page by page. */
static uint32_t fc_ceiling(const struct fc_curve *cv)
{
    return cv->c.found ? cv->c.p_before : cv->pts[cv->n - 1].p;
}

/* The most it can be on this grid: one below p* (none found: no bound). */
static uint32_t fc_ceiling_high(const struct fc_curve *cv)
{
    if (MUTANT(rec_ceiling_point)) /* test-only: the grid's gap read as no uncertainty */
        return fc_ceiling(cv);
    return cv->c.found && cv->c.p_star ? cv->c.p_star - 1 : UINT32_MAX;
}

/* One curve in the verdict's list; `iv`: its interval's text, for the curve that decides. */
static void fc_describe(struct strbuf *sb, const struct fc_curve *cv, const char *iv,
                        uint32_t needs_s)
{
    if (cv->targets)
        sb_printf(sb, "%lld target%s", (long long)cv->targets, cv->targets == 1 ? "" : "s");
    else
        sb_puts(sb, "local");
    if (cv->n < 3) {
        sb_puts(sb, " not measured");
        if (needs_s)
            sb_printf(sb, " (needs run_budget_s=%u%s)", needs_s,
                      needs_s <= RUN_BUDGET_FULL_S ? " or profile=full" : "");
        return;
    }
    if (cv->c.found)
        sb_printf(sb, " p* = %u", cv->c.p_star);
    else
        sb_printf(sb, " no p* up to %u", cv->pts[cv->n - 1].p);
    sb_puts(sb, iv);
    if (!cv->used)
        sb_puts(sb, " (noisy, not used)");
}

/* The working set nearest the typical one, and the target counts measured (ascending). */
static int64_t fc_shape(const struct experiment_record *x, int64_t *targets, uint32_t *ntargets)
{
    int64_t best_w = -1;
    uint32_t i, j;
    *ntargets = 0;
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *p = &x->results.items[i];
        int64_t w = rec_param_num(p, "working_set"), k = rec_param_num(p, "targets");
        int64_t dw = w > RECOMMEND_TYPICAL_WS ? w - RECOMMEND_TYPICAL_WS : RECOMMEND_TYPICAL_WS - w;
        int64_t db = best_w > RECOMMEND_TYPICAL_WS ? best_w - RECOMMEND_TYPICAL_WS
                                                   : RECOMMEND_TYPICAL_WS - best_w;
        if (w >= 0 && (best_w < 0 || dw < db))
            best_w = w;
        for (j = 0; j < *ntargets && targets[j] != k; j++)
            ;
        if (k >= 0 && j == *ntargets && *ntargets < FC_MAX_CURVES)
            targets[(*ntargets)++] = k;
    }
    /* the summaries name every curve, measured or not (a budget may leave one out) */
    for (i = 0; i < x->summary.count; i++) {
        int64_t k = rec_param_num(&x->summary.items[i], "targets");
        for (j = 0; j < *ntargets && targets[j] != k; j++)
            ;
        if (k >= 0 && j == *ntargets && *ntargets < FC_MAX_CURVES)
            targets[(*ntargets)++] = k;
    }
    for (i = 0; i < *ntargets; i++) /* ascending: local first */
        for (j = i + 1; j < *ntargets; j++)
            if (targets[j] < targets[i]) {
                int64_t t = targets[i];
                targets[i] = targets[j];
                targets[j] = t;
            }
    return best_w;
}

/* What a summary says would measure the curves a budget left out (0: nothing left out). */
static uint32_t fc_needs(const struct experiment_record *x)
{
    uint32_t i;
    for (i = 0; i < x->summary.count; i++) {
        int64_t v = rec_value(&x->summary.items[i], "needs_run_budget_s", -1);
        if (v > 0)
            return (uint32_t)(v / 1000);
    }
    return 0;
}

/* The verdict, once the value and its range are known. */
static void fc_verdict(struct recommendation *e, const struct crossover *dc, int64_t best_w,
                       const char *list)
{
    uint32_t value = (uint32_t)e->value;
    if (!dc->found)
        fmt_into(e->verdict, sizeof(e->verdict),
                 "page by page up to at least %u pages: INVLPG then the refills stayed cheaper "
                 "than a full flush at every count measured (working set %lld pages, "
                 "contiguous): %s",
                 value, (long long)best_w, list);
    else if (e->has_value_high)
        fmt_into(e->verdict, sizeof(e->verdict),
                 "ceiling %u to %lld: INVLPG then the refills cheaper up to %u page%s on every "
                 "curve, a full flush from %lld on one, and no count measured between "
                 "(working set %lld pages, contiguous): %s",
                 value, (long long)e->value_high, value, value == 1 ? "" : "s",
                 (long long)e->value_high + 1,
                 (long long)best_w, list);
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
}

void rec_flush_ceiling(struct rec_ctx *ctx, struct recommendation *e)
{
    const struct experiment_record *x = rec_usable(ctx->r, e, "flush_ceiling");
    static struct fc_curve cv[FC_MAX_CURVES + 1]; /* the contiguous curves, then the cold one */
    uint32_t i, j, n = 0, nused = 0, value = UINT32_MAX, high = UINT32_MAX, decider = 0, needs;
    int64_t best_w, targets[FC_MAX_CURVES];
    uint32_t ntargets;
    char list[300], iv[96] = "";
    struct strbuf sb;
    enum confidence conf = CONF_HIGH;
    const struct crossover *dc;
    e->linux_default = "33 (tlb_single_page_flush_ceiling: page by page up to 33 pages)";
    e->unit = "pages";
    if (!x)
        return;
    best_w = fc_shape(x, targets, &ntargets);
    needs = fc_needs(x);
    for (i = 0; i < ntargets; i++) {
        cv[n].targets = targets[i];
        cv[n].form = "contiguous";
        cv[n].used = false;
        fc_fill(ctx, x, best_w, &cv[n]);
        n++;
    }
    cv[n].targets = 0;
    cv[n].form = "scattered_cold";
    fc_fill(ctx, x, best_w, &cv[n]);
    for (i = 0; i <= n; i++)
        for (j = 0; j < cv[i].n; j++) {
            rec_cite(e, cv[i].pts[j].a_index);
            rec_cite(e, cv[i].pts[j].b_index);
        }
    if (MUTANT(evidence_nowhere))
        rec_cite(e, x->results.count); /* test-only: one past the last point */
    /* the curves the value rests on: 3 counts or more, of medium or high confidence, else
     * every such one of any confidence */
    for (i = 0; i < n; i++)
        nused += cv[i].used = cv[i].n >= 3 && cv[i].c.conf >= CONF_MEDIUM;
    for (i = 0; i < n && !nused; i++)
        nused += cv[i].used = cv[i].n >= 3 && cv[i].c.conf > CONF_NONE;
    for (i = 0; i < n; i++) {
        if (!cv[i].used)
            continue;
        conf = rec_min_conf(conf, cv[i].c.conf);
        if (fc_ceiling(&cv[i]) < value) {
            value = fc_ceiling(&cv[i]);
            decider = i;
        }
        if (fc_ceiling_high(&cv[i]) < high)
            high = fc_ceiling_high(&cv[i]);
    }
    dc = &cv[decider].c;
    if (nused && dc->has_interval) {
        e->interval = (struct rec_interval){ true, "p_star", "pages", 0, dc->p_low * 1000,
                                             dc->p_high * 1000, dc->p_low == BOOT_NONE,
                                             dc->p_high == BOOT_NONE, dc->pairs };
        rec_interval_text(&e->interval, cv[decider].pts[cv[decider].n - 1].p, iv, sizeof(iv));
    }
    sb_init_fixed(&sb, list, sizeof(list));
    for (i = 0; i < n; i++) {
        if (i)
            sb_puts(&sb, "; ");
        fc_describe(&sb, &cv[i], nused && i == decider ? iv : "", needs);
    }
    if (cv[n].n >= 3 && cv[n].c.found)
        sb_printf(&sb, "; scattered frames, cold page tables: local p* = %u", cv[n].c.p_star);
    if (nused && dc->has_interval)
        fmt_into(e->why, sizeof(e->why), "%s (%u page counts, %u paired iterations each, "
                 "working set %lld pages, %u curve%s: local, and shootdowns by their work "
                 "summed over CPUs, the initiator's and every target's flush and refill)",
                 dc->why, cv[decider].n, dc->pairs, (long long)best_w, nused,
                 nused == 1 ? "" : "s");
    else
        fmt_into(e->why, sizeof(e->why), "%s (%u page counts, working set %lld pages, %u "
                 "curve%s with 3 page counts or more: local, and shootdowns by their work "
                 "summed over CPUs)",
                 nused ? dc->why : "no curve with 3 page counts measured",
                 nused ? cv[decider].n : 0, (long long)best_w, nused, nused == 1 ? "" : "s");
    if (!nused) {
        e->conf = CONF_NONE;
        e->enough = false;
        fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
        if (needs)
            rec_append(e->why, sizeof(e->why), "; needs run_budget_s=%u%s", needs,
                       needs <= RUN_BUDGET_FULL_S ? " or profile=full" : "");
        return;
    }
    e->conf = conf;
    e->enough = true;
    e->has_value = true;
    e->value = value;
    e->has_value_high = dc->found && high != UINT32_MAX && high > value;
    e->value_high = e->has_value_high ? high : value;
    fc_verdict(e, dc, best_w, list);
}
