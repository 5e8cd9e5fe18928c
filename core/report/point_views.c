/* Views of an experiment's points, either architecture's: see point_views.h. */
#include "core/report/point_views.h"

#include "core/lib/mem.h"
#include "core/report/time_text.h"

#define MATRIX_MAX 16 /* above this many CPUs the IPI view shows classes */

const struct result_point *view_find(const struct point_list *l, const struct view_cond *c,
                                     unsigned n)
{
    uint32_t i;
    unsigned k;
    for (i = 0; i < l->count; i++) {
        const struct result_point *p = &l->items[i];
        for (k = 0; k < n; k++) {
            const struct point_param *a = point_find_param(p, c[k].key);
            if (!a || (c[k].str ? (!a->str || !str_eq(a->str, c[k].str)) : (a->str || a->num != c[k].num)))
                break;
        }
        if (k == n)
            return p;
    }
    return NULL;
}

const struct stats *view_metric(const struct result_point *p, const char *name)
{
    return p ? point_find_metric(p, name) : NULL;
}

void view_cell_time(struct strbuf *sb, const struct stats *st, uint64_t ticks, uint64_t hz)
{
    char t[24];
    if (!st) {
        sb_printf(sb, " %9s", "-");
        return;
    }
    time_text(ticks_to_ns(ticks, hz), t, sizeof(t));
    sb_printf(sb, " %9s", t);
}

void view_cell_p99(struct strbuf *sb, const struct stats *st, uint64_t hz)
{
    if (st && !stats_has_p99(st->n))
        sb_printf(sb, " %9s", "n<100");
    else
        view_cell_time(sb, st, st ? st->p99 : 0, hz);
}

bool view_ipi_matrix(struct strbuf *sb, const struct experiment_record *e, uint32_t ncpus,
                     uint64_t hz)
{
    uint32_t i, j;
    if (ncpus > MATRIX_MAX || e->results.count == 0)
        return false;
    sb_puts(sb, "  p50 round trip, initiator (rows) -> target (columns)\n       ");
    for (j = 0; j < ncpus; j++)
        sb_printf(sb, " %9u", j);
    sb_putc(sb, '\n');
    for (i = 0; i < ncpus; i++) {
        sb_printf(sb, "  %4u ", i);
        for (j = 0; j < ncpus; j++) {
            const struct result_point *p =
                VIEW_FIND(&e->results, { "initiator", NULL, i }, { "target", NULL, j });
            const struct stats *st = view_metric(p, "latency");
            if (i == j)
                sb_printf(sb, " %9s", ".");
            else
                view_cell_time(sb, st, st ? st->p50 : 0, hz);
        }
        sb_putc(sb, '\n');
    }
    for (i = 0; i < e->summary.count; i++) {
        const struct result_point *p = &e->summary.items[i];
        const struct stats *st = view_metric(p, "latency");
        sb_printf(sb, "  %-14s p50", p->params[0].str ? p->params[0].str : "?");
        view_cell_time(sb, st, st ? st->p50 : 0, hz);
        sb_puts(sb, "  p99");
        view_cell_p99(sb, st, hz);
        sb_printf(sb, "  (%llu samples)\n", (unsigned long long)(st ? st->n : 0));
    }
    return true;
}

static bool key_in(const char *key, const char *const *keys, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (str_eq(key, keys[i]))
            return true;
    return false;
}

/* The values that are times in ticks (reports/SCHEMA.md): shown as time, as the metrics are. */
static bool value_is_time(const char *key)
{
    static const char *const times[] = { "p50_per_page", "send_mean", "local_flush_mean",
                                         "delivery_ack_mean", "last_handler_mean" };
    return key_in(key, times, ARRAY_SIZE(times));
}

/* Differences in ticks, which may be below zero (aarch64 pti_double_invalidation's summary:
 * kpti's p50 minus no_kpti's): shown as time with their sign. */
static bool value_is_signed_time(const char *key)
{
    static const char *const times[] = { "extra", "extra_per_page" };
    return key_in(key, times, ARRAY_SIZE(times));
}

/* a value in ticks x 1000 as time; below zero "0 ns", or with its sign when `signed_time` */
static void write_time_value(struct strbuf *sb, int64_t milli, uint64_t hz, bool signed_time)
{
    char t[24];
    if (milli < 0 && signed_time)
        sb_putc(sb, '-');
    milli = milli < 0 ? (signed_time ? -milli : 0) : milli;
    time_text(ticks_to_ns((uint64_t)milli / 1000, hz), t, sizeof(t));
    sb_puts(sb, t);
}

static void write_params(struct strbuf *sb, const struct result_point *p)
{
    char buf[96];
    struct strbuf line;
    uint8_t i;
    sb_init_fixed(&line, buf, sizeof(buf));
    for (i = 0; i < p->nparams; i++) {
        if (i)
            sb_putc(&line, ' ');
        if (p->params[i].str)
            sb_printf(&line, "%s=%s", p->params[i].key, p->params[i].str);
        else
            sb_printf(&line, "%s=%lld", p->params[i].key, (long long)p->params[i].num);
    }
    sb_printf(sb, "  %-40s", buf);
}

/* " NAME p50 <9> p99 <9>"; after long parameters or another metric, on a line of its own */
static void write_metric(struct strbuf *sb, const struct point_metric *m, uint64_t hz,
                         size_t *line_start)
{
    if (sb->len - *line_start + str_len(m->name) + 30 > 80) {
        sb_puts(sb, "\n   ");
        *line_start = sb->len - 3;
    }
    sb_printf(sb, " %s p50", m->name);
    view_cell_time(sb, &m->st, m->st.p50, hz);
    sb_puts(sb, " p99");
    view_cell_p99(sb, &m->st, hz);
}

void view_points(struct strbuf *sb, const struct point_list *l, uint64_t hz, uint32_t max_lines,
                 bool every_metric)
{
    uint32_t i;
    for (i = 0; i < l->count && i < max_lines; i++) {
        const struct result_point *p = &l->items[i];
        size_t line_start = sb->len;
        uint8_t k, v;
        write_params(sb, p);
        for (k = 0; k < p->nmetrics && (k == 0 || every_metric); k++)
            write_metric(sb, &p->metrics[k], hz, &line_start);
        for (v = 0; v < p->nvalues; v++) {
            /* 80 columns (the UEFI console): a value that would pass them starts a line of
             * its own (24 columns is room for the widest number sb_fixed writes) */
            if (sb->len - line_start + 2 + str_len(p->values[v].key) + 24 > 80) {
                sb_puts(sb, "\n   ");
                line_start = sb->len - 3;
            }
            sb_printf(sb, " %s ", p->values[v].key);
            if ((value_is_time(p->values[v].key) || value_is_signed_time(p->values[v].key)) && hz) {
                write_time_value(sb, p->values[v].milli, hz, value_is_signed_time(p->values[v].key));
            } else {
                sb_fixed(sb, p->values[v].milli, 3);
            }
        }
        sb_putc(sb, '\n');
    }
    if (l->count > max_lines)
        sb_printf(sb, "  ... %u more points in the JSON report\n", l->count - max_lines);
}
