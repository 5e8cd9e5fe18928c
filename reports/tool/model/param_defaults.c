#include "reports/tool/model/param_defaults.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * How an added parameter's value is found for a point of an older report.
 * The rules restate reports/SCHEMA.md's "absent before" notes:
 * - shootdown_seq_vs_conc `flush` (issue 10): before it the points above the
 *   ceiling used the report's one full-flush method (`method.full_flush`,
 *   which older reports set to invpcid_single_context where INVPCID worked),
 *   and INVLPG up to it;
 * - invlpgb_range `path` (issue 20): every INVLPGB range was chunked, which
 *   up to the ceiling is what Linux runs (`linux`) and above it `chunked`;
 *   the IPI points were Linux's shootdown; `pti` (issue 20): off;
 * - pti_double_invalidation `working_set` (issue 20): the user PCID held
 *   nothing but the flushed pages, 0; `cpus` (when cpus= came): `local` ran
 *   on the initiator alone, 1, the shootdown kinds on every CPU the run had;
 * - flush_ceiling `working_set_form` (issue 20): only the contiguous form;
 * - shootdown_lazy `targets_doing` (issue 21): the targets waited (no busy
 *   row); the lazy CPUs spun then, where they idle now (`method.lazy_cpus`).
 * ipi_target_state's `settle_source`, `residency` and `residency_reason`
 * (issue 21) are evidence about a point, not what was measured: the reason
 * holds counter deltas, which differ from run to run on the same machine.
 * They are left out of the alignment (evidence_params), never defaulted.
 */
enum rule_kind {
    RULE_STRING,
    RULE_NUMBER,
    RULE_FLUSH_BY_CEILING,
    RULE_PATH_BY_CEILING,
    RULE_CPUS_BY_KIND,
};

struct param_rule {
    const char *experiment, *key;
    enum rule_kind kind;
    const char *str;
    double num;
    const char *meaning;
};

static const struct param_rule rules[] = {
    { "shootdown_seq_vs_conc", "flush", RULE_FLUSH_BY_CEILING, NULL, 0,
      "invlpg up to the ceiling, above it method.full_flush" },
    { "invlpgb_range", "path", RULE_PATH_BY_CEILING, NULL, 0,
      "linux up to the ceiling, chunked above it (every range was chunked)" },
    { "invlpgb_range", "pti", RULE_STRING, "off", 0, "off" },
    { "pti_double_invalidation", "working_set", RULE_NUMBER, NULL, 0,
      "0 (no user working set)" },
    { "pti_double_invalidation", "cpus", RULE_CPUS_BY_KIND, NULL, 0,
      "1 for local, every CPU for the shootdown kinds" },
    { "flush_ceiling", "working_set_form", RULE_STRING, "contiguous", 0,
      "contiguous (the only form)" },
    { "shootdown_lazy", "targets_doing", RULE_STRING, "wait", 0,
      "wait (no busy row; its lazy CPUs spun, see method.lazy_cpus)" },
};

static const struct { const char *experiment, *key; } evidence_params[] = {
    { "ipi_target_state", "settle_source" },
    { "ipi_target_state", "residency" },
    { "ipi_target_state", "residency_reason" },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

const char *param_default_meaning(const char *experiment, const char *key)
{
    size_t i;
    for (i = 0; i < NRULES; i++)
        if (strcmp(rules[i].experiment, experiment) == 0 && strcmp(rules[i].key, key) == 0)
            return rules[i].meaning;
    return NULL;
}

static bool points_have_key(const struct m_points *l, const char *key)
{
    size_t i;
    for (i = 0; i < l->count; i++)
        if (model_param(&l->items[i], key))
            return true;
    return false;
}

static bool experiment_has_key(const struct m_experiment *e, const char *key)
{
    return points_have_key(&e->results, key) || points_have_key(&e->summary, key);
}

/* The report's flush ceiling in pages: method.flush_ceiling, else 33 (Linux's default). */
static double ceiling_of(const struct m_report *r)
{
    return r->flush_ceiling > 0 ? (double)r->flush_ceiling : 33;
}

/* The rule's value for one point; false when the point gives no basis for it (no pages). */
static bool rule_value(const struct param_rule *rule, const struct m_report *r,
                       const struct m_point *p, struct m_param *out)
{
    double pages = model_param_number(p, "pages");
    const char *method = model_param_string(p, "method");
    out->key = rule->key;
    out->str = NULL;
    out->num = NAN;
    switch (rule->kind) {
    case RULE_STRING:
        out->str = rule->str;
        return true;
    case RULE_NUMBER:
        out->num = rule->num;
        return true;
    case RULE_FLUSH_BY_CEILING:
        if (isnan(pages))
            return false;
        out->str = pages <= ceiling_of(r) ? "invlpg" : r->full_flush ? r->full_flush : "cr3_reload";
        return true;
    case RULE_CPUS_BY_KIND: {
        const char *kind = model_param_string(p, "kind");
        long long cpus = r->cpus_ok > 0 ? r->cpus_ok : r->cpu_count;
        if (!kind || cpus <= 0)
            return false;
        out->num = strcmp(kind, "local") == 0 ? 1 : (double)cpus;
        return true;
    }
    case RULE_PATH_BY_CEILING:
        if (method && strcmp(method, "ipi") == 0) {
            out->str = "linux";
            return true;
        }
        if (isnan(pages))
            return false;
        out->str = pages <= ceiling_of(r) ? "linux" : "chunked";
        return true;
    }
    return false;
}

static bool fill_points(const struct param_rule *rule, const struct m_report *r,
                        struct m_points *l)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        struct m_point *p = &l->items[i];
        struct m_param v, *grown;
        if (!rule_value(rule, r, p, &v))
            continue;
        if (!(grown = realloc(p->params, (p->nparams + 1) * sizeof(*p->params))))
            return false;
        p->params = grown;
        p->params[p->nparams++] = v;
    }
    return true;
}

bool param_defaults_align(struct m_report *const *all, size_t n)
{
    size_t k, i;
    for (k = 0; k < sizeof(evidence_params) / sizeof(evidence_params[0]); k++) {
        for (i = 0; i < n; i++) {
            struct m_experiment *e = (struct m_experiment *)model_experiment(
                all[i], evidence_params[k].experiment);
            if (!e)
                continue;
            model_points_drop_param(&e->results, evidence_params[k].key);
            model_points_drop_param(&e->summary, evidence_params[k].key);
        }
    }
    for (k = 0; k < NRULES; k++) {
        const struct param_rule *rule = &rules[k];
        bool someone_has = false;
        for (i = 0; i < n && !someone_has; i++) {
            const struct m_experiment *e = model_experiment(all[i], rule->experiment);
            someone_has = e && experiment_has_key(e, rule->key);
        }
        if (!someone_has)
            continue;
        for (i = 0; i < n; i++) {
            struct m_experiment *e = (struct m_experiment *)model_experiment(all[i],
                                                                             rule->experiment);
            if (!e || experiment_has_key(e, rule->key) || !(e->results.count + e->summary.count))
                continue;
            if (e->ndefaulted < M_MAX_DEFAULTED)
                e->defaulted[e->ndefaulted++] = rule->key;
            if (!fill_points(rule, all[i], &e->results) || !fill_points(rule, all[i], &e->summary))
                return false;
        }
    }
    return true;
}
