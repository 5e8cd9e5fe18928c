/*
 * The headline figures of one report, the atlas's rows (docs/fleet.md, "The fleet
 * database", table `headlines`): what an engineer compares first between
 * CPU models. Each comes from points or recommendations the report holds;
 * a figure the report cannot back (an experiment it did not run, a
 * recommendation without enough evidence) is left out, never estimated.
 */
#ifndef TLBSCOPE_FLEET_HEADLINE_H
#define TLBSCOPE_FLEET_HEADLINE_H

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
/* Calls fn once per figure the report backs; run_environment is the run's (runs.environment). */
void headlines_of_report(const struct m_report *r, const char *run_environment, headline_fn fn,
                         void *ctx);
/* hardware, virtualised, emulated or simulated: where the run happened. */
const char *headline_run_environment(const struct m_report *r);

#endif
