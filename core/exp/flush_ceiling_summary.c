/*
 * flush_ceiling's summaries: per curve and full-flush mode, the crossover
 * p* (core/run/crossover.h) with its interval and confidence, on the
 * metric the ceiling is chosen from, and for shootdowns p* of the critical
 * path beside it; a curve with fewer than 3 page counts has none, and says
 * how many it has and, where a budget left it out, the run_budget_s that
 * would measure it (method: core/exp/flush_ceiling.c).
 */
#include "core/exp/flush_ceiling.h"

#include "core/mutant.h"

void fc_add_summary(struct fc_state *st, struct experiment_record *rec, struct fc_row *row)
{
    const struct fc_where *at = &row->at;
    uint32_t f;
    for (f = 0; f + 1 < st->nmodes; f++) {
        struct crossover c, cc;
        struct result_point *sum;
        bool enough = row->n >= 3;
        crossover_find(row->work[f], row->n, &st->boot, st->r->run->method.order_seed,
                       crossover_stream(at->k, at->w, at->form, f + 1), &c);
        crossover_find(row->crit[f], row->n, NULL, 0, 0, &cc);
        if (MUTANT(crossover_off_by_one) && c.found)
            c.p_star = c.p_before; /* test-only: the count before the crossing */
        sum = point_list_add(&rec->summary);
        if (!sum)
            return;
        point_param_str(sum, "kind", at->k ? "shootdown" : "local");
        point_param_num(sum, "targets", at->k);
        point_param_num(sum, "working_set", at->w);
        point_param_str(sum, "working_set_form", fc_form_names[at->form]);
        point_param_str(sum, "full", fc_mode_names[f + 1]);
        point_param_str(sum, "confidence", confidence_name(enough ? c.conf : CONF_NONE));
        point_value(sum, "pages_measured", (int64_t)row->n * 1000);
        if (!enough && st->needs_budget_s)
            point_value(sum, "needs_run_budget_s", (int64_t)st->needs_budget_s * 1000);
        if (!enough)
            continue; /* fewer than 3 page counts: no p*, and no "no crossing" either */
        if (c.found)
            point_value(sum, "p_star", (int64_t)c.p_star * 1000);
        /* its 95% interval; an end that is "no crossing" is left out (reports/SCHEMA.md) */
        if (c.has_interval && c.p_low != BOOT_NONE)
            point_value(sum, "p_star_low", c.p_low * 1000);
        if (c.has_interval && c.p_high != BOOT_NONE)
            point_value(sum, "p_star_high", c.p_high * 1000);
        if (c.overlap) {
            point_value(sum, "band_low", (int64_t)c.band_low * 1000);
            point_value(sum, "band_high", (int64_t)c.band_high * 1000);
        }
        point_value(sum, "monotonic", c.monotonic ? 1000 : 0);
        if (at->k && cc.found)
            point_value(sum, "p_star_critical", (int64_t)cc.p_star * 1000);
    }
}
