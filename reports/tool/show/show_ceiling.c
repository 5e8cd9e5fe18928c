#include "reports/tool/show/show_ceiling.h"

#include <math.h>
#include <string.h>

#include "reports/tool/show/show.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")

/* "32", or "none" where the value is absent (no crossing in that tail). */
static const char *pages_text(double v, char *buf, size_t cap)
{
    if (isnan(v))
        snprintf(buf, cap, "none");
    else
        units_number(v, buf, cap);
    return buf;
}

void show_ceiling_summary(const struct m_experiment *e, FILE *out)
{
    char line[600], a[32], b[32], c[32], d[32], head[200];
    size_t i, len;
    if (!e->summary.count)
        return;
    fputs("  crossovers (p*: the page count from which the full flush is cheaper):\n", out);
    for (i = 0; i < e->summary.count; i++) {
        const struct m_point *p = &e->summary.items[i];
        double pstar = model_value(p, "p_star"), lo = model_value(p, "p_star_low");
        double hi = model_value(p, "p_star_high"), blo = model_value(p, "band_low");
        double bhi = model_value(p, "band_high"), targets = model_param_number(p, "targets");
        double measured = model_value(p, "pages_measured");
        double needs = model_value(p, "needs_run_budget_s");
        double crit = model_value(p, "p_star_critical");
        const char *form = model_param_string(p, "working_set_form");
        snprintf(head, sizeof(head), "%s%s%s, working set %s%s%s, vs %s", S(model_param_string(p, "kind")),
                 isnan(targets) || targets == 0 ? "" : ", targets ",
                 isnan(targets) || targets == 0 ? "" : units_number(targets, a, sizeof(a)),
                 units_number(model_param_number(p, "working_set"), b, sizeof(b)),
                 form ? " " : "", form ? form : "", S(model_param_string(p, "full")));
        if (isnan(pstar) && !isnan(measured) && measured < 3) {
            /* a budget left the curve out: no p*, and no claim that the full flush never won */
            if (isnan(needs))
                snprintf(line, sizeof(line), "%s: not measured (%s page counts, fewer than 3)",
                         head, units_number(measured, a, sizeof(a)));
            else /* profile=full measures within 1800 s (core/run/config.h RUN_BUDGET_FULL_S) */
                snprintf(line, sizeof(line), "%s: not measured: needs run_budget_s=%s%s", head,
                         units_number(needs, a, sizeof(a)),
                         needs <= 1800 ? " or profile=full" : "");
            units_print_wrapped(out, "    ", "      ", line, SHOW_WIDTH);
            continue;
        }
        if (isnan(pstar))
            snprintf(line, sizeof(line), "%s: no crossing (the full flush never cheaper)", head);
        else
            snprintf(line, sizeof(line), "%s: p* %s", head, pages_text(pstar, a, sizeof(a)));
        len = strlen(line);
        if (!isnan(lo) || !isnan(hi))
            snprintf(line + len, sizeof(line) - len, " (95%% interval %s to %s)",
                     pages_text(lo, b, sizeof(b)), isnan(hi) ? "above the largest count"
                                                             : pages_text(hi, c, sizeof(c)));
        len = strlen(line);
        snprintf(line + len, sizeof(line) - len, ", confidence %s",
                 S(model_param_string(p, "confidence")));
        len = strlen(line);
        if (!isnan(crit)) /* shootdowns: p* is of the work; the critical path's beside it */
            snprintf(line + len, sizeof(line) - len, "; critical path p* %s",
                     units_number(crit, d, sizeof(d)));
        len = strlen(line);
        if (!isnan(blo) && !isnan(bhi)) {
            bool outside = !isnan(pstar) && (pstar < blo || pstar > bhi);
            snprintf(line + len, sizeof(line) - len, "; p25-p75 band %s to %s%s",
                     units_number(blo, c, sizeof(c)), units_number(bhi, d, sizeof(d)),
                     outside ? " (p* outside it: the band is where the two curves' p25-p75 "
                               "ranges overlap, the confidence comes from p*'s interval)" : "");
        }
        units_print_wrapped(out, "    ", "      ", line, SHOW_WIDTH);
    }
}
