/*
 * Asking a built report model (model.h): an experiment by id, a point's
 * parameter, value or metric by name, a CPU by index, parameters compared
 * and printed, ticks in nanoseconds, and the machine, BIOS, simulation and
 * errata lines as text.
 */
#include "reports/tool/model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/jget.h"

const struct m_experiment *model_experiment(const struct m_report *r, const char *id)
{
    size_t lo = 0, hi = r->nby_id;
    if (!id)
        return NULL;
    while (lo < hi) { /* the lower bound: the first in report order among equal ids */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(r->by_id[mid]->id, id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->nby_id && strcmp(r->by_id[lo]->id, id) == 0 ? r->by_id[lo] : NULL;
}

const struct m_param *model_param(const struct m_point *p, const char *key)
{
    size_t i;
    for (i = 0; key && i < p->nparams; i++)
        if (strcmp(p->params[i].key, key) == 0)
            return &p->params[i];
    return NULL;
}

const char *model_param_string(const struct m_point *p, const char *key)
{
    const struct m_param *a = model_param(p, key);
    return a && a->str ? a->str : NULL;
}

double model_param_number(const struct m_point *p, const char *key)
{
    const struct m_param *a = model_param(p, key);
    return a && !a->str ? a->num : NAN;
}

double model_value(const struct m_point *p, const char *key)
{
    size_t i;
    for (i = 0; i < p->nvalues; i++)
        if (strcmp(p->values[i].key, key) == 0)
            return p->values[i].v;
    return NAN;
}

const struct m_metric *model_metric(const struct m_point *p, const char *name)
{
    size_t i;
    for (i = 0; i < p->nmetrics; i++)
        if (strcmp(p->metrics[i].name, name) == 0)
            return &p->metrics[i];
    return NULL;
}

const struct m_metric *model_primary_metric(const struct m_point *p)
{
    const struct m_metric *m = model_metric(p, "latency");
    return m ? m : p->nmetrics ? &p->metrics[0] : NULL;
}

const struct m_cpu *model_cpu(const struct m_report *r, long long index)
{
    size_t i;
    /* entries are dense (cpus[i].index == i) in a valid report; search otherwise */
    if (index >= 0 && (size_t)index < r->ncpus && r->cpus[index].index == index)
        return &r->cpus[index];
    for (i = 0; i < r->ncpus; i++)
        if (r->cpus[i].index == index)
            return &r->cpus[i];
    return NULL;
}

bool model_points_have_metrics(const struct m_points *l)
{
    size_t i;
    for (i = 0; l && i < l->count; i++)
        if (l->items[i].nmetrics)
            return true;
    return false;
}

void model_points_drop_param(struct m_points *l, const char *key)
{
    size_t i, j;
    for (i = 0; i < l->count; i++) {
        struct m_point *p = &l->items[i];
        for (j = 0; j < p->nparams; j++) {
            if (strcmp(p->params[j].key, key) == 0) {
                memmove(&p->params[j], &p->params[j + 1],
                        (p->nparams - j - 1) * sizeof(*p->params));
                p->nparams--;
                break;
            }
        }
    }
}

int model_param_cmp(const struct m_param *a, const struct m_param *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    if (!a->str && !b->str) {
        if (isnan(a->num) || isnan(b->num))
            return isnan(a->num) - isnan(b->num);
        return a->num < b->num ? -1 : a->num > b->num;
    }
    if (!a->str || !b->str)
        return a->str ? 1 : -1;
    return strcmp(a->str, b->str);
}

const char *model_param_text(const struct m_param *p, char *buf, size_t cap)
{
    if (!p)
        snprintf(buf, cap, "-");
    else if (p->str)
        snprintf(buf, cap, "%s", p->str);
    else if (p->num == floor(p->num) && fabs(p->num) < 1e15)
        snprintf(buf, cap, "%.0f", p->num);
    else
        snprintf(buf, cap, "%g", p->num);
    return buf;
}

double model_ticks_to_ns(const struct m_report *r, double ticks)
{
    return r->tsc_hz > 0 ? ticks * 1e9 / r->tsc_hz : NAN;
}

const char *model_machine_name(const struct m_report *r, char *buf, size_t cap)
{
    size_t len = 0;
    if (r->machine_emulated && !r->simulated) {
        snprintf(buf, cap, "emulator %s: ", r->emulator ? r->emulator : "?");
        len = strlen(buf);
        buf += len;
        cap -= len < cap ? len : cap;
    }
    /* whatever firmware tables the model made up, no machine stands behind them */
    if (r->simulated)
        snprintf(buf, cap, "none: simulated by tlbscope-sim, profile %s%s%s%s",
                 r->sim.profile ? r->sim.profile : "?", r->sim.profile_cpu ? " (" : "",
                 r->sim.profile_cpu ? r->sim.profile_cpu : "", r->sim.profile_cpu ? ")" : "");
    else if (r->sys_manufacturer || r->sys_product)
        snprintf(buf, cap, "%s%s%s", r->sys_manufacturer ? r->sys_manufacturer : "",
                 r->sys_manufacturer && r->sys_product ? " " : "",
                 r->sys_product ? r->sys_product : "");
    else
        snprintf(buf, cap, "unknown machine (no SMBIOS)");
    return buf - len;
}

const char *model_bios_text(const struct m_report *r, char *buf, size_t cap)
{
    if (r->bios_version)
        snprintf(buf, cap, "%s%s%s%s%s", r->bios_vendor ? r->bios_vendor : "",
                 r->bios_vendor ? " " : "", r->bios_version, r->bios_date ? " " : "",
                 r->bios_date ? r->bios_date : "");
    else
        snprintf(buf, cap, "%s rev %s", r->fw_vendor ? r->fw_vendor : "firmware",
                 r->fw_revision ? r->fw_revision : "?");
    return buf;
}

const char *model_simulation_text(const struct m_report *r, char *buf, size_t cap)
{
    char version[32] = "", seed[32] = "?";
    if (r->sim.model_version >= 0)
        snprintf(version, sizeof(version), " v%lld", r->sim.model_version);
    if (r->sim.seed >= 0)
        snprintf(seed, sizeof(seed), "%lld", r->sim.seed);
    snprintf(buf, cap, "model \"%s\"%s, profile %s, seed %s",
             r->sim.model ? r->sim.model : "?", version, r->sim.profile ? r->sim.profile : "?",
             seed);
    return buf;
}

const char *model_errata_text(const struct m_report *r, char *buf, size_t cap)
{
    size_t i, len = 0;
    buf[0] = '\0';
    for (i = 0; i < json_array_size(r->sim.errata) && len + 1 < cap; i++) {
        const char *e = json_string_value(json_array_get(r->sim.errata, i));
        snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", e ? e : "?");
        len = strlen(buf);
    }
    return buf;
}
