/*
 * The comparison model: the reports' sides, one section per experiment any
 * side ran (its rows: compare_rows.c), each section's base, the machines the
 * sides ran on, and freeing it all. Verdicts: compare_verdict.c; checks over
 * the whole model: compare_checks.c.
 */
#include "reports/tool/compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_rows.h"
#include "reports/tool/compare/compare_roles.h"
#include "reports/tool/compare/compare_where.h"
#include "reports/tool/views/ipi.h"
#include "reports/tool/model/cpu_roles.h"
#include "reports/tool/model/param_defaults.h"
#include "reports/tool/model/point_index.h"
#include "reports/tool/model/units.h"
#include "reports/tool/model/vocab.h"

bool compare_is_hardware(const struct m_report *r)
{
    return !r->virtualised && !r->emulated && !r->simulated;
}

bool compare_mixes_simulated(struct m_report *const *reports, size_t n)
{
    size_t i, simulated = 0;
    for (i = 0; i < n; i++)
        simulated += reports[i]->simulated;
    return simulated > 0 && simulated < n;
}

const char *compare_flags(const struct cmp_cell *c)
{
    /* indexed by the flags as bits: virtualised 1, emulated 2, simulated 4 */
    static const char *const words[8] = {
        "", "virtualised", "emulated", "virtualised+emulated", "simulated",
        "virtualised+simulated", "simulated+emulated", "virtualised+simulated+emulated",
    };
    return words[(c->virtualised ? 1 : 0) | (c->emulated ? 2 : 0) | (c->simulated ? 4 : 0)];
}

size_t compare_side_runs(const struct cmp_model *m, size_t side)
{
    size_t r, n = 0;
    for (r = 0; r < m->nall; r++)
        n += m->side_of[r] == side;
    return n;
}

/*
 * Has an experiment before `e` (in an earlier report, or earlier in its own)
 * the same id? Then its section exists. Searching the sections instead made
 * compare quadratic in the number of experiments; model_experiment is O(log n).
 */
static bool seen_before(struct m_report *const *all, size_t report, const struct m_experiment *e)
{
    size_t i;
    if (model_experiment(all[report], e->id) != e)
        return true;
    for (i = 0; i < report; i++)
        if (model_experiment(all[i], e->id))
            return true;
    return false;
}

/* Does side i have a measured cell in some row of the section? */
bool compare_side_measured(const struct cmp_section *s, size_t i)
{
    size_t j;
    for (j = 0; j < s->nrows; j++)
        if (s->rows[j].cells[i].present)
            return true;
    return false;
}

/* The section's base: the baseline, or the first side that measured it (compare.h). */
static void set_base(const struct cmp_model *m, struct cmp_section *s)
{
    size_t i, j, b = m->opts.baseline < m->nreports ? m->opts.baseline : 0;
    for (i = 0; i < m->nreports && !compare_side_measured(s, i); i++)
        ;
    s->base = compare_side_measured(s, b) ? b : i < m->nreports ? i : b;
    if (MUTANT(base_always_first))
        s->base = 0;
    for (j = 0; j < s->nrows; j++) {
        s->rows[j].base = s->base;
        s->rows[j].band = m->opts.threshold;
    }
}

static void section_free(struct cmp_section *s)
{
    size_t j;
    for (j = 0; s->rows && j < s->nrows; j++)
        free(s->rows[j].cells);
    free(s->rows);
    free(s->exp);
    free(s->role_vals);
    group_tuples_free(&s->tuples);
    for (j = 0; s->vrows && j < s->nvrows; j++)
        free(s->vrows[j].v);
    free(s->vrows);
    group_tuples_free(&s->vtuples);
    memset(s, 0, sizeof(*s));
}

static bool add_section(struct cmp_model *m, const struct m_experiment *e)
{
    struct cmp_section *s = &m->sections[m->nsections];
    size_t i;
    memset(s, 0, sizeof(*s));
    s->id = e->id;
    s->title = e->title;
    s->exp = calloc(m->nreports, sizeof(*s->exp));
    if (!s->exp)
        return false;
    m->nsections++;
    for (i = 0; i < m->nreports; i++)
        s->exp[i] = model_experiment(m->reports[i], e->id);
    s->by_class = strcmp(e->id, IPI_EXPERIMENT) == 0;
    if (!(s->by_class ? compare_build_class_rows(m, s) : compare_build_point_rows(m, s)))
        return false;
    if (m->opts.nwhere && !compare_where_applies(m, s)) { /* --where names no parameter of it */
        section_free(s);
        m->nsections--;
        return true;
    }
    if (!compare_build_value_rows(m, s))
        return false;
    if (m->opts.nwhere)
        compare_where_rows(m, s);
    set_base(m, s);
    return true;
}

/* Numbers the machines: reports with equal machine keys share one. */
static bool group_machines(struct cmp_model *m)
{
    size_t i, j;
    int next = 0;
    if (!(m->machine = calloc(m->nreports ? m->nreports : 1, sizeof(*m->machine))))
        return false;
    for (i = 0; i < m->nreports; i++) {
        const char *key = m->reports[i]->machine_key;
        if (!key)
            continue;
        for (j = 0; j < i && !m->machine[i]; j++) {
            if (m->reports[j]->machine_key && strcmp(m->reports[j]->machine_key, key) == 0) {
                m->machine[i] = m->machine[j];
                m->machine_repeats = true;
            }
        }
        if (!m->machine[i])
            m->machine[i] = ++next;
    }
    return true;
}

const char *compare_machine_label(const struct cmp_model *m, size_t report, char *buf, size_t cap)
{
    if (m->machine && report < m->nreports && m->machine[report])
        snprintf(buf, cap, "M%d", m->machine[report]);
    else
        snprintf(buf, cap, "-");
    return buf;
}

const char *compare_same_machine(const struct cmp_model *m, size_t report, char *buf, size_t cap)
{
    size_t i, n = 0, len = 0;
    buf[0] = '\0';
    if (!m->machine || report >= m->nreports || !m->machine[report])
        return buf;
    for (i = 0; i < m->nreports; i++) {
        if (m->machine[i] != m->machine[report])
            continue;
        if (n++ == 0 && i != report)
            return buf; /* the group is listed at its first report */
        snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", m->reports[i]->label);
        len = strlen(buf);
    }
    if (n < 2)
        buf[0] = '\0';
    return buf;
}

/* Some ratio of the comparison has an interval (compare_ratio_interval). */
static bool any_interval(const struct cmp_model *m)
{
    size_t k, j, i;
    double lo, hi;
    for (k = 0; k < m->nsections; k++)
        for (j = 0; j < m->sections[k].nrows; j++)
            for (i = 0; i < m->nreports; i++)
                if (compare_ratio_range(&m->sections[k].rows[j], i, &lo, &hi))
                    return true;
    return false;
}

static bool wanted(const struct cmp_model *m, const char *id)
{
    size_t i;
    if (!m->opts.nexperiments)
        return true;
    for (i = 0; i < m->opts.nexperiments; i++)
        if (strcmp(m->opts.experiments[i], id) == 0)
            return true;
    return false;
}

bool compare_build_pooled(struct m_report *const *all, const size_t *side_of, size_t nall,
                          size_t nsides, const struct cmp_options *opts, struct cmp_model *out)
{
    size_t i, j, total = 0, hw = 0;
    memset(out, 0, sizeof(*out));
    out->opts.fail_if_slower = NAN;
    out->opts.threshold = CMP_DEFAULT_THRESHOLD;
    if (opts)
        out->opts = *opts;
    out->all = all;
    out->nall = nall;
    out->side_of = calloc(nall ? nall : 1, sizeof(*out->side_of));
    out->owned = calloc(nsides ? nsides : 1, sizeof(*out->owned));
    if (!out->side_of || !out->owned) {
        compare_free(out);
        return false;
    }
    for (i = 0; i < nall; i++) {
        out->side_of[i] = side_of[i] < nsides ? side_of[i] : 0;
        if (!out->owned[out->side_of[i]])
            out->owned[out->side_of[i]] = all[i];
        else
            out->pooled = true;
    }
    for (i = 0; i < nsides; i++)
        if (!out->owned[i]) { /* an empty side: the caller's mistake */
            compare_free(out);
            return false;
        }
    out->reports = out->owned;
    out->nreports = nsides;
    if (!group_machines(out)) {
        compare_free(out);
        return false;
    }
    out->in_ns = nall > 0;
    for (i = 0; i < nall; i++) {
        out->in_ns &= all[i]->tsc_hz > 0;
        hw += compare_is_hardware(all[i]);
        total += all[i]->nexperiments;
    }
    out->mixed = hw > 0 && hw < nall;
    out->cross_arch = compare_arch_mixed(all, nall);
    if (!total)
        return true;
    /* points of older reports get the parameters later ones added, so that they align */
    if (out->opts.align_defaults && !MUTANT(no_param_defaults) &&
        !param_defaults_align(all, nall)) {
        compare_free(out);
        return false;
    }
    /* a parameter that names a CPU (the target of ipi_target_state) is a role: cpu_roles.h */
    if (out->opts.align_defaults && !cpu_roles_align(all, nall)) {
        compare_free(out);
        return false;
    }
    out->sections = calloc(total, sizeof(*out->sections));
    if (!out->sections) {
        compare_free(out);
        return false;
    }
    if (!(out->opts.threshold >= 0))
        out->opts.threshold = CMP_DEFAULT_THRESHOLD;
    /* sections in the order experiments first appear, report A first */
    for (i = 0; i < nall; i++) {
        for (j = 0; j < all[i]->nexperiments; j++) {
            const struct m_experiment *e = &all[i]->experiments[j];
            if (!e->id || !wanted(out, e->id) || seen_before(all, i, e) ||
                !compare_arch_keeps(out, e->id))
                continue;
            if (!add_section(out, e)) {
                compare_free(out);
                return false;
            }
        }
    }
    out->intervals = any_interval(out);
    return true;
}

bool compare_build(struct m_report *const *reports, size_t n, struct cmp_model *out)
{
    size_t *side = calloc(n ? n : 1, sizeof(*side)), i;
    bool ok;
    if (!side) {
        memset(out, 0, sizeof(*out));
        return false;
    }
    for (i = 0; i < n; i++)
        side[i] = i;
    ok = compare_build_pooled(reports, side, n, n, NULL, out);
    free(side);
    return ok;
}

void compare_free(struct cmp_model *m)
{
    size_t i;
    for (i = 0; i < m->nsections; i++)
        section_free(&m->sections[i]);
    free(m->sections);
    m->sections = NULL;
    m->nsections = 0;
    free(m->machine);
    m->machine = NULL;
    free(m->side_of);
    m->side_of = NULL;
    free(m->owned);
    m->owned = NULL;
}
