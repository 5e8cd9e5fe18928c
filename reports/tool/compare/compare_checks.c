/*
 * The comparison's checks over all its sections, after the model is built:
 * points slower than a limit (--fail-slower), pairs of sides that share no
 * point, how many points were compared, and the points matched with a
 * parameter's default.
 */
#include "reports/tool/compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_roles.h"
#include "reports/tool/compare/compare_where.h"
#include "reports/tool/views/ipi.h"
#include "reports/tool/model/cpu_roles.h"
#include "reports/tool/model/param_defaults.h"
#include "reports/tool/model/point_index.h"
#include "reports/tool/model/units.h"
#include "reports/tool/model/vocab.h"

size_t compare_slower_points(const struct cmp_model *m, double pct, FILE *err)
{
    size_t k, j, i, n = 0;
    double limit = 1 + pct / 100;
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        for (j = 0; j < s->nrows; j++) {
            const struct cmp_row *row = &s->rows[j];
            if (row->unmatched)
                continue;
            for (i = 0; i < m->nreports; i++) {
                double q = compare_ratio(row, i), lo, hi;
                bool known = compare_ratio_range(row, i, &lo, &hi);
                char point[256];
                if (!isfinite(q) || !((known ? lo : q) > limit))
                    continue;
                n++;
                if (!err)
                    continue;
                if (s->by_class)
                    snprintf(point, sizeof(point), "class=%s", row->cls);
                else
                    group_tuple_text(&s->keys, row->vals, point, sizeof(point));
                if (known)
                    fprintf(err, "tlbscope-report: slower: %s vs %s: %s %s: p50 ratio %.3f, "
                            "%s %.3f-%.3f, above %.3f\n", m->reports[i]->label,
                            m->reports[s->base]->label, s->id, point, q,
                            compare_interval_text(compare_ratio_interval(row, i, &lo, &hi)), lo,
                            hi, limit);
                else
                    fprintf(err, "tlbscope-report: slower: %s vs %s: %s %s: p50 ratio %.3f "
                            "(spread unknown: one run per side), above %.3f\n",
                            m->reports[i]->label, m->reports[s->base]->label, s->id, point, q,
                            limit);
            }
        }
    }
    return n;
}

/*
 * "; A predates working_set (taken as 0 ...): measured differently" when a
 * default explains why a pair shares no point, else "".
 */
static const char *defaulted_why(const struct cmp_model *m, const struct cmp_section *s,
                                 size_t side, char *buf, size_t cap)
{
    size_t sides[2] = { s->base, side }, k, d, len = 0;
    buf[0] = '\0';
    for (k = 0; k < 2; k++) {
        const struct m_experiment *e = s->exp[sides[k]];
        for (d = 0; e && d < e->ndefaulted; d++) {
            const char *what = param_default_meaning(s->id, e->defaulted[d]);
            snprintf(buf + len, cap - len, "; %s predates %s (taken as %s), so its points were "
                     "measured differently", m->reports[sides[k]]->label, e->defaulted[d],
                     what ? what : "its default");
            len = strlen(buf);
        }
    }
    return buf;
}

/*
 * "target 1 vs 2": the first parameter (or the topology class) whose values
 * two sides never share, which is why no point of one meets one of the
 * other; "" when every parameter shares some value (a combination differs).
 */
static bool side_has_value(const struct cmp_section *s, size_t side, size_t k,
                           const struct cmp_row *like)
{
    size_t j;
    for (j = 0; j < s->nrows; j++) {
        const struct cmp_row *row = &s->rows[j];
        if (!row->cells[side].present || row->by_role)
            continue;
        if (s->by_class ? strcmp(row->cls, like->cls) == 0
                        : model_param_cmp(row->vals[k], like->vals[k]) == 0)
            return true;
    }
    return false;
}

static void side_values(const struct cmp_section *s, size_t side, size_t k, char *buf, size_t cap)
{
    size_t j, i, n = 0, len = 0;
    char v[64];
    buf[0] = '\0';
    for (j = 0; j < s->nrows && len + 1 < cap; j++) {
        const struct cmp_row *row = &s->rows[j];
        bool dup = false;
        if (!row->cells[side].present || row->by_role)
            continue;
        for (i = 0; i < j && !dup; i++)
            dup = s->rows[i].cells[side].present && !s->rows[i].by_role &&
                  (s->by_class ? strcmp(s->rows[i].cls, row->cls) == 0
                               : model_param_cmp(s->rows[i].vals[k], row->vals[k]) == 0);
        if (dup)
            continue;
        if (n++ >= 3) /* the first three, whole; the rest counted ("and 5 more") */
            continue;
        snprintf(buf + len, cap - len, "%s%s", n > 1 ? ", " : "",
                 s->by_class ? row->cls
                 : row->vals[k] ? model_param_text(row->vals[k], v, sizeof(v)) : "(none)");
        len = strlen(buf);
    }
    if (n > 3 && len + 1 < cap)
        snprintf(buf + len, cap - len, " and %zu more", n - 3);
}

static const char *disjoint_param(const struct cmp_model *m, const struct cmp_section *s,
                                  size_t a, size_t b, char *buf, size_t cap)
{
    size_t k, j, nk = s->by_class ? 1 : s->keys.n;
    char va[120], vb[120];
    buf[0] = '\0';
    for (k = 0; k < nk; k++) {
        bool shared = false;
        for (j = 0; j < s->nrows && !shared; j++)
            shared = s->rows[j].cells[a].present && !s->rows[j].by_role &&
                     side_has_value(s, b, k, &s->rows[j]);
        if (shared)
            continue;
        side_values(s, a, k, va, sizeof(va));
        side_values(s, b, k, vb, sizeof(vb));
        snprintf(buf, cap, "; %s %s vs %s (%s vs %s)", s->by_class ? "class" : s->keys.keys[k],
                 va, vb, m->reports[a]->label, m->reports[b]->label);
        break;
    }
    return buf;
}

size_t compare_disjoint_pairs(const struct cmp_model *m, FILE *err, bool fatal)
{
    char why[600], which[400];
    size_t k, i, j, n = 0;
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        for (i = 0; i < m->nreports; i++) {
            bool measured = false, ratio = false;
            if (i == s->base)
                continue;
            for (j = 0; j < s->nrows && !ratio; j++) {
                measured |= s->rows[j].cells[i].present;
                ratio |= isfinite(compare_ratio(&s->rows[j], i));
            }
            if (!measured || ratio || !compare_side_measured(s, s->base))
                continue;
            n++;
            if (err)
                fprintf(err, "tlbscope-report: %s: %s: %s and %s have no point in common "
                        "(no parameter point of one matches one of the other, by value or "
                        "role)%s%s: nothing compared%s\n", fatal ? "error" : "warning", s->id,
                        m->reports[s->base]->label, m->reports[i]->label,
                        disjoint_param(m, s, s->base, i, which, sizeof(which)),
                        defaulted_why(m, s, i, why, sizeof(why)), fatal ? "" : " there");
        }
    }
    return n;
}

size_t compare_points_compared(const struct cmp_model *m)
{
    size_t k, j, i, n = 0;
    for (k = 0; k < m->nsections; k++)
        for (j = 0; j < m->sections[k].nrows; j++)
            for (i = 0; i < m->nreports; i++)
                n += !m->sections[k].rows[j].unmatched &&
                     isfinite(compare_ratio(&m->sections[k].rows[j], i));
    if (MUTANT(gate_passes_on_nothing))
        n++;
    return n;
}

void compare_defaulted_lines(const struct cmp_model *m, const struct cmp_section *s, FILE *out,
                             const char *prefix, int width)
{
    size_t i, k;
    char line[600];
    for (i = 0; i < m->nreports; i++) {
        const struct m_experiment *e = s->exp[i];
        size_t len;
        if (!e || !e->ndefaulted)
            continue;
        snprintf(line, sizeof(line), "%s predates ", m->reports[i]->label);
        for (k = 0; k < e->ndefaulted; k++) {
            const char *what = param_default_meaning(s->id, e->defaulted[k]);
            len = strlen(line);
            snprintf(line + len, sizeof(line) - len, "%s%s (taken as %s)", k ? ", " : "",
                     e->defaulted[k], what ? what : "its default");
        }
        len = strlen(line);
        snprintf(line + len, sizeof(line) - len, "; its points are matched with that default");
        units_print_wrapped(out, prefix, "      ", line, width);
    }
}
