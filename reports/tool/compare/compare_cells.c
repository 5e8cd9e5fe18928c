/*
 * One side's runs of a point collected into a cell (compare_cells.h): the
 * medians of the runs' p50 and p99, in ticks or nanoseconds, the range of
 * their p50s, and the first run's p50_ci95 for a cell of one run.
 */
#include "reports/tool/compare/compare_cells.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/units.h"

static double in_unit(const struct cmp_model *m, const struct m_report *r, double ticks)
{
    return m->in_ns ? model_ticks_to_ns(r, ticks) : ticks;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Lower median, like the reports' nearest-rank p50: a value one run measured. */
/* The median of the finite values (a p99 is NaN where a run had too few samples); NaN if none. */
static double median(double *v, size_t n)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[k++] = v[i];
    if (!k)
        return NAN;
    qsort(v, k, sizeof(*v), cmp_double);
    return v[(k - 1) / 2];
}


void cell_acc_add(const struct cmp_model *m, struct cell_acc *a, size_t run,
                  const struct m_experiment *e, double p50, double p99)
{
    if (!a->n)
        a->ci_lo = a->ci_hi = NAN;
    a->p50[a->n] = in_unit(m, m->all[run], p50);
    a->p99[a->n] = in_unit(m, m->all[run], p99);
    a->n++;
    a->emulated |= e->emulated;
}

/* A metric's point: its p50 and p99, and its p50_ci95 where the report has one. */
void cell_acc_add_metric(const struct cmp_model *m, struct cell_acc *a, size_t run,
                         const struct m_experiment *e, const struct m_stats *st)
{
    bool first = !a->n;
    cell_acc_add(m, a, run, e, st->p50, st->p99);
    if (first) {
        a->ci_lo = in_unit(m, m->all[run], st->p50_lo);
        a->ci_hi = in_unit(m, m->all[run], st->p50_hi);
    }
}

void cell_acc_finish(const struct cmp_model *m, size_t side, struct cell_acc *a,
                     struct cmp_cell *c)
{
    const struct m_report *r = m->reports[side];
    size_t k;
    memset(c, 0, sizeof(*c));
    if (!a->n)
        return;
    c->present = true;
    c->runs = a->n;
    c->p50_lo = c->p50_hi = a->p50[0];
    for (k = 1; k < a->n; k++) {
        if (a->p50[k] < c->p50_lo)
            c->p50_lo = a->p50[k];
        if (a->p50[k] > c->p50_hi)
            c->p50_hi = a->p50[k];
    }
    c->p50 = median(a->p50, a->n);
    c->p99 = median(a->p99, a->n);
    c->virtualised = r->virtualised;
    c->emulated = a->emulated;
    c->simulated = r->simulated;
    /* one run: the interval of its p50 from its own samples; several: their range (compare.h) */
    c->ci_lo = a->n == 1 ? a->ci_lo : NAN;
    c->ci_hi = a->n == 1 ? a->ci_hi : NAN;
    a->n = 0;
    a->emulated = false;
}

bool cell_acc_init(const struct cmp_model *m, struct cell_acc *a)
{
    memset(a, 0, sizeof(*a));
    a->p50 = calloc(m->nall ? m->nall : 1, sizeof(double));
    a->p99 = calloc(m->nall ? m->nall : 1, sizeof(double));
    return a->p50 && a->p99;
}

void cell_acc_free(struct cell_acc *a)
{
    free(a->p50);
    free(a->p99);
}
