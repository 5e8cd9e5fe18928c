#include "reports/tool/views/ipi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/vocab.h"

static bool numeric_param(const struct m_point *p, const char *key, long long *out)
{
    const struct m_param *v = model_param(p, key);
    if (!v || v->str || !isfinite(v->num) || v->num < 0 || v->num > 1e9)
        return false;
    *out = (long long)v->num;
    return true;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

static const struct m_report *sort_report; /* qsort has no context argument in C11 */

static int cmp_topology(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    const struct m_cpu *cx = model_cpu(sort_report, x), *cy = model_cpu(sort_report, y);
    if (cx && cy) {
        if (cx->package != cy->package)
            return cx->package < cy->package ? -1 : 1;
        if (cx->core != cy->core)
            return cx->core < cy->core ? -1 : 1;
        if (cx->thread != cy->thread)
            return cx->thread < cy->thread ? -1 : 1;
    } else if (cx || cy) {
        return cx ? -1 : 1; /* CPUs the topology does not know go last */
    }
    return cmp_ll(a, b);
}

static long long position_of(const long long *by_index, const size_t *pos, size_t n, long long cpu)
{
    const long long *hit = bsearch(&cpu, by_index, n, sizeof(*by_index), cmp_ll);
    return hit ? (long long)pos[hit - by_index] : -1;
}

bool ipi_matrix_build(const struct m_report *r, const struct m_experiment *e, size_t max_cpus,
                      struct ipi_matrix *out)
{
    size_t i, j, n = 0, k = 0, *pos = NULL;
    long long *by_index = NULL, a, b;
    memset(out, 0, sizeof(*out));
    out->lo = out->hi = NAN;
    if (!e->results.count)
        return true;
    by_index = calloc(e->results.count * 2, sizeof(*by_index));
    if (!by_index)
        return false;
    for (i = 0; i < e->results.count; i++) {
        const struct m_point *p = &e->results.items[i];
        if (numeric_param(p, "initiator", &a) && numeric_param(p, "target", &b)) {
            by_index[k++] = a;
            by_index[k++] = b;
        }
    }
    qsort(by_index, k, sizeof(*by_index), cmp_ll);
    for (i = 0; i < k; i++)
        if (n == 0 || by_index[i] != by_index[n - 1])
            by_index[n++] = by_index[i];
    out->participants = n;
    if (!n || n > max_cpus) {
        free(by_index);
        return true;
    }
    out->cpu = malloc(n * sizeof(*out->cpu));
    pos = malloc(n * sizeof(*pos));
    out->p50 = malloc(n * n * sizeof(*out->p50));
    if (!out->cpu || !pos || !out->p50) {
        free(by_index);
        free(pos);
        ipi_matrix_free(out);
        return false;
    }
    out->n = n;
    memcpy(out->cpu, by_index, n * sizeof(*out->cpu));
    sort_report = r;
    qsort(out->cpu, n, sizeof(*out->cpu), cmp_topology);
    for (i = 0; i < n; i++) /* where each CPU (in index order) sits in topology order */
        for (j = 0; j < n; j++)
            if (out->cpu[j] == by_index[i])
                pos[i] = j;
    for (i = 0; i < n * n; i++)
        out->p50[i] = NAN;
    for (i = 0; i < e->results.count; i++) {
        const struct m_point *p = &e->results.items[i];
        const struct m_metric *m = model_primary_metric(p);
        long long pa, pb;
        if (!m || !isfinite(m->st.p50) || !numeric_param(p, "initiator", &a) ||
            !numeric_param(p, "target", &b))
            continue;
        pa = position_of(by_index, pos, n, a);
        pb = position_of(by_index, pos, n, b);
        if (pa < 0 || pb < 0)
            continue;
        out->p50[pa * (long long)n + pb] = m->st.p50;
        if (isnan(out->lo) || m->st.p50 < out->lo)
            out->lo = m->st.p50;
        if (isnan(out->hi) || m->st.p50 > out->hi)
            out->hi = m->st.p50;
    }
    free(by_index);
    free(pos);
    return true;
}

void ipi_matrix_free(struct ipi_matrix *m)
{
    free(m->cpu);
    free(m->p50);
    memset(m, 0, sizeof(*m));
}

const char *ipi_cpu_label(const struct m_report *r, long long cpu, bool topo, char *buf,
                          size_t cap)
{
    const struct m_cpu *c = topo ? model_cpu(r, cpu) : NULL;
    if (c && c->package >= 0)
        snprintf(buf, cap, "%lld (%lld/%lld/%lld)", cpu, c->package, c->core, c->thread);
    else
        snprintf(buf, cap, "%lld", cpu);
    return buf;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Lower median: like the reports' nearest-rank p50, it is a measured value. */
static double median(double *v, size_t n)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof(*v), cmp_double);
    return v[(n - 1) / 2];
}

static size_t class_slot(struct ipi_class_row *rows, size_t *nrows, const char *cls)
{
    size_t i;
    for (i = 0; i < *nrows; i++)
        if (strcmp(rows[i].cls, cls) == 0)
            return i;
    if (*nrows >= IPI_MAX_CLASSES)
        return (size_t)-1;
    memset(&rows[*nrows], 0, sizeof(rows[0]));
    rows[*nrows].cls = cls;
    rows[*nrows].p50 = rows[*nrows].p99 = NAN;
    return (*nrows)++;
}

static int cmp_class_row(const void *a, const void *b)
{
    const struct ipi_class_row *x = a, *y = b;
    int rx = vocab_class_rank(x->cls), ry = vocab_class_rank(y->cls);
    return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x->cls, y->cls);
}

static void aggregate_results(const struct m_experiment *e, struct ipi_class_row *row)
{
    double *p50 = malloc(e->results.count * sizeof(double) + 1);
    double *p99 = malloc(e->results.count * sizeof(double) + 1);
    size_t i, n = 0, n99 = 0;
    if (p50 && p99) {
        for (i = 0; i < e->results.count; i++) {
            const struct m_point *p = &e->results.items[i];
            const struct m_param *c = model_param(p, "class");
            const struct m_metric *m = model_primary_metric(p);
            bool mine = strcmp(row->cls, IPI_ALL_PAIRS) == 0 ||
                        (c && c->str && strcmp(c->str, row->cls) == 0);
            /* a p99 is NaN below 100 samples (model.h): the pair's p50 still counts */
            if (mine && m && isfinite(m->st.p50)) {
                p50[n++] = m->st.p50;
                if (isfinite(m->st.p99))
                    p99[n99++] = m->st.p99;
            }
        }
        row->p50 = median(p50, n);
        row->p99 = median(p99, n99);
    }
    free(p50);
    free(p99);
}

size_t ipi_class_rows(const struct m_experiment *e, struct ipi_class_row rows[IPI_MAX_CLASSES])
{
    size_t i, n = 0, slot;
    for (i = 0; i < e->summary.count; i++) {
        const struct m_point *p = &e->summary.items[i];
        const struct m_param *c = model_param(p, "class");
        const struct m_metric *m = model_primary_metric(p);
        if (!c || !c->str || !m || (slot = class_slot(rows, &n, c->str)) == (size_t)-1)
            continue;
        rows[slot].p50 = m->st.p50;
        rows[slot].p99 = m->st.p99;
        rows[slot].from_summary = true;
    }
    for (i = 0; i < e->results.count; i++) {
        const struct m_param *c = model_param(&e->results.items[i], "class");
        if (c && c->str && (slot = class_slot(rows, &n, c->str)) != (size_t)-1)
            rows[slot].pairs++;
    }
    for (i = 0; i < n; i++)
        if (!rows[i].from_summary)
            aggregate_results(e, &rows[i]);
    qsort(rows, n, sizeof(rows[0]), cmp_class_row);
    if (n == 0)
        return ipi_all_pairs_row(e, &rows[0]);
    return n;
}

size_t ipi_all_pairs_row(const struct m_experiment *e, struct ipi_class_row *row)
{
    memset(row, 0, sizeof(*row));
    row->cls = IPI_ALL_PAIRS;
    row->pairs = e->results.count;
    if (!row->pairs)
        return 0;
    aggregate_results(e, row);
    return 1;
}
