#include "core/report/report_views_contention.h"
#include "core/lib/mem.h"
#include "core/report/report_views.h"

static const struct stats *metric_of(const struct result_point *p, const char *name)
{
    uint8_t i;
    for (i = 0; i < p->nmetrics; i++)
        if (str_eq(p->metrics[i].name, name))
            return &p->metrics[i].st;
    return NULL;
}

static const char *param_str(const struct result_point *p, const char *key)
{
    const struct point_param *a = point_find_param(p, key);
    return a && a->str ? a->str : "?";
}

static int64_t param_num(const struct result_point *p, const char *key)
{
    const struct point_param *a = point_find_param(p, key);
    return a && !a->str ? a->num : -1;
}

/* A 9-wide time cell in ns/us/ms from ticks. */
static void cell(struct strbuf *sb, const struct run *r, const struct stats *st, bool p99)
{
    uint64_t ns;
    if (!st) {
        sb_printf(sb, " %9s", "-");
        return;
    }
    if (p99 && !stats_has_p99(st->n)) { /* nearest rank would give the maximum (core/lib/stats.h) */
        sb_printf(sb, " %9s", "n<100");
        return;
    }
    ns = ticks_to_ns(p99 ? st->p99 : st->p50, r->tsc_hz);
    if (ns >= 10000000)
        sb_printf(sb, " %6llu ms", (unsigned long long)(ns / 1000000));
    else if (ns >= 10000)
        sb_printf(sb, " %6llu us", (unsigned long long)(ns / 1000));
    else
        sb_printf(sb, " %6llu ns", (unsigned long long)ns);
}

static int64_t value_of(const struct result_point *p, const char *key)
{
    uint8_t v;
    for (v = 0; v < p->nvalues; v++)
        if (str_eq(p->values[v].key, key))
            return p->values[v].milli / 1000;
    return -1;
}

/* The placement a point names (issue 21), "nearest" for the grid's (none named). */
static const char *placement_of(const struct result_point *p)
{
    const struct point_param *a = point_find_param(p, "placement");
    return a && a->str ? a->str : "nearest";
}

/* The steady point of latency point i: the same mode, method, pages, m and placement; steady. */
static const struct result_point *steady_of(const struct experiment_record *e, uint32_t i)
{
    const struct result_point *p = &e->results.items[i];
    uint32_t j;
    for (j = i + 1; j < e->results.count; j++) {
        const struct result_point *q = &e->results.items[j];
        if (str_eq(param_str(q, "measure"), "steady") &&
            str_eq(param_str(q, "mode"), param_str(p, "mode")) &&
            str_eq(param_str(q, "method"), param_str(p, "method")) &&
            param_num(q, "pages") == param_num(p, "pages") &&
            param_num(q, "initiators") == param_num(p, "initiators") &&
            str_eq(placement_of(q), placement_of(p)))
            return q;
    }
    return NULL;
}

static void rate_cell(struct strbuf *sb, int64_t v)
{
    if (v < 0)
        sb_printf(sb, " %9s", "-");
    else
        sb_printf(sb, " %9lld", (long long)v);
}

void view_contention(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    uint32_t i;
    sb_printf(sb, "  p50/p99 per shootdown in rounds (all m start together); shootdowns/s of\n"
                  "  all m in the steady state (each in a loop, no check in the window; median\n"
                  "  of the windows), and without the remaps each timed in its loop\n");
    /* 80 columns: the UEFI console of most servers */
    sb_printf(sb, "  %-6s %-7s %-13s %5s %3s %9s %9s %9s %9s\n", "mode", "method", "placement",
              "pages", "m", "p50", "p99", "steady/s", "no remap");
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        const struct result_point *st;
        const struct stats *lat = metric_of(p, "latency");
        if (str_eq(param_str(p, "measure"), "steady"))
            continue; /* printed on its latency point's row */
        st = steady_of(e, i);
        sb_printf(sb, "  %-6s %-7s %-13s %5lld %3lld", param_str(p, "mode"), param_str(p, "method"),
                  placement_of(p), (long long)param_num(p, "pages"),
                  (long long)param_num(p, "initiators"));
        cell(sb, r, lat, false);
        cell(sb, r, lat, true);
        rate_cell(sb, st ? value_of(st, "shootdowns_per_s") : -1);
        rate_cell(sb, st ? value_of(st, "shootdowns_per_s_no_remap") : -1);
        sb_putc(sb, '\n');
    }
}

/*
 * ring3_loop beside pause, the same loop at CPL 0: the difference of the
 * p50s is the privilege change on entry and return (no entry mitigation).
 */
static void ring3_line(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    static const char ring0_twin[] = "pause"; /* the same loop at CPL 0 */
    const struct stats *ring3 = NULL, *ring0 = NULL;
    const struct result_point *rp = NULL;
    char line[200];
    long long diff;
    uint32_t i;
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        if (str_eq(param_str(p, "state"), "ring3_loop")) {
            ring3 = metric_of(p, "roundtrip");
            rp = p;
        } else if (str_eq(param_str(p, "state"), ring0_twin)) {
            ring0 = metric_of(p, "roundtrip");
        }
    }
    if (!ring3 || !ring0)
        return;
    diff = (long long)ticks_to_ns(ring3->p50, r->tsc_hz) -
           (long long)ticks_to_ns(ring0->p50, r->tsc_hz);
    /* below zero the noise is larger than what the difference would show: said, not hidden */
    fmt_into(line, sizeof(line),
             "ring3_loop - pause (p50s): %lld ns, %s (CPL 3 at %lld of %lld pings; no entry "
             "mitigation)",
             diff,
             value_of(rp, "interrupted_cpl3") != value_of(rp, "pings")
                 ? "not a ring-3 figure"
                 : diff >= 0 ? "the interrupt's privilege change" : "below zero: noise swamps it",
             (long long)value_of(rp, "interrupted_cpl3"), (long long)value_of(rp, "pings"));
    sb_put_wrapped(sb, "  ", "  ", line, 80); /* the UEFI console is 80 columns */
}

void view_target_state(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    uint32_t i;
    sb_printf(sb, "  %-14s %19s %19s %7s %s\n", "target state", "round trip p50/p99",
              "target lost p50/p99", "settle", "residency");
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        const struct stats *rt = metric_of(p, "roundtrip"), *lost = metric_of(p, "target_lost");
        sb_printf(sb, "  %-14s", param_str(p, "state"));
        cell(sb, r, rt, false);
        cell(sb, r, rt, true);
        cell(sb, r, lost, false);
        cell(sb, r, lost, true);
        if (value_of(p, "settle_us") >= 0)
            sb_printf(sb, " %5lldus", (long long)value_of(p, "settle_us"));
        /* idle states: reached, partly_reached, demoted, not_reached, unverified (reason: JSON) */
        if (point_find_param(p, "residency"))
            sb_printf(sb, " %s", param_str(p, "residency"));
        sb_putc(sb, '\n');
    }
    ring3_line(r, e, sb);
    sb_put_wrapped(sb, "  ", "  ",
                   "(settle: the state's target residency before each ping; residency: proof "
                   "from the core C-state residency MSRs, reasons in the report's "
                   "residency_reason; target lost and the round trip are a ring-0 target's "
                   "(ring3_loop's a CPL 3 one), with no entry mitigations: a target in user "
                   "code also pays the kernel entry)",
                   80);
}

void view_invlpgb_other_cpus(const struct run *r, const struct experiment_record *e,
                             struct strbuf *sb)
{
    uint32_t i;
    bool head = false;
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        bool ipi = str_eq(param_str(p, "method"), "ipi");
        const struct stats *lost = metric_of(p, ipi ? "target_lost" : "bystander_lost");
        if (!point_find_param(p, "targets_doing"))
            continue;
        if (!head)
            sb_printf(sb, "  other CPUs in busy_ws, 1 page, %lld CPUs (their own clocks, summed,\n"
                          "  per flush):\n  %-8s %9s %9s %s\n",
                      (long long)param_num(p, "cpus"), "method", "latency", "lost p50",
                      "what is lost");
        head = true;
        sb_printf(sb, "  %-8s", ipi ? "ipi" : "invlpgb");
        cell(sb, r, metric_of(p, "latency"), false);
        cell(sb, r, lost, false);
        sb_printf(sb, " %s\n", ipi ? "the targets' loops, interrupted" : "the bystanders' loops");
    }
    for (i = 0; i < e->summary.count; i++) {
        const struct result_point *s = &e->summary.items[i];
        const struct point_value *from = NULL, *most = NULL;
        uint8_t v;
        if (!point_find_param(s, "placement"))
            continue;
        for (v = 0; v < s->nvalues; v++) {
            if (str_eq(s->values[v].key, "cpus_from"))
                from = &s->values[v];
            else if (str_eq(s->values[v].key, "cpus_max"))
                most = &s->values[v];
        }
        sb_printf(sb, "  1 page, %-13s INVLPGB wins ", param_str(s, "placement"));
        if (from)
            sb_printf(sb, "from %lld CPUs", (long long)(from->milli / 1000));
        else
            sb_printf(sb, "never");
        sb_printf(sb, " of %lld%s\n", most ? (long long)(most->milli / 1000) : 0,
                  str_eq(param_str(s, "placement"), "nearest_first")
                      ? " (invlpgb_vs_ipi reads it)"
                      : "");
    }
}
