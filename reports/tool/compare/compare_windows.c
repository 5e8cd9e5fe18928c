#include "reports/tool/compare/compare_windows.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A report's steady window (ms) and windows a point; false when it has no steady point. */
static bool steady_window(const struct m_report *r, double *ms, double *windows)
{
    const struct m_experiment *e = model_experiment(r, "shootdown_contention");
    size_t i;
    bool any = false;
    *ms = 0;
    *windows = 1; /* reports before issue 32: one window a point */
    for (i = 0; e && i < e->results.count; i++) {
        const struct m_point *p = &e->results.items[i];
        const char *measure = model_param_string(p, "measure");
        double w = model_value(p, "window_ms"), k = model_value(p, "windows");
        if (!measure || strcmp(measure, "steady") != 0 || !isfinite(w))
            continue;
        /* the loop overruns its window (a shootdown, the host): the shortest is the closest */
        if (!any || w < *ms)
            *ms = w;
        any = true;
        if (isfinite(k))
            *windows = k;
    }
    return any;
}

bool compare_window_warning(const struct m_report *const *reports, size_t n, char *buf,
                            size_t cap)
{
    double lo = 0, hi = 0, ms, k, k0 = 0;
    size_t i, lo_i = 0, hi_i = 0, seen = 0;
    bool counts_differ = false;
    for (i = 0; i < n; i++) {
        if (!steady_window(reports[i], &ms, &k))
            continue;
        if (!seen || ms < lo) {
            lo = ms;
            lo_i = i;
        }
        if (!seen || ms > hi) {
            hi = ms;
            hi_i = i;
        }
        counts_differ |= seen && k != k0;
        k0 = seen ? k0 : k;
        seen++;
    }
    if (seen < 2 || (hi <= lo * 1.1 && !counts_differ))
        return false;
    snprintf(buf, cap,
             "shootdown_contention's steady windows differ: %s %.0f ms, %s %.0f ms%s; its "
             "shootdowns_per_s are rates over different windows (contention_window_ms sets one "
             "length for every run)",
             reports[lo_i]->label, lo, reports[hi_i]->label, hi,
             counts_differ ? ", and not the same number of windows a point" : "");
    return true;
}
