/*
 * The headline figures of one report, the atlas's rows (docs/fleet.md, "The fleet
 * database", table `headlines`): what an engineer compares first between
 * CPU models. Each comes from points or recommendations the report holds;
 * a figure the report cannot back (an experiment it did not run, a
 * recommendation without enough evidence) is left out, never estimated.
 */
#ifndef TLBSCOPE_FLEET_HEADLINE_H
#define TLBSCOPE_FLEET_HEADLINE_H

#include <jansson.h>
#include <stddef.h>

#include "reports/tool/model/model.h"

struct headline {
    const char *figure;      /* one of headline_figures[].id */
    const char *cls;         /* topology class or curve kind; "" when the figure has none */
    const char *environment; /* the run's, or "emulated" when the experiment was */
    double value;            /* in unit */
    const char *unit;        /* "ticks", "pages", "cpus", "percent" */
    double value_ns;         /* ticks at the report's TSC rate; NaN when not a time or unknown */
    const char *detail;      /* which point it is, e.g. "conc, 7 targets" */
};

struct headline_figure {
    const char *id, *label, *unit;
    bool lower_is_better;
};
extern const struct headline_figure headline_figures[];
extern const size_t headline_nfigures;

typedef void (*headline_fn)(void *ctx, const struct headline *h);
/*
 * The figures are gathered as the report's points go by (import reads them
 * once, one at a time: split.h): init, every point of every experiment to
 * headline_scan_point, then emit calls fn once per figure the report backs
 * (run_environment: the run's, runs.environment).
 */
struct headline_class {
    char *cls;
    double p50;
};
struct headline_scan {
    const struct m_report *r;
    /* the first experiment of each id the figures come from, and its index (SIZE_MAX: none) */
    const struct m_experiment *ipi, *seq_conc, *ceiling;
    size_t ipi_at, seq_conc_at, ceiling_at;
    struct headline_class *classes; /* ipi_roundtrip's summary, in order */
    size_t nclasses;
    double pages[2]; /* 1 page, the flush ceiling (NaN when none above 1) */
    double best_targets[2], best_p50[2];       /* shootdown_1page, shootdown_ceiling */
    double best_ws[2], best_t[2], best_p[2];   /* p_star local, shootdown */
};
void headline_scan_init(struct headline_scan *h, const struct m_report *r);
void headline_scan_point(struct headline_scan *h, size_t exp, const char *section,
                         const json_t *point);
void headline_scan_emit(const struct headline_scan *h, const char *run_environment,
                        headline_fn fn, void *ctx);
void headline_scan_free(struct headline_scan *h);
/* hardware, virtualised, emulated or simulated: where the run happened. */
const char *headline_run_environment(const struct m_report *r);

#endif
