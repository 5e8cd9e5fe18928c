/*
 * Text views of the experiments for the .txt summary and the console:
 * tables a person reads, with nanoseconds (from the measured TSC rate) and
 * the raw tick values in the JSON for tools.
 */
#include "core/report/conditions_report.h"
#include "core/lib/mem.h"
#include "core/report/point_views.h"
#include "core/report/report_views.h"
#include "core/report/report_views_contention.h"
#include "core/report/summary_text.h"

/* "  12.3 us" style cell, 9 wide (time_text()), at the run's TSC rate */
static void cell_time(struct strbuf *sb, const struct run *r, const struct stats *st, uint64_t which)
{
    view_cell_time(sb, st, which, r->tsc_hz);
}

static void cell_p99(struct strbuf *sb, const struct run *r, const struct stats *st)
{
    view_cell_p99(sb, st, r->tsc_hz);
}

/* The flush column: how pages were invalidated (core/exp/shootdown_seq_conc.c) */
static const char *flush_label(const struct point_param *f)
{
    if (!f || !f->str)
        return "-";
    if (str_eq(f->str, "invpcid_single_context"))
        return "invpcid";
    if (str_eq(f->str, "cr3_reload"))
        return "cr3";
    return f->str;
}

/*
 * The result point of `mode` behind summary point s: every parameter of s
 * (placement and ipi_mode too, issue 21) and the mode, nothing else.
 */
static const struct result_point *seq_conc_point(const struct experiment_record *e,
                                                 const struct result_point *s, const char *mode)
{
    uint32_t i;
    uint8_t k;
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        const struct point_param *m = point_find_param(p, "mode");
        if (p->nparams != s->nparams + 1 || !m || !m->str || !str_eq(m->str, mode))
            continue;
        for (k = 0; k < s->nparams; k++) {
            const struct point_param *a = &s->params[k], *b = point_find_param(p, a->key);
            if (!b || (a->str ? !b->str || !str_eq(a->str, b->str) : b->str || a->num != b->num))
                break;
        }
        if (k == s->nparams)
            return p;
    }
    return NULL;
}

/* Where a point's targets were (issue 21): its placement, cluster-mode IPIs, or nearest first. */
static const char *placement_label(const struct result_point *s)
{
    const struct point_param *pl = point_find_param(s, "placement");
    if (pl && pl->str)
        return pl->str;
    return point_find_param(s, "ipi_mode") ? "x2apic_cluster" : "nearest";
}

/* A summary point measured beside the grid: a placement or cluster-mode IPIs (issue 21). */
static bool beside_grid(const struct result_point *s)
{
    return point_find_param(s, "placement") || point_find_param(s, "ipi_mode");
}

/*
 * The grid (nearest targets first) with p99, then the placement and
 * cluster-mode points in a table of their own without p99: one table with
 * both would be 92 columns, past the 80 of a server's UEFI console.
 */
static void view_seq_conc(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    uint32_t i, pass;
    for (pass = 0; pass < 2; pass++) {
        bool header = false;
        for (i = 0; i < e->summary.count; i++) {
            const struct result_point *s = &e->summary.items[i];
            const struct point_param *t = point_find_param(s, "targets");
            const struct point_param *pg = point_find_param(s, "pages");
            const struct point_param *f = point_find_param(s, "flush");
            const struct stats *seq, *conc;
            if (!t || !pg || beside_grid(s) != (pass == 1))
                continue;
            if (!header && pass == 0)
                sb_printf(sb, "  %7s %5s %-7s %10s %10s %10s %10s %9s\n", "targets", "pages",
                          "flush", "seq p50", "conc p50", "seq p99", "conc p99", "conc/seq");
            else if (!header)
                sb_printf(sb, "  %7s %-14s %5s %-7s %10s %10s %9s\n", "targets", "placement",
                          "pages", "flush", "seq p50", "conc p50", "conc/seq");
            header = true;
            seq = view_metric(seq_conc_point(e, s, "seq"), "latency");
            conc = view_metric(seq_conc_point(e, s, "conc"), "latency");
            if (pass == 0)
                sb_printf(sb, "  %7lld %5lld %-7s", (long long)t->num, (long long)pg->num,
                          flush_label(f));
            else
                sb_printf(sb, "  %7lld %-14s %5lld %-7s", (long long)t->num, placement_label(s),
                          (long long)pg->num, flush_label(f));
            sb_putc(sb, ' ');
            cell_time(sb, r, seq, seq ? seq->p50 : 0);
            cell_time(sb, r, conc, conc ? conc->p50 : 0);
            if (pass == 0) {
                cell_p99(sb, r, seq);
                cell_p99(sb, r, conc);
            }
            if (s->nvalues) {
                sb_puts(sb, "     ");
                sb_fixed(sb, s->values[0].milli, 3);
            }
            sb_putc(sb, '\n');
        }
    }
}

/* A value of a point in ticks (stored x 1000), or NULL-like: *have false. */
static uint64_t value_ticks(const struct result_point *p, const char *key, bool *have)
{
    uint32_t v;
    for (v = 0; p && v < p->nvalues; v++) {
        if (str_eq(p->values[v].key, key)) {
            *have = true;
            return (uint64_t)(p->values[v].milli / 1000);
        }
    }
    *have = false;
    return 0;
}

/*
 * Where the time of the 1-page points goes (core/machine/shootdown.h, struct
 * shootdown_parts); every point's breakdown is in the JSON and in
 * tlbscope-report show.
 */
static void view_seq_conc_parts(const struct run *r, const struct experiment_record *e,
                                struct strbuf *sb)
{
    static const char *const keys[] = { "send_mean", "local_flush_mean", "delivery_ack_mean",
                                        "last_handler_mean" };
    uint32_t i, k;
    bool header = false;
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        const struct point_param *pg = point_find_param(p, "pages");
        const struct point_param *t = point_find_param(p, "targets");
        const struct point_param *m = point_find_param(p, "mode");
        const struct stats *lat = view_metric(p, "latency");
        bool have;
        if (!pg || pg->num != 1 || !t || !m || !m->str)
            continue;
        if (!header) {
            sb_put_wrapped(sb, "  ", "  ",
                           "where a 1-page shootdown's time goes, mean of each part (they add "
                           "up to the mean latency; conc's local flush is inside its wait): send "
                           "(request slots, ICR writes) and local flush on the initiator's TSC, "
                           "the handler of the target that acked last on its own; deliv+ack = "
                           "the initiator's wait from its last ICR write to the last ack, minus "
                           "that handler (derived). Handler and delivery are a ring-0 target's, "
                           "with no entry mitigations: a target running user code also pays "
                           "the kernel entry",
                           80);
            sb_printf(sb, "  %7s %-14s %-4s %9s %9s %9s %9s %9s\n", "targets", "placement", "mode",
                      "send", "local", "deliv+ack", "handler", "latency");
            header = true;
        }
        sb_printf(sb, "  %7lld %-14s %-4s", (long long)t->num, placement_label(p), m->str);
        for (k = 0; k < 4; k++) {
            uint64_t v = value_ticks(p, keys[k], &have);
            cell_time(sb, r, have ? lat : NULL, v);
        }
        cell_time(sb, r, lat, lat ? lat->mean : 0);
        sb_putc(sb, '\n');
    }
}

static void view_lazy(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    static const char *const variants[] = { "skip_lazy", "ipi_all", "freed_tables", "xen_running" };
    static const char *const doing[] = { "wait", "busy_ws" };
    int64_t k, kmax = -1;
    uint32_t i, v, d;
    for (i = 0; i < e->results.count; i++) {
        const struct point_param *p = point_find_param(&e->results.items[i], "lazy");
        if (p && p->num > kmax)
            kmax = p->num;
    }
    sb_printf(sb, "  p50 shootdown latency by lazy CPUs k (catch-up of the slowest lazy CPU)\n  %4s", "k");
    for (v = 0; v < 4; v++)
        sb_printf(sb, " %12s", variants[v]);
    sb_printf(sb, " %10s\n", "catch-up");
    /* the other targets waiting (spinning, or halted under a hypervisor), then busy */
    for (d = 0; d < 2; d++) {
        bool labelled = false;
        for (k = 0; k <= kmax; k++) {
            const struct stats *cu = NULL;
            bool any = false;
            for (v = 0; v < 4; v++)
                any |= VIEW_FIND(&e->results, { "variant", variants[v], 0 }, { "lazy", NULL, k },
                            { "targets_doing", doing[d], 0 }) != NULL;
            if (!any)
                continue;
            /* a line of its own: beside the row it would pass 80 columns */
            if (d && !labelled)
                sb_puts(sb, "  the other targets in a busy loop over their own working sets:\n");
            labelled = true;
            sb_printf(sb, "  %4lld", (long long)k);
            for (v = 0; v < 4; v++) {
                const struct result_point *p =
                    VIEW_FIND(&e->results, { "variant", variants[v], 0 }, { "lazy", NULL, k },
                         { "targets_doing", doing[d], 0 });
                const struct stats *st = view_metric(p, "latency");
                sb_puts(sb, "   ");
                cell_time(sb, r, st, st ? st->p50 : 0);
                if (v == 0)
                    cu = view_metric(p, "catchup");
            }
            sb_putc(sb, ' ');
            cell_time(sb, r, cu, cu ? cu->p50 : 0);
            sb_putc(sb, '\n');
        }
    }
    if (r->method.lazy_idle.mwait) {
        char line[160];
        fmt_into(line, sizeof(line), "(lazy CPUs idle in %s, the deepest MWAIT state "
                 "ipi_target_state verified: ipi_all pays their wake-up)", r->method.lazy_idle.state);
        sb_put_wrapped(sb, "  ", "  ", line, 80);
    } else {
        sb_printf(sb, "  (lazy CPUs idle in HLT, no MWAIT state verified: ipi_all pays their\n"
                      "  wake-up from HLT)\n");
    }
}

/* p50 of b over p50 of a as "  12.34", or nothing when either is missing */
static void cell_ratio(struct strbuf *sb, const struct stats *a, const struct stats *b)
{
    if (a && b && a->p50)
        sb_printf(sb, " %6llu.%02llu", (unsigned long long)(b->p50 / a->p50),
                  (unsigned long long)(b->p50 * 100 / a->p50 % 100));
}

/*
 * Each INVLPGB point beside the IPI point of the same form, pages and CPUs.
 * Linux's path unmarked; the chunked alternative above the ceiling marked
 * "chunked", against the same IPI point.
 */
static void view_invlpgb(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    static const char *const forms[] = { "pages", "stride_2m", "pcid" };
    uint32_t f, i;
    sb_printf(sb, "  %-17s %5s %4s %12s %12s %11s\n", "form", "pages", "cpus", "invlpgb p50",
              "ipi p50", "ipi/invlpgb");
    for (f = 0; f < 3; f++) {
        for (i = 0; i < e->results.count; i++) {
            const struct result_point *p = &e->results.items[i];
            const struct point_param *m = point_find_param(p, "method");
            const struct point_param *fm = point_find_param(p, "form");
            const struct point_param *pg = point_find_param(p, "pages");
            const struct point_param *c = point_find_param(p, "cpus");
            const struct point_param *path = point_find_param(p, "path");
            const struct result_point *ipi;
            const struct stats *a, *b;
            char label[24];
            if (!m || !fm || !pg || !c || !m->str || !fm->str || !str_eq(m->str, "invlpgb") ||
                !str_eq(fm->str, forms[f]) || point_find_param(p, "targets_doing"))
                continue;
            a = view_metric(p, "latency");
            ipi = VIEW_FIND(&e->results, { "method", "ipi", 0 }, { "form", forms[f], 0 },
                       { "pages", NULL, pg->num }, { "cpus", NULL, c->num });
            b = view_metric(ipi, "latency");
            fmt_into(label, sizeof(label), "%s%s", forms[f],
                     path && path->str && str_eq(path->str, "chunked") ? " chunked" : "");
            sb_printf(sb, "  %-17s %5lld %4lld ", label, (long long)pg->num, (long long)c->num);
            cell_time(sb, r, a, a ? a->p50 : 0);
            sb_puts(sb, "   ");
            cell_time(sb, r, b, b ? b->p50 : 0);
            cell_ratio(sb, a, b);
            sb_putc(sb, '\n');
        }
    }
    view_invlpgb_other_cpus(r, e, sb);
}

/*
 * flush_ceiling's crossovers, one line per target count (0: local), form
 * and working set: p* of the CR3 write (Linux) and of INVPCID
 * single-context where measured, each with its 95% interval (issue 20;
 * an end that is "no crossing" reads none) and its confidence. Shootdown
 * curves are the initiator's wait plus the slowest target's refill.
 */
static const struct point_value *fc_value(const struct result_point *s, const char *key)
{
    uint8_t v;
    for (v = 0; v < s->nvalues; v++)
        if (str_eq(s->values[v].key, key))
            return &s->values[v];
    return NULL;
}

/* A summary's p* ("none" when the full flush never won, "-" when not measured), its interval
 * when recorded, and its confidence. */
static void fc_pstar(const struct result_point *s, char *pstar, size_t cap, const char **conf)
{
    const struct point_param *c = s ? point_find_param(s, "confidence") : NULL;
    const struct point_value *p, *lo, *hi, *measured;
    struct strbuf sb;
    *conf = c && c->str ? c->str : "-";
    sb_init_fixed(&sb, pstar, cap);
    if (!s) {
        sb_puts(&sb, "-");
        return;
    }
    p = fc_value(s, "p_star");
    lo = fc_value(s, "p_star_low");
    hi = fc_value(s, "p_star_high");
    measured = fc_value(s, "pages_measured");
    if (!p && measured && measured->milli < 3000) {
        sb_puts(&sb, "not measured"); /* fewer than 3 page counts: no p*, not "none" */
        return;
    }
    if (p)
        sb_printf(&sb, "%lld", (long long)(p->milli / 1000));
    else
        sb_puts(&sb, "none");
    if (!lo && !hi)
        return; /* no interval recorded, or none at both ends */
    sb_puts(&sb, " [");
    if (lo)
        sb_printf(&sb, "%lld", (long long)(lo->milli / 1000));
    else
        sb_puts(&sb, "none");
    sb_putc(&sb, '-');
    if (hi)
        sb_printf(&sb, "%lld", (long long)(hi->milli / 1000));
    else
        sb_puts(&sb, "none");
    sb_putc(&sb, ']');
}

static void view_flush_ceiling(const struct experiment_record *e, struct strbuf *sb)
{
    uint32_t i;
    const struct point_value *needs = NULL;
    sb_puts(sb, "  p*: the page count from which a full flush then the refills is cheaper\n"
                "  (targets 0: local; shootdowns: their work summed over CPUs, initiator\n"
                "  and targets), with its 95% interval [low-high]\n");
    sb_printf(sb, "  %7s %-14s %5s %-15s %-6s %-15s %s\n", "targets", "form", "ws",
              "cr3 p*", "conf", "invpcid p*", "conf");
    for (i = 0; i < e->summary.count; i++) {
        const struct result_point *s = &e->summary.items[i];
        const struct point_param *kind = point_find_param(s, "kind");
        const struct point_param *k = point_find_param(s, "targets");
        const struct point_param *w = point_find_param(s, "working_set");
        const struct point_param *form = point_find_param(s, "working_set_form");
        const struct point_param *full = point_find_param(s, "full");
        char cr3[24], inv[24];
        const char *cr3_conf, *inv_conf;
        if (!kind || !k || !w || !form || !full || !full->str || !str_eq(full->str, "full_cr3"))
            continue;
        fc_pstar(s, cr3, sizeof(cr3), &cr3_conf);
        fc_pstar(VIEW_FIND(&e->summary, { "targets", NULL, k->num }, { "working_set", NULL, w->num },
                      { "working_set_form", form->str, 0 }, { "full", "full_invpcid", 0 }),
                 inv, sizeof(inv), &inv_conf);
        sb_printf(sb, "  %7lld %-14s %5lld %-15s %-6s %-15s %s\n", (long long)k->num,
                  form->str ? form->str : "-", (long long)w->num, cr3, cr3_conf, inv, inv_conf);
        needs = needs ? needs : fc_value(s, "needs_run_budget_s");
    }
    if (needs) /* a budget left curves out (fewer than 3 page counts: no crossover) */
        sb_printf(sb, "  not measured: needs run_budget_s=%lld%s\n",
                  (long long)(needs->milli / 1000),
                  needs->milli / 1000 <= RUN_BUDGET_FULL_S ? " or profile=full" : "");
}

void report_view_experiment(const struct run *r, const struct experiment_record *e,
                            struct strbuf *sb)
{
    const struct summary_tags tags = { r->sim.simulated, r->cfg.emulator != EMULATOR_NONE };
    summary_experiment_head(sb, e, &tags);
    if (str_eq(e->id, "ipi_roundtrip")) {
        if (!view_ipi_matrix(sb, e, r->topo.count, r->tsc_hz))
            view_points(sb, &e->summary, r->tsc_hz, 8, false);
    }
    else if (str_eq(e->id, "shootdown_seq_vs_conc")) {
        view_seq_conc(r, e, sb);
        view_seq_conc_parts(r, e, sb);
    }
    else if (str_eq(e->id, "shootdown_lazy"))
        view_lazy(r, e, sb);
    else if (str_eq(e->id, "invlpgb_range"))
        view_invlpgb(r, e, sb);
    else if (str_eq(e->id, "shootdown_contention"))
        view_contention(r, e, sb);
    else if (str_eq(e->id, "ipi_target_state"))
        view_target_state(r, e, sb);
    else if (str_eq(e->id, "flush_ceiling"))
        view_flush_ceiling(e, sb);
    else if (e->summary.count)
        view_points(sb, &e->summary, r->tsc_hz, 64, false);
    else
        view_points(sb, &e->results, r->tsc_hz, 32, false);
    conditions_write_text(&e->conditions, r->tsc_hz, sb);
}
