#include "core/report_views_contention.h"
#include "core/mem.h"
#include "core/report_views.h"

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
    if (p99 && !stats_has_p99(st->n)) { /* nearest rank would give the maximum (core/stats.h) */
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

void view_contention(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    uint32_t i;
    sb_printf(sb, "  %-6s %-8s %5s %3s %9s %9s %14s\n", "mode", "method", "pages", "m", "p50",
              "p99", "shootdowns/s");
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        const struct stats *lat = metric_of(p, "latency");
        uint8_t v;
        sb_printf(sb, "  %-6s %-8s %5lld %3lld", param_str(p, "mode"), param_str(p, "method"),
                  (long long)param_num(p, "pages"), (long long)param_num(p, "initiators"));
        cell(sb, r, lat, false);
        cell(sb, r, lat, true);
        for (v = 0; v < p->nvalues; v++)
            if (str_eq(p->values[v].key, "shootdowns_per_s"))
                sb_printf(sb, " %14lld", (long long)(p->values[v].milli / 1000));
        sb_putc(sb, '\n');
    }
}

void view_target_state(const struct run *r, const struct experiment_record *e, struct strbuf *sb)
{
    uint32_t i;
    sb_printf(sb, "  %-14s %19s %19s\n", "target state", "round trip p50/p99",
              "target lost p50/p99");
    for (i = 0; i < e->results.count; i++) {
        const struct result_point *p = &e->results.items[i];
        const struct stats *rt = metric_of(p, "roundtrip"), *lost = metric_of(p, "target_lost");
        sb_printf(sb, "  %-14s", param_str(p, "state"));
        cell(sb, r, rt, false);
        cell(sb, r, rt, true);
        cell(sb, r, lost, false);
        cell(sb, r, lost, true);
        sb_putc(sb, '\n');
    }
}
