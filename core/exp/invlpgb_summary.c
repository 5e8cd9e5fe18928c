#include "core/exp/invlpgb_summary.h"
#include "core/lib/mem.h"

/*
 * The p50 latency of a one-page point of method `method` at c CPUs, of a
 * placement (NULL: the nearest-first sweep's, which names none; never a
 * busy_ws row); 0: none.
 */
static uint64_t placed_p50(const struct experiment_record *rec, const char *placement,
                           const char *method, uint32_t c)
{
    uint32_t i, k;
    for (i = 0; i < rec->results.count; i++) {
        const struct result_point *p = &rec->results.items[i];
        const struct point_param *pl = point_find_param(p, "placement");
        const struct point_param *m = point_find_param(p, "method");
        const struct point_param *cpus = point_find_param(p, "cpus");
        const struct point_param *pages = point_find_param(p, "pages");
        const struct point_param *path = point_find_param(p, "path");
        if ((placement ? !pl || !pl->str || !str_eq(pl->str, placement) : pl != NULL) ||
            !m || !str_eq(m->str, method) || !cpus || cpus->num != (int64_t)c || !pages ||
            pages->num != 1 || point_find_param(p, "targets_doing") ||
            (path && path->str && !str_eq(path->str, "linux")))
            continue;
        for (k = 0; k < p->nmetrics; k++)
            if (str_eq(p->metrics[k].name, "latency"))
                return p->metrics[k].st.p50;
    }
    return 0;
}

void ib_crossover_row(struct experiment_record *rec, const char *pl, const char *name,
                             const uint32_t *counts, uint32_t n)
{
    uint32_t j, from = 0, most = 0;
    struct result_point *sum;
    for (j = 0; j < n; j++) {
        uint64_t a = placed_p50(rec, pl, "invlpgb", counts[j]);
        uint64_t b = placed_p50(rec, pl, "ipi", counts[j]);
        if (!a || !b)
            continue;
        most = counts[j];
        if (a >= b)
            from = 0; /* a loss ends every win below it */
        else if (!from)
            from = counts[j];
    }
    if (!most || !(sum = point_list_add(&rec->summary)))
        return;
    point_param_str(sum, "placement", name);
    point_param_num(sum, "pages", 1);
    if (from)
        point_value(sum, "cpus_from", (int64_t)from * 1000);
    point_value(sum, "cpus_max", (int64_t)most * 1000);
}
