#include "core/mem.h"
#include "core/report_views.h"

static void write_params(const struct result_point *p, struct strbuf *sb)
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
    sb_printf(sb, "  %-44s", buf);
}

void report_view_points(const struct run *r, const struct experiment_record *e,
                        const struct point_list *l, struct strbuf *sb, uint32_t max_lines)
{
    uint32_t i;
    (void)e;
    for (i = 0; i < l->count && i < max_lines; i++) {
        const struct result_point *p = &l->items[i];
        const struct stats *st;
        uint8_t v;
        write_params(p, sb);
        if (p->nmetrics) {
            st = &p->metrics[0].st;
            sb_printf(sb, " %s p50 %8llu p99 %8llu ticks (p50 %llu ns)", p->metrics[0].name,
                      (unsigned long long)st->p50, (unsigned long long)st->p99,
                      (unsigned long long)ticks_to_ns(st->p50, r->tsc_hz));
        }
        for (v = 0; v < p->nvalues; v++) {
            sb_printf(sb, " %s ", p->values[v].key);
            sb_fixed(sb, p->values[v].milli, 3);
        }
        sb_putc(sb, '\n');
    }
    if (l->count > max_lines)
        sb_printf(sb, "  ... %u more points in the JSON report\n", l->count - max_lines);
}

void report_view_experiment(const struct run *r, const struct experiment_record *e,
                            struct strbuf *sb)
{
    sb_printf(sb, "\n%s%s: %s\n", e->id, e->emulated ? " [EMULATED]" : "", e->title);
    if (e->summary.count) {
        report_view_points(r, e, &e->summary, sb, 64);
    } else {
        report_view_points(r, e, &e->results, sb, 32);
    }
}
