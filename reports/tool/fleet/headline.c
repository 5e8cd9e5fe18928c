#include "reports/tool/fleet/headline.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/model/jget.h"

const struct headline_figure headline_figures[] = {
    { "ipi_roundtrip", "IPI round trip p50 (by topology class)", "ticks", true },
    { "shootdown_1page", "one-page shootdown p50 (concurrent, most targets)", "ticks", true },
    { "shootdown_ceiling", "shootdown at the flush ceiling p50 (concurrent, most targets)",
      "ticks", true },
    { "p_star", "flush ceiling p* (full flush cheaper from)", "pages", false },
    { "ceiling_recommended", "recommended flush ceiling", "pages", false },
    { "invlpgb_crossover", "INVLPGB wins up to", "pages", false },
    { "invlpgb_cpus_from", "INVLPGB wins from (CPUs)", "cpus", true },
    { "lazy_saving", "lazy CPUs skipped: saving", "ticks", false },
    { "conc_saving", "concurrent order: saving", "percent", false },
};
const size_t headline_nfigures = sizeof(headline_figures) / sizeof(headline_figures[0]);

const char *headline_run_environment(const struct m_report *r)
{
    if (r->simulated && !MUTANT(fleet_simulated_as_hardware))
        return "simulated";
    if (r->machine_emulated)
        return "emulated";
    return r->virtualised ? "virtualised" : "hardware";
}

static const char *exp_environment(const struct m_report *r, const struct m_experiment *e,
                                   const char *run_env)
{
    return !r->simulated && e && e->emulated ? "emulated" : run_env;
}

static double to_ns(const struct m_report *r, double ticks)
{
    return r->tsc_hz > 0 && isfinite(ticks) ? ticks * 1e9 / r->tsc_hz : NAN;
}

static void emit(headline_fn fn, void *ctx, const struct m_report *r, const char *figure,
                 const char *cls, const char *env, double value, const char *unit,
                 const char *detail)
{
    struct headline h = { figure, cls, env, value, unit,
                          strcmp(unit, "ticks") == 0 ? to_ns(r, value) : NAN, detail };
    if (isfinite(value))
        fn(ctx, &h);
}

/* The first experiment of an id, and where it is in the document (SIZE_MAX: none). */
static size_t index_of(const struct m_report *r, const char *id, const struct m_experiment **e)
{
    const json_t *exps = json_object_get(r->root, "experiments");
    size_t i;
    *e = model_experiment(r, id);
    for (i = 0; *e && i < json_array_size(exps); i++)
        if (json_array_get(exps, i) == (*e)->json)
            return i;
    *e = NULL;
    return SIZE_MAX;
}

void headline_scan_init(struct headline_scan *h, const struct m_report *r)
{
    int k;
    memset(h, 0, sizeof(*h));
    h->r = r;
    h->ipi_at = index_of(r, "ipi_roundtrip", &h->ipi);
    h->seq_conc_at = index_of(r, "shootdown_seq_vs_conc", &h->seq_conc);
    h->ceiling_at = index_of(r, "flush_ceiling", &h->ceiling);
    h->pages[0] = 1;
    h->pages[1] = r->flush_ceiling > 1 ? (double)r->flush_ceiling : NAN;
    for (k = 0; k < 2; k++) {
        h->best_targets[k] = h->best_ws[k] = h->best_t[k] = -1;
        h->best_p50[k] = h->best_p[k] = NAN;
    }
}

/* A metric with samples (the model's present and n > 0): its p50, else NaN. */
static double metric_p50(const json_t *point, const char *name)
{
    const json_t *m = jget_object(jget_object(point, "metrics"), name);
    return m && jget_number(m, "n", NAN) > 0 ? jget_number(m, "p50", NAN) : NAN;
}

/* ipi_roundtrip's summary: one p50 per topology class, in the report's order. */
static void see_ipi_class(struct headline_scan *h, const json_t *p)
{
    const char *cls = jget_string(jget_object(p, "params"), "class");
    double p50 = metric_p50(p, "latency");
    struct headline_class *grown;
    if (!cls || isnan(p50))
        return;
    if (!(grown = realloc(h->classes, (h->nclasses + 1) * sizeof(*grown))))
        return;
    h->classes = grown;
    if ((grown[h->nclasses].cls = strdup(cls))) {
        grown[h->nclasses].p50 = p50;
        h->nclasses++;
    }
}

/* shootdown_seq_vs_conc: the concurrent point of 1 page, and of the ceiling, on the most
 * targets. */
static void see_shootdown(struct headline_scan *h, const json_t *p)
{
    const json_t *params = jget_object(p, "params");
    const json_t *lat = jget_object(jget_object(p, "metrics"), "latency");
    const char *mode = jget_string(params, "mode");
    double t = jget_number(params, "targets", NAN), pages = jget_number(params, "pages", NAN);
    int k;
    if (!mode || strcmp(mode, "conc") != 0 || !lat || !(jget_number(lat, "n", NAN) > 0))
        return;
    for (k = 0; k < 2; k++) {
        if (pages == h->pages[k] && t > h->best_targets[k]) {
            h->best_p50[k] = jget_number(lat, "p50", NAN);
            h->best_targets[k] = t;
        }
    }
}

/*
 * flush_ceiling's summary: p* per kind (local, shootdown), from the contiguous curve
 * with the largest working set (512 pages: what the recommended ceiling rests on),
 * then the most targets; the cold scattered form is a different question.
 */
static void see_p_star(struct headline_scan *h, const json_t *p)
{
    static const char *const kinds[] = { "local", "shootdown" };
    const json_t *params = jget_object(p, "params");
    const char *kind = jget_string(params, "kind");
    const char *form = jget_string(params, "working_set_form");
    double ws = jget_number(params, "working_set", NAN), t = jget_number(params, "targets", NAN);
    double p_star = jget_number(jget_object(p, "values"), "p_star", NAN);
    int k;
    ws = isfinite(ws) ? ws : 0;
    t = isfinite(t) ? t : 0;
    if (!kind || (form && strcmp(form, "contiguous") != 0) || !isfinite(p_star))
        return;
    for (k = 0; k < 2; k++) {
        if (strcmp(kind, kinds[k]) != 0)
            continue;
        if (ws > h->best_ws[k] || (ws == h->best_ws[k] && t > h->best_t[k])) {
            h->best_p[k] = p_star;
            h->best_ws[k] = ws;
            h->best_t[k] = t;
        }
    }
}

void headline_scan_point(struct headline_scan *h, size_t exp, const char *section,
                         const json_t *point)
{
    bool summary = strcmp(section, "summary") == 0;
    if (exp == h->ipi_at && summary)
        see_ipi_class(h, point);
    else if (exp == h->seq_conc_at && !summary)
        see_shootdown(h, point);
    else if (exp == h->ceiling_at && summary)
        see_p_star(h, point);
}

/* The recommendations that carry a figure, when the run had enough evidence for them. */
static void recommended(const struct m_report *r, const char *run_env, headline_fn fn, void *ctx)
{
    static const struct {
        const char *rec, *figure;
    } map[] = {
        { "flush_ceiling", "ceiling_recommended" },
        { "invlpgb_vs_ipi", "invlpgb_crossover" },
        { "lazy_skip", "lazy_saving" },
        { "shootdown_order", "conc_saving" },
    };
    const json_t *entries = json_object_get(json_object_get(r->root, "recommendations"),
                                            "entries");
    const json_t *e;
    size_t i, k;
    json_array_foreach(entries, i, e) {
        const char *id = jget_string(e, "id"), *status = jget_string(e, "status");
        const char *env = jget_string(e, "environment"), *unit = jget_string(e, "unit");
        const char *verdict = jget_string(e, "verdict");
        double v = jget_number(e, "value", NAN);
        if (!id || !status || strcmp(status, "recommended") != 0)
            continue;
        /* the entry's own label, but a simulated run stays simulated */
        env = r->simulated || !env ? run_env : env;
        for (k = 0; k < sizeof(map) / sizeof(map[0]); k++)
            if (strcmp(id, map[k].rec) == 0)
                emit(fn, ctx, r, map[k].figure, "", env, v, unit ? unit : "", verdict);
        if (strcmp(id, "invlpgb_vs_ipi") == 0)
            emit(fn, ctx, r, "invlpgb_cpus_from", "", env, jget_number(e, "cpus_from", NAN), "cpus",
                 verdict);
    }
}

void headline_scan_emit(const struct headline_scan *h, const char *run_environment,
                        headline_fn fn, void *ctx)
{
    static const char *const figures[] = { "shootdown_1page", "shootdown_ceiling" };
    static const char *const kinds[] = { "local", "shootdown" };
    const struct m_report *r = h->r;
    char detail[96];
    size_t i;
    int k;
    for (i = 0; i < h->nclasses; i++)
        emit(fn, ctx, r, "ipi_roundtrip", h->classes[i].cls,
             exp_environment(r, h->ipi, run_environment), h->classes[i].p50, "ticks",
             "pooled over the class's pairs");
    for (k = 0; k < 2; k++) {
        if (h->best_targets[k] < 0)
            continue;
        snprintf(detail, sizeof(detail), "conc, %.0f targets, %.0f page%s", h->best_targets[k],
                 h->pages[k], h->pages[k] == 1 ? "" : "s");
        emit(fn, ctx, r, figures[k], "", exp_environment(r, h->seq_conc, run_environment),
             h->best_p50[k], "ticks", detail);
    }
    for (k = 0; k < 2; k++) {
        if (isnan(h->best_p[k]))
            continue;
        snprintf(detail, sizeof(detail), "%.0f targets, working set %.0f pages", h->best_t[k],
                 h->best_ws[k]);
        emit(fn, ctx, r, "p_star", kinds[k], exp_environment(r, h->ceiling, run_environment),
             h->best_p[k], "pages", detail);
    }
    recommended(r, run_environment, fn, ctx);
}

void headline_scan_free(struct headline_scan *h)
{
    size_t i;
    for (i = 0; i < h->nclasses; i++)
        free(h->classes[i].cls);
    free(h->classes);
    h->classes = NULL;
    h->nclasses = 0;
}
