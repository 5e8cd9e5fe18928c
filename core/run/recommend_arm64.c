/*
 * What an aarch64 run suggests (core/run/recommendation.h), read from its
 * records as x86's are from theirs (core/run/recommend.c), so the report
 * writes both lists with one writer:
 *
 *   flush_ceiling  from flush_ceiling's summary: p*, the page count from
 *                  which one full flush (ASIDE1IS, or ALLE2IS at EL2) with
 *                  the initiator's refill beats the single-page path Linux
 *                  takes on this CPU (VAE1IS per page, RVAE1IS ranges with
 *                  FEAT_TLBIRANGE), its 95% paired-bootstrap interval and
 *                  the confidence from its width, against Linux's switch
 *                  to flush_tlb_mm (MAX_DVM_OPS, 512 pages, without range
 *                  TLBI; above MAX_TLBI_RANGE_PAGES with it). Low
 *                  confidence, a failed verification or no crossing within
 *                  the region: "not enough evidence", and why.
 *
 * The values are the summary's, so anyone can recompute them from the
 * report's points. A run under an emulator or on the model is labelled so.
 */
#include "core/run/run_arm64.h"

#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

static const struct experiment_record *find(const struct arm64_run *run, const char *id)
{
    uint32_t i;
    for (i = 0; i < run->nexp; i++)
        if (run->exps[i].ran && str_eq(run->exps[i].id, id))
            return &run->exps[i];
    return 0;
}

/* a summary value in its unit (the record holds it x 1000); false when absent */
static bool value_of(const struct result_point *p, const char *key, int64_t *out)
{
    int64_t milli;
    if (!point_find_value(p, key, &milli))
        return false;
    *out = milli / 1000;
    return true;
}

static enum confidence confidence_of(const struct result_point *p)
{
    const struct point_param *c = point_find_param(p, "confidence");
    static const char *const names[] = { "none", "low", "medium", "high" };
    uint32_t i;
    for (i = 0; c && c->str && i < 4; i++)
        if (str_eq(c->str, names[i]))
            return (enum confidence)i;
    return CONF_NONE;
}

/* the fewest samples a point of e took: the pairs its intervals rest on */
static uint32_t fewest_samples(const struct experiment_record *e)
{
    uint32_t i, n = 0;
    for (i = 0; i < e->results.count; i++) {
        const struct stats *st = point_find_metric(&e->results.items[i], "with_refill");
        if (st && (!n || st->n < n))
            n = (uint32_t)st->n;
    }
    return n;
}

static void flush_ceiling(const struct arm64_run *run, struct recommendation *r)
{
    const struct experiment_record *e = find(run, "flush_ceiling");
    const struct result_point *s = e && e->summary.count ? &e->summary.items[0] : 0;
    const struct point_param *single = s ? point_find_param(s, "mode") : 0;
    const struct point_param *full = s ? point_find_param(s, "full") : 0;
    const struct point_param *ws = s ? point_find_param(s, "working_set") : 0;
    int64_t p_star = 0, low = 0, high = 0, linux_ceiling = 512, pages = ws ? ws->num : 0;
    bool found = s && value_of(s, "p_star", &p_star);
    bool range = single && single->str && str_eq(single->str, "range");
    char high_text[24];
    uint32_t i;
    r->id = "flush_ceiling";
    r->unit = "pages";
    r->experiment = "flush_ceiling";
    if (s)
        value_of(s, "linux_ceiling", &linux_ceiling);
    r->linux_default = range ? "2097153 (__flush_tlb_range: range TLBIs up to MAX_TLBI_RANGE_PAGES, "
                               "flush_tlb_mm above)"
                             : "512 (__flush_tlb_range: TLBI per page below MAX_DVM_OPS, flush_tlb_mm "
                               "from 512 pages)";
    if (!s || e->status != RESULT_SUCCESS) {
        fmt_into(r->why, sizeof(r->why), "%s", e->status != RESULT_SUCCESS
                                                   ? "flush_ceiling did not succeed (see its reason)"
                                                   : "flush_ceiling has no summary (fewer than 3 page counts)");
        fmt_into(r->verdict, sizeof(r->verdict), "no ceiling: %s", r->why);
        return;
    }
    for (i = 0; i < e->results.count && r->npoints < RECOMMEND_MAX_POINTS; i++)
        r->points[r->npoints++] = i;
    r->conf = confidence_of(s);
    if (!found) {
        fmt_into(r->why, sizeof(r->why), "the full flush was never cheaper up to the %lld pages of the test "
                 "region, the refill counted", (long long)pages);
        fmt_into(r->verdict, sizeof(r->verdict), "page by page (%s) up to %lld pages at least: one full flush "
                 "(%s) never cheaper here", single && single->str ? single->str : "?", (long long)pages,
                 full && full->str ? full->str : "?");
        return;
    }
    r->has_value = true;
    r->value = p_star;
    /* a missing high end is "no crossing" past the last count measured, as on x86: none */
    r->interval.valid = value_of(s, "p_star_low", &low);
    r->interval.high_none = !value_of(s, "p_star_high", &high);
    r->interval.of = "p_star";
    r->interval.unit = "pages";
    r->interval.low = low * 1000;
    r->interval.high = high * 1000;
    r->interval.pairs = fewest_samples(e);
    r->enough = r->conf >= CONF_MEDIUM && r->interval.valid && r->interval.pairs;
    fmt_into(high_text, sizeof(high_text), r->interval.high_none ? "none measured" : "%lld", (long long)high);
    fmt_into(r->verdict, sizeof(r->verdict), "ceiling %lld: one full flush (%s) with the initiator's refill "
             "cheaper than %s from %lld pages on (95%% interval %lld to %s pages); Linux switches at %lld",
             (long long)p_star, full && full->str ? full->str : "?", single && single->str ? single->str : "?",
             (long long)p_star, (long long)low, high_text, (long long)linux_ceiling);
    if (r->enough)
        fmt_into(r->why, sizeof(r->why), "p*'s paired-bootstrap 95%% interval, %lld to %s pages, over %u "
                 "paired iterations at least", (long long)low, high_text, r->interval.pairs);
    else if (r->interval.valid)
        fmt_into(r->why, sizeof(r->why), "p*'s interval (%lld to %s pages) too wide for a confident ceiling "
                 "(confidence %s)", (long long)low, high_text, confidence_name(r->conf));
    else
        fmt_into(r->why, sizeof(r->why), "p* has no interval (too few samples or page counts)");
}

void a64_recommend(const struct arm64_run *run, struct recommendations *out)
{
    mem_zero(out, sizeof(*out));
    out->environment = run->sim ? "simulated" : run->hypervisor ? "virtualised" : "hardware";
    if (find(run, "flush_ceiling")) { /* an entry cites only experiments the report has */
        flush_ceiling(run, &out->items[out->count]);
        out->items[out->count].environment = out->environment;
        out->count++;
    }
}
