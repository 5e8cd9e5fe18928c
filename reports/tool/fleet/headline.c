#include "reports/tool/fleet/headline.h"

#include <math.h>
#include <stdio.h>
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

/* ipi_roundtrip's summary: one p50 per topology class. */
static void ipi_classes(const struct m_report *r, const char *run_env, headline_fn fn, void *ctx)
{
    const struct m_experiment *e = model_experiment(r, "ipi_roundtrip");
    size_t i;
    if (!e)
        return;
    for (i = 0; i < e->summary.count; i++) {
        const struct m_point *p = &e->summary.items[i];
        const char *cls = model_param_string(p, "class");
        const struct m_metric *m = model_metric(p, "latency");
        if (cls && m && m->st.present && m->st.n > 0)
            emit(fn, ctx, r, "ipi_roundtrip", cls, exp_environment(r, e, run_env), m->st.p50,
                 "ticks", "pooled over the class's pairs");
    }
}

/* shootdown_seq_vs_conc: the concurrent point of `pages` on the most targets. */
static void shootdown_at(const struct m_report *r, const char *run_env, double pages,
                         const char *figure, headline_fn fn, void *ctx)
{
    const struct m_experiment *e = model_experiment(r, "shootdown_seq_vs_conc");
    const struct m_point *best = NULL;
    double best_targets = -1;
    char detail[96];
    size_t i;
    if (!e || !isfinite(pages))
        return;
    for (i = 0; i < e->results.count; i++) {
        const struct m_point *p = &e->results.items[i];
        const char *mode = model_param_string(p, "mode");
        double t = model_param_number(p, "targets");
        const struct m_metric *m = model_metric(p, "latency");
        if (mode && strcmp(mode, "conc") == 0 && model_param_number(p, "pages") == pages &&
            m && m->st.present && m->st.n > 0 && t > best_targets) {
            best = p;
            best_targets = t;
        }
    }
    if (!best)
        return;
    snprintf(detail, sizeof(detail), "conc, %.0f targets, %.0f page%s", best_targets, pages,
             pages == 1 ? "" : "s");
    emit(fn, ctx, r, figure, "", exp_environment(r, e, run_env),
         model_metric(best, "latency")->st.p50, "ticks", detail);
}

/*
 * flush_ceiling's summary: p* per kind (local, shootdown), from the contiguous curve
 * with the largest working set (512 pages: what the recommended ceiling rests on),
 * then the most targets; the cold scattered form is a different question.
 */
static void p_stars(const struct m_report *r, const char *run_env, headline_fn fn, void *ctx)
{
    const struct m_experiment *e = model_experiment(r, "flush_ceiling");
    static const char *const kinds[] = { "local", "shootdown" };
    char detail[96];
    size_t i, k;
    if (!e)
        return;
    for (k = 0; k < 2; k++) {
        const struct m_point *best = NULL;
        double best_ws = -1, best_t = -1;
        for (i = 0; i < e->summary.count; i++) {
            const struct m_point *p = &e->summary.items[i];
            const char *kind = model_param_string(p, "kind");
            const char *form = model_param_string(p, "working_set_form");
            double ws = model_param_number(p, "working_set"), t = model_param_number(p, "targets");
            ws = isfinite(ws) ? ws : 0;
            t = isfinite(t) ? t : 0;
            if (!kind || strcmp(kind, kinds[k]) != 0 || (form && strcmp(form, "contiguous") != 0) ||
                !isfinite(model_value(p, "p_star")))
                continue;
            if (ws > best_ws || (ws == best_ws && t > best_t)) {
                best = p;
                best_ws = ws;
                best_t = t;
            }
        }
        if (!best)
            continue;
        snprintf(detail, sizeof(detail), "%.0f targets, working set %.0f pages", best_t, best_ws);
        emit(fn, ctx, r, "p_star", kinds[k], exp_environment(r, e, run_env),
             model_value(best, "p_star"), "pages", detail);
    }
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

void headlines_of_report(const struct m_report *r, const char *run_environment, headline_fn fn,
                         void *ctx)
{
    ipi_classes(r, run_environment, fn, ctx);
    shootdown_at(r, run_environment, 1, "shootdown_1page", fn, ctx);
    if (r->flush_ceiling > 1)
        shootdown_at(r, run_environment, (double)r->flush_ceiling, "shootdown_ceiling", fn, ctx);
    p_stars(r, run_environment, fn, ctx);
    recommended(r, run_environment, fn, ctx);
}
