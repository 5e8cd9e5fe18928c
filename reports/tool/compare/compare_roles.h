/*
 * Matching points by role as well as by value: on a 4-CPU and an 8-CPU
 * machine, "targets=3" and "targets=7" are both "all other CPUs", and
 * "lazy=3 targets=3" and "lazy=7 targets=7" both "all lazy". compare adds a
 * row for such a role where the values differ, so machines with different
 * CPU counts meet where it is meaningful. (ipi_roundtrip's "same package" and
 * "cross package" are roles already: its rows are the topology classes.)
 */
#ifndef TLBSCOPE_REPORT_COMPARE_ROLES_H
#define TLBSCOPE_REPORT_COMPARE_ROLES_H

#include <stdbool.h>

#include "reports/tool/model/group.h"
#include "reports/tool/model/model.h"

/* The parameters a role stands for; their `str` is the role's name. */
extern const struct m_param compare_role_all_targets; /* targets: "all other CPUs" */
extern const struct m_param compare_role_all_lazy;    /* lazy: "all lazy" */
extern const struct m_param compare_role_all_cpus;    /* cpus: "all CPUs" */

/* The largest numeric "targets" and "cpus" among an experiment's result points (NaN: none). */
struct role_max {
    double targets, cpus;
};
struct role_max compare_roles_max(const struct m_experiment *e);
/*
 * The role form of point `p` over `keys` into vals[keys->n]: a role
 * parameter where the value plays one, else p's own parameter (NULL when
 * absent). True when some key took a role.
 */
bool compare_role_form(const struct m_point *p, const struct group_keys *keys, struct role_max max,
                       const struct m_param **vals);
bool compare_is_role(const struct m_param *p);

#endif
