/*
 * Each ratio (a side's p50 over the base's), its interval and verdict, and
 * their words: what a row of a comparison says about a side against the
 * base (compare.h).
 */
#include "reports/tool/compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_roles.h"
#include "reports/tool/compare/compare_where.h"
#include "reports/tool/views/ipi.h"
#include "reports/tool/model/cpu_roles.h"
#include "reports/tool/model/param_defaults.h"
#include "reports/tool/model/point_index.h"
#include "reports/tool/model/units.h"
#include "reports/tool/model/vocab.h"

double compare_ratio(const struct cmp_row *row, size_t report)
{
    const struct cmp_cell *a = &row->cells[row->base], *b = &row->cells[report];
    if (report == row->base || !a->present || !b->present || !(a->p50 > 0))
        return NAN;
    return b->p50 / a->p50;
}

/* A cell's interval: its p50s' range over two runs or more, else its p50_ci95. */
static bool cell_interval(const struct cmp_cell *c, double *lo, double *hi)
{
    if (c->runs >= 2) {
        *lo = c->p50_lo;
        *hi = c->p50_hi;
        return true;
    }
    *lo = c->ci_lo;
    *hi = c->ci_hi;
    return isfinite(*lo) && isfinite(*hi);
}

enum cmp_interval compare_ratio_interval(const struct cmp_row *row, size_t side, double *lo,
                                         double *hi)
{
    const struct cmp_cell *a = &row->cells[row->base], *b = &row->cells[side];
    double alo, ahi, blo, bhi;
    *lo = *hi = NAN;
    if (side == row->base || !a->present || !b->present || !cell_interval(a, &alo, &ahi) ||
        !cell_interval(b, &blo, &bhi) || !(alo > 0))
        return CMP_IV_NONE;
    *lo = blo / ahi;
    *hi = bhi / alo;
    return a->runs >= 2 && b->runs >= 2 ? CMP_IV_RUNS
           : a->runs == 1 && b->runs == 1 ? CMP_IV_CI95 : CMP_IV_MIXED;
}

bool compare_ratio_range(const struct cmp_row *row, size_t side, double *lo, double *hi)
{
    return compare_ratio_interval(row, side, lo, hi) != CMP_IV_NONE;
}

const char *compare_interval_text(enum cmp_interval k)
{
    switch (k) {
    case CMP_IV_RUNS: return "range over the runs";
    case CMP_IV_CI95: return "interval from the p50s' 95% intervals";
    case CMP_IV_MIXED: return "interval from the runs' ranges and the p50s' 95% intervals";
    default: return "no interval";
    }
}

enum cmp_verdict compare_verdict(const struct cmp_row *row, size_t side)
{
    double lo, hi, q = compare_ratio(row, side), band;
    if (!isfinite(q))
        return CMP_NO_RATIO;
    if (!compare_ratio_range(row, side, &lo, &hi))
        return CMP_SPREAD_UNKNOWN;
    /* the interval on one side of 1 (not noise) and the ratio past the dead band (it matters) */
    band = MUTANT(verdict_without_band) ? 0 : row->band;
    if (lo > 1 && q > 1 + band)
        return CMP_SLOWER;
    if (hi < 1 && q < 1 - band)
        return CMP_FASTER;
    return CMP_NO_DIFFERENCE;
}

const char *compare_verdict_text(enum cmp_verdict v)
{
    switch (v) {
    case CMP_SPREAD_UNKNOWN: return "spread unknown";
    case CMP_FASTER: return "faster";
    case CMP_SLOWER: return "slower";
    case CMP_NO_DIFFERENCE: return "no difference";
    default: return "-";
    }
}

/* Without a spread, a ratio this far from 1 counts as a difference (--only-differences). */
#define CMP_UNKNOWN_SPREAD_BAND 0.10

bool compare_row_differs(const struct cmp_model *m, const struct cmp_row *row)
{
    size_t i;
    for (i = 0; i < m->nreports; i++) {
        enum cmp_verdict v = compare_verdict(row, i);
        double q = compare_ratio(row, i);
        if (v == CMP_SLOWER || v == CMP_FASTER ||
            (v == CMP_SPREAD_UNKNOWN && fabs(q - 1) > CMP_UNKNOWN_SPREAD_BAND))
            return true;
    }
    return false;
}

double compare_row_max_ratio(const struct cmp_model *m, const struct cmp_row *row)
{
    double best = NAN;
    size_t i;
    for (i = 0; i < m->nreports; i++) {
        double q = compare_ratio(row, i);
        if (isfinite(q) && !(q <= best))
            best = q;
    }
    return best;
}

bool compare_row_counts(const struct cmp_row *row, size_t side)
{
    const struct cmp_cell *a = &row->cells[row->base], *b = &row->cells[side];
    /* both sides' role stood for the same count: the value row of those points has this ratio */
    if (row->by_role && !MUTANT(role_rows_doubled) && a->role_of == b->role_of)
        return false;
    return !row->unmatched;
}

const char *compare_percent_text(double ratio, char *buf, size_t cap)
{
    double pct = (ratio - 1) * 100;
    if (!isfinite(ratio))
        snprintf(buf, cap, "%s", "");
    else if (fabs(pct) < 0.5)
        snprintf(buf, cap, "%s", "+0%");
    else
        snprintf(buf, cap, "%+.0f%%", pct);
    return buf;
}
