#include "core/run/recommend.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/run/recommend_internal.h"
#include "core/lib/strbuf.h"

const struct experiment_record *rec_find(const struct run *r, const char *id)
{
    uint32_t i;
    for (i = 0; i < r->experiment_count; i++)
        if (r->experiments[i].ran && str_eq(r->experiments[i].id, id))
            return &r->experiments[i];
    return NULL;
}

bool rec_param_is(const struct result_point *p, const char *key, const char *str, int64_t num)
{
    const struct point_param *pp = point_find_param(p, key);
    if (!pp)
        return false;
    return str ? pp->str && str_eq(pp->str, str) : !pp->str && pp->num == num;
}

int64_t rec_param_num(const struct result_point *p, const char *key)
{
    const struct point_param *pp = point_find_param(p, key);
    return pp && !pp->str ? pp->num : -1;
}

bool rec_same_params_except(const struct result_point *a, const struct result_point *b,
                            const char *except)
{
    uint8_t i;
    if (a->nparams != b->nparams)
        return false;
    for (i = 0; i < a->nparams; i++) {
        const struct point_param *pa = &a->params[i], *pb;
        if (str_eq(pa->key, except))
            continue;
        pb = point_find_param(b, pa->key);
        if (!pb || (pa->str ? !pb->str || !str_eq(pa->str, pb->str)
                            : pb->str || pa->num != pb->num))
            return false;
    }
    return true;
}

int64_t rec_value(const struct result_point *p, const char *key, int64_t dflt)
{
    int64_t milli;
    return point_find_value(p, key, &milli) ? milli : dflt;
}

void rec_cite(struct recommendation *e, uint32_t index)
{
    if (e->npoints < RECOMMEND_MAX_POINTS)
        e->points[e->npoints++] = index;
}

/* An entry without evidence: why, in one line. */
void rec_no_evidence(struct recommendation *e, const char *fmt, const char *arg)
{
    e->enough = false;
    e->conf = CONF_NONE;
    fmt_into(e->why, sizeof(e->why), fmt, arg ? arg : "");
    fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
}

const struct experiment_record *rec_usable(const struct run *r, struct recommendation *e,
                                           const char *id)
{
    const struct experiment_record *x = rec_find(r, id);
    e->experiment = x ? id : NULL; /* evidence names only experiments the report holds */
    if (!x) {
        rec_no_evidence(e, "%s was not run", id);
        return NULL;
    }
    if (x->status == RESULT_SKIP) {
        fmt_into(e->why, sizeof(e->why), "%s was skipped: %s", id, x->reason);
        e->enough = false;
        fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
        return NULL;
    }
    if (x->status == RESULT_FAILURE || x->verification.stale_reads) {
        rec_no_evidence(e, "%s failed its verification: its timings do not describe a correct "
                           "flush", id);
        return NULL;
    }
    if (!x->results.count) {
        rec_no_evidence(e, "%s recorded no points", id);
        return NULL;
    }
    return x;
}

void rec_append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = str_nlen(buf, cap);
    struct strbuf sb;
    va_list ap;
    if (len + 1 >= cap)
        return;
    sb_init_fixed(&sb, buf + len, cap - len);
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
}

/* A bound (x 1000) with `decimals`, rounded half away from zero. */
static void bound_text(struct strbuf *sb, int64_t v, unsigned decimals)
{
    int64_t div = decimals >= 3 ? 1 : decimals == 2 ? 10 : decimals == 1 ? 100 : 1000;
    int64_t q = v < 0 ? -((-v + div / 2) / div) : (v + div / 2) / div;
    sb_fixed(sb, q, decimals);
}

void rec_interval_text(const struct rec_interval *iv, int64_t above, char *buf, size_t cap)
{
    struct strbuf sb;
    bool pct = str_eq(iv->unit, "percent");
    sb_init_fixed(&sb, buf, cap);
    if (!iv->valid)
        return;
    sb_printf(&sb, " (%u%% interval ", BOOT_LEVEL_PERCENT);
    if (iv->low_none)
        sb_printf(&sb, "above %lld", (long long)above);
    else
        bound_text(&sb, iv->low, iv->decimals);
    sb_puts(&sb, pct ? "% to " : " to ");
    if (iv->high_none)
        sb_printf(&sb, "above %lld", (long long)above);
    else
        bound_text(&sb, iv->high, iv->decimals);
    sb_printf(&sb, "%s%s)", pct ? "%" : " ",
              pct ? "" : str_eq(iv->unit, "cpus") ? "CPUs" : iv->unit);
}

enum confidence rec_min_conf(enum confidence a, enum confidence b) { return a < b ? a : b; }

bool rec_pair_difference(struct rec_ctx *c, const struct result_point *a,
                         const struct result_point *b, uint64_t stream, struct boot_result *br)
{
    struct paired col;
    if (!points_paired(a, b) || !c->boot.reps)
        return false;
    col = (struct paired){ a->kept, b->kept, a->nkept };
    return boot_columns(&c->boot, &col, 1, boot_stat_sum_diff, NULL, c->seed, stream, br);
}

/* An interval in ticks (divided by `per`, e.g. pages), of `of`. */
static void ticks_interval(struct rec_interval *iv, const struct boot_result *br, int64_t per,
                           const char *of, const char *unit)
{
    *iv = (struct rec_interval){ true, of, unit, 0, br->low * 1000 / per, br->high * 1000 / per,
                                 false, false, br->pairs };
}

/*
 * lazy_skip: skip_lazy against ipi_all at the most lazy CPUs, measured in
 * the same iterations (core/exp/shootdown_lazy.c): the saving is ipi_all's
 * median minus skip_lazy's, with its paired-bootstrap interval; "no
 * difference" when that contains zero (the same within 5% of ipi_all's
 * median: medium, else too noisy).
 */
static void rec_lazy(struct rec_ctx *ctx, struct recommendation *e)
{
    const struct experiment_record *x = rec_usable(ctx->r, e, "shootdown_lazy");
    const struct result_point *ps = NULL, *pa = NULL;
    struct boot_result br;
    uint32_t i;
    int64_t kmax = 0;
    const struct stats *skip = NULL, *all = NULL, *catchup = NULL;
    char iv[96];
    e->linux_default = "skip lazy CPUs unless page tables were freed (should_flush_tlb())";
    e->unit = "ticks";
    if (!x)
        return;
    for (i = 0; i < x->results.count; i++)
        if (rec_param_num(&x->results.items[i], "lazy") > kmax)
            kmax = rec_param_num(&x->results.items[i], "lazy");
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *p = &x->results.items[i];
        if (rec_param_num(p, "lazy") != kmax)
            continue;
        if (rec_param_is(p, "variant", "skip_lazy", 0)) {
            ps = p;
            skip = point_find_metric(p, "latency");
            catchup = point_find_metric(p, "catchup");
            rec_cite(e, i);
        } else if (rec_param_is(p, "variant", "ipi_all", 0)) {
            pa = p;
            all = point_find_metric(p, "latency");
            rec_cite(e, i);
        }
    }
    if (kmax == 0 || !skip || !all || !catchup) {
        rec_no_evidence(e, "shootdown_lazy measured no lazy CPU (it needs 2 or more targets)%s",
                        NULL);
        return;
    }
    e->value = (int64_t)all->p50 - (int64_t)skip->p50;
    if (!rec_pair_difference(ctx, ps, pa, REC_STREAM_LAZY, &br)) {
        rec_no_evidence(e, "no per-iteration pairs of skip_lazy and ipi_all samples, so no "
                           "interval%s", NULL);
        return;
    }
    e->enough = true;
    e->has_value = true;
    ticks_interval(&e->interval, &br, 1, "saving", "ticks");
    e->conf = boot_difference_confidence(&br, (int64_t)all->p50 / 20);
    rec_interval_text(&e->interval, 0, iv, sizeof(iv));
    fmt_into(e->verdict, sizeof(e->verdict),
             "%sskipping %lld lazy CPUs saves %lld ticks per shootdown, by the medians%s; each "
             "pays a catch-up of %llu ticks (median) when it switches back",
             boot_no_difference(&br) ? "no difference: " : "", (long long)kmax,
             (long long)e->value, iv, (unsigned long long)catchup->p50);
    fmt_into(e->why, sizeof(e->why), "skip_lazy vs ipi_all at %lld lazy CPUs, %u paired "
             "iterations: the interval of the difference of medians", (long long)kmax, br.pairs);
}

/*
 * pti_user_flush: invlpg_invpcid against invlpg_deferred, local, at the
 * most pages, measured in the same iterations (core/exp/pti.c): the cost
 * per page of flushing the user PCID at once, with its paired-bootstrap
 * interval (the same within 5% of the deferred median: medium).
 */
static void rec_pti(struct rec_ctx *ctx, struct recommendation *e)
{
    const struct experiment_record *x = rec_usable(ctx->r, e, "pti_double_invalidation");
    const struct result_point *pi = NULL, *pd = NULL;
    const struct stats *si = NULL, *sd = NULL;
    struct rec_interval shown;
    struct boot_result br;
    uint32_t i, j;
    int64_t best = -1;
    char iv[96];
    e->linux_default = "immediate INVPCID per page where INVPCID exists, else deferred";
    e->unit = "ticks/page";
    if (!x)
        return;
    for (i = 0; i < x->results.count; i++) {
        const struct result_point *a = &x->results.items[i];
        const struct stats *sa;
        if (!rec_param_is(a, "variant", "invlpg_invpcid", 0) ||
            !rec_param_is(a, "kind", "local", 0) || !(sa = point_find_metric(a, "latency")))
            continue;
        for (j = 0; j < x->results.count; j++) {
            const struct result_point *b = &x->results.items[j];
            const struct stats *sb;
            int64_t pages = rec_param_num(a, "pages");
            if (!rec_param_is(b, "variant", "invlpg_deferred", 0) ||
                !rec_param_is(b, "kind", "local", 0) || rec_param_num(b, "pages") != pages ||
                !(sb = point_find_metric(b, "latency")) || pages <= 0)
                continue;
            if (pages > best) {
                best = pages;
                e->npoints = 0;
                rec_cite(e, i);
                rec_cite(e, j);
                pi = a;
                pd = b;
                si = sa;
                sd = sb;
            }
            break;
        }
    }
    if (best < 0) {
        rec_no_evidence(e, "no INVPCID, so no immediate variant to compare with the deferred "
                           "one%s", NULL);
        return;
    }
    e->value = ((int64_t)si->p50 - (int64_t)sd->p50) / best;
    if (!rec_pair_difference(ctx, pd, pi, REC_STREAM_PTI, &br)) {
        rec_no_evidence(e, "no per-iteration pairs of the immediate and deferred samples, so no "
                           "interval%s", NULL);
        return;
    }
    e->enough = true;
    e->has_value = true;
    ticks_interval(&e->interval, &br, best, "difference", "ticks/page");
    e->conf = boot_difference_confidence(&br, (int64_t)sd->p50 / 20);
    /* both latencies include the return to user, where the deferred flush refills the user
     * working set (issue 20): deferring may cost more, and the sentence says which way, its
     * interval turned with it */
    shown = e->interval;
    if (e->value < 0) {
        shown.low = -e->interval.high;
        shown.high = -e->interval.low;
    }
    rec_interval_text(&shown, 0, iv, sizeof(iv));
    if (e->value >= 0)
        fmt_into(e->verdict, sizeof(e->verdict),
                 "%simmediate INVPCID costs %lld ticks per page more than deferring at %lld "
                 "pages%s, the deferred flush's refill of the user working set included",
                 boot_no_difference(&br) ? "no difference: " : "", (long long)e->value,
                 (long long)best, iv);
    else
        fmt_into(e->verdict, sizeof(e->verdict),
                 "%sdeferring costs %lld ticks per page more than immediate INVPCID at %lld "
                 "pages%s: the next return to user refills the whole user working set",
                 boot_no_difference(&br) ? "no difference: " : "", (long long)-e->value,
                 (long long)best, iv);
    fmt_into(e->why, sizeof(e->why), "local points at %lld pages, %u paired iterations: the "
             "interval of the difference of medians", (long long)best, br.pairs);
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
    static void (*const fns[RECOMMEND_MAX])(struct rec_ctx *, struct recommendation *) = {
        rec_flush_ceiling, rec_invlpgb, rec_order, rec_lazy, rec_pti,
    };
    struct rec_ctx ctx;
    uint32_t i;
    mem_zero(out, sizeof(*out));
    out->environment = run_environment(r);
    ctx.r = r;
    ctx.seed = r->method.order_seed;
    if (!boot_work_init(&ctx.boot, RECORD_KEEP_MAX))
        mem_zero(&ctx.boot, sizeof(ctx.boot)); /* no memory: every interval "not computed" */
    for (i = 0; i < RECOMMEND_MAX; i++) {
        struct recommendation *e = &out->items[out->count++];
        const struct experiment_record *x;
        e->id = ids[i];
        e->environment = out->environment;
        fns[i](&ctx, e);
        if (e->enough && e->conf == CONF_LOW) {
            /* too noisy to recommend: say so, keep what was measured in the reason */
            char why[sizeof(e->why)];
            fmt_into(why, sizeof(why), "too noisy: %s; measured: %s", e->why, e->verdict);
            fmt_into(e->why, sizeof(e->why), "%s", why);
            fmt_into(e->verdict, sizeof(e->verdict), "not enough evidence");
            e->enough = false;
            e->has_value = false;
            e->has_value_high = false;
            e->cpus_from = 0;
        }
        x = e->experiment ? rec_find(r, e->experiment) : NULL;
        if (x && x->emulated && !r->sim.simulated)
            e->environment = "emulated";
    }
    boot_work_release(&ctx.boot);
}
