#include "reports/tool/compare/compare_roles.h"

#include <math.h>
#include <string.h>

const struct m_param compare_role_all_targets = { "targets", "all other CPUs", NAN };
const struct m_param compare_role_all_lazy = { "lazy", "all lazy", NAN };
const struct m_param compare_role_all_cpus = { "cpus", "all CPUs", NAN };

bool compare_is_role(const struct m_param *p)
{
    return p == &compare_role_all_targets || p == &compare_role_all_lazy ||
           p == &compare_role_all_cpus;
}

static void raise(const struct m_point *p, const char *key, double *max)
{
    const struct m_param *t = model_param(p, key);
    if (t && !t->str && isfinite(t->num) && !(t->num <= *max))
        *max = t->num;
}

struct role_max compare_roles_max(const struct m_experiment *e)
{
    struct role_max m = { NAN, NAN };
    size_t i;
    for (i = 0; e && i < e->results.count; i++) {
        raise(&e->results.items[i], "targets", &m.targets);
        raise(&e->results.items[i], "cpus", &m.cpus);
    }
    return m;
}

bool compare_role_form(const struct m_point *p, const struct group_keys *keys, struct role_max max,
                       const struct m_param **vals)
{
    const struct m_param *targets = model_param(p, "targets");
    bool any = false;
    size_t k;
    for (k = 0; k < keys->n; k++) {
        const struct m_param *v = model_param(p, keys->keys[k]);
        vals[k] = v;
        if (!v || v->str)
            continue;
        /* targets == the most this run used: every CPU but the initiator */
        if (strcmp(keys->keys[k], "targets") == 0 && v->num >= 1 && v->num == max.targets) {
            vals[k] = &compare_role_all_targets;
            any = true;
        } else if (strcmp(keys->keys[k], "cpus") == 0 && v->num >= 1 && v->num == max.cpus) {
            vals[k] = &compare_role_all_cpus; /* every CPU of the run takes part */
            any = true;
        } else if (strcmp(keys->keys[k], "lazy") == 0 && v->num >= 1 && targets &&
                   !targets->str && v->num == targets->num) {
            vals[k] = &compare_role_all_lazy;
            any = true;
        }
    }
    return any;
}
