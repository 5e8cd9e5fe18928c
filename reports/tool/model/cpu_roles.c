#include "reports/tool/model/cpu_roles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"

static const struct { const char *experiment, *key; } cpu_params[] = {
    { "ipi_target_state", "target" },
};
#define NPARAMS (sizeof(cpu_params) / sizeof(cpu_params[0]))

/* The ranks a ranked parameter takes ("#1" the lowest numbered CPU of the run). */
#define MAX_RANKS 16
static const char *const rank_names[MAX_RANKS] = {
    "#1", "#2", "#3", "#4", "#5", "#6", "#7", "#8",
    "#9", "#10", "#11", "#12", "#13", "#14", "#15", "#16",
};

bool cpu_role_param(const char *experiment, const char *key)
{
    size_t i;
    for (i = 0; i < NPARAMS; i++)
        if (strcmp(cpu_params[i].experiment, experiment) == 0 && strcmp(cpu_params[i].key, key) == 0)
            return true;
    return false;
}

/* The distinct CPU numbers a report's points name, sorted; how many (at most cap). */
struct cpu_set {
    double v[MAX_RANKS + 1];
    size_t n;
    bool over; /* more than MAX_RANKS: not ranked */
};

static void set_add(struct cpu_set *s, double v)
{
    size_t i, j;
    for (i = 0; i < s->n && s->v[i] < v; i++)
        ;
    if (i < s->n && s->v[i] == v)
        return;
    if (s->n == MAX_RANKS) {
        s->over = true;
        return;
    }
    for (j = s->n; j > i; j--)
        s->v[j] = s->v[j - 1];
    s->v[i] = v;
    s->n++;
}

static void collect(const struct m_points *l, const char *key, struct cpu_set *s)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        const struct m_param *p = model_param(&l->items[i], key);
        if (p && !p->str && isfinite(p->num))
            set_add(s, p->num);
    }
}

static bool same_set(const struct cpu_set *a, const struct cpu_set *b)
{
    size_t i;
    if (a->n != b->n || a->over || b->over)
        return false;
    for (i = 0; i < a->n; i++)
        if (a->v[i] != b->v[i])
            return false;
    return true;
}

/* Each CPU number of `key` becomes its rank among the set's. */
static void rank_key(struct m_points *l, const char *key, const struct cpu_set *s)
{
    size_t i, j, k;
    for (i = 0; i < l->count; i++) {
        struct m_point *p = &l->items[i];
        for (j = 0; j < p->nparams; j++) {
            struct m_param *q = &p->params[j];
            if (strcmp(q->key, key) != 0 || q->str)
                continue;
            for (k = 0; k < s->n && s->v[k] != q->num; k++)
                ;
            if (k < s->n) {
                q->str = rank_names[k];
                q->num = NAN;
            }
        }
    }
}

static void cpus_text(const struct cpu_set *s, char *buf, size_t cap)
{
    size_t i, len = 0;
    buf[0] = '\0';
    for (i = 0; i < s->n && len < cap; i++) {
        snprintf(buf + len, cap - len, "%s%.0f", i ? ", " : "", s->v[i]);
        len = strlen(buf);
    }
    if (s->over && len < cap)
        snprintf(buf + len, cap - len, " and more");
}

static bool align_one(struct m_report *const *all, size_t n, const char *id, const char *key)
{
    struct cpu_set *sets = calloc(n ? n : 1, sizeof(*sets));
    struct m_experiment **exps = calloc(n ? n : 1, sizeof(*exps));
    size_t i, j, with = 0;
    bool differ = false, several = false;
    if (!sets || !exps) {
        free(sets);
        free(exps);
        return false;
    }
    for (i = 0; i < n; i++) {
        exps[i] = (struct m_experiment *)model_experiment(all[i], id);
        if (!exps[i])
            continue;
        collect(&exps[i]->results, key, &sets[i]);
        collect(&exps[i]->summary, key, &sets[i]);
        if (!sets[i].n)
            continue;
        several |= sets[i].n > 1 || sets[i].over;
        for (j = 0; j < i; j++)
            differ |= sets[j].n && !same_set(&sets[j], &sets[i]);
        with++;
    }
    for (i = 0; differ && with > 1 && i < n; i++) {
        struct m_experiment *e = exps[i];
        if (!e || !sets[i].n)
            continue;
        e->cpu_role = key;
        e->cpu_role_ranked = several;
        cpus_text(&sets[i], e->cpu_role_cpus, sizeof(e->cpu_role_cpus));
        if (!several) {
            model_points_drop_param(&e->results, key);
            model_points_drop_param(&e->summary, key);
        } else if (!sets[i].over) {
            rank_key(&e->results, key, &sets[i]);
            rank_key(&e->summary, key, &sets[i]);
        }
    }
    free(sets);
    free(exps);
    return true;
}

bool cpu_roles_align(struct m_report *const *all, size_t n)
{
    size_t k;
    if (MUTANT(cpu_role_by_number))
        return true;
    for (k = 0; k < NPARAMS; k++)
        if (!align_one(all, n, cpu_params[k].experiment, cpu_params[k].key))
            return false;
    return true;
}

const char *cpu_role_text(const struct m_experiment *const *exp, struct m_report *const *reports,
                          size_t n, char *buf, size_t cap)
{
    size_t i, len;
    const char *key = NULL;
    bool ranked = false;
    buf[0] = '\0';
    for (i = 0; i < n && !key; i++)
        if (exp[i] && exp[i]->cpu_role) {
            key = exp[i]->cpu_role;
            ranked = exp[i]->cpu_role_ranked;
        }
    if (!key)
        return buf;
    snprintf(buf, cap, "%s names a CPU, matched as a role: %s (", key,
             ranked ? "by rank, #1 the lowest numbered of each report" : "the one each report used");
    for (i = 0; i < n; i++) {
        if (!exp[i] || !exp[i]->cpu_role)
            continue;
        len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s: CPU%s %s", buf[len - 1] == '(' ? "" : "; ",
                 reports[i]->label, strchr(exp[i]->cpu_role_cpus, ',') ? "s" : "",
                 exp[i]->cpu_role_cpus);
    }
    len = strlen(buf);
    snprintf(buf + len, cap - len, ")");
    return buf;
}
