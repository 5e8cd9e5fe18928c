/* compare across architectures (compare_arch.h). */
#include "reports/tool/compare/compare_arch.h"

#include <string.h>

#include "core/mutant.h"
#include "reports/tool/compare/compare_questions.h"
#include "reports/tool/model/units.h"

/*
 * Both architectures' apps run these with the same parameters and meaning:
 * a round trip initiator -> target -> initiator, and the detector's control
 * (contract A of issue 27): each gets a section of its own. tlbi_* and x86's
 * INVLPG/INVLPGB experiments measure different mechanisms: they meet by the
 * question they answer (arch_questions.h, compare_questions.h), not by id.
 * shootdown_lazy is a SKIP on aarch64. ipi_broadcast is on both sides but not
 * shared: x86's modes are APIC destination shorthands, aarch64's the GIC's
 * SGI forms (listed per side).
 */
static const char *const shared_ids[] = { "ipi_roundtrip", "stale_detector_control", NULL };

#define MAX_LISTED 64

bool compare_arch_shared(const char *id)
{
    size_t i;
    for (i = 0; id && shared_ids[i]; i++)
        if (strcmp(shared_ids[i], id) == 0)
            return true;
    return false;
}

bool compare_arch_mixed(struct m_report *const *all, size_t nall)
{
    size_t i;
    for (i = 1; i < nall; i++)
        if (strcmp(all[i]->architecture, all[0]->architecture) != 0)
            return true;
    return false;
}

bool compare_arch_keeps(const struct cmp_model *m, const char *id)
{
    size_t i, sides = 0;
    if (!m->cross_arch || MUTANT(arch_unshared_compared))
        return true;
    /* ticks of two clocks are no common unit: without both rates nothing is compared */
    if (!m->in_ns || !compare_arch_shared(id))
        return false;
    for (i = 0; i < m->nreports; i++)
        sides += model_experiment(m->reports[i], id) != NULL;
    return sides >= 2;
}

static bool has_section(const struct cmp_model *m, const char *id)
{
    size_t k;
    for (k = 0; k < m->nsections; k++)
        if (strcmp(m->sections[k].id, id) == 0)
            return true;
    return false;
}

size_t compare_arch_only(const struct cmp_model *m, size_t side, const char **ids, size_t cap)
{
    struct cq_set qs;
    size_t r, j, k, n = 0;
    bool questions = compare_questions_build(m, &qs);
    for (r = 0; r < m->nall; r++) {
        if (m->side_of[r] != side)
            continue;
        for (j = 0; j < m->all[r]->nexperiments; j++) {
            const char *id = m->all[r]->experiments[j].id;
            bool listed = false;
            if (!id || has_section(m, id) || (questions && compare_questions_use(&qs, id)))
                continue;
            for (k = 0; k < n && !listed; k++)
                listed = strcmp(ids[k], id) == 0;
            if (!listed && n < cap)
                ids[n++] = id;
        }
    }
    if (questions)
        compare_questions_free(&qs);
    return n;
}

void compare_arch_print(const struct cmp_model *m, FILE *out, bool markdown, int width)
{
    const char *ids[MAX_LISTED];
    char line[2048], head[64];
    size_t i, k, n, len;
    if (!m->cross_arch)
        return;
    len = (size_t)snprintf(line, sizeof(line), "%s", "");
    for (i = 0; i < m->nreports; i++)
        len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s %s", i ? ", " : "",
                                m->reports[i]->label, m->reports[i]->architecture);
    snprintf(line + len, sizeof(line) - len, "; compared: the experiments both define alike "
             "(ipi_roundtrip: all pairs pooled; stale_detector_control) and, by question, each "
             "side's experiment on Linux's path (ipi_roundtrip, shootdown, flush_ceiling, "
             "contention, pti_double_invalidation: after the sections), %s",
             m->in_ns ? "in ns from each side's own rate (tsc_hz on x86_64, counter_hz on "
                        "aarch64)" : "and none here: a tick rate is missing, and ticks of two "
                                     "clocks are no common unit");
    if (markdown)
        fprintf(out, "**Architectures:** %s\n\n", line);
    else
        units_print_wrapped(out, "Architectures: ", "          ", line, width);
    for (i = 0; i < m->nreports; i++) {
        n = compare_arch_only(m, i, ids, MAX_LISTED);
        if (!n)
            continue;
        snprintf(head, sizeof(head), "only in %s (%s): ", m->reports[i]->label,
                 m->reports[i]->architecture);
        for (k = 0, len = 0, line[0] = '\0'; k < n; k++)
            len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s", k ? ", " : "",
                                    ids[k]);
        if (markdown)
            fprintf(out, "- %s%s\n", head, line);
        else
            units_print_wrapped(out, head, "          ", line, width);
    }
    if (markdown)
        fputc('\n', out);
}

json_t *compare_arch_json(const struct cmp_model *m)
{
    json_t *o = json_object(), *sides = json_object(), *only = json_object();
    json_t *compared = json_array();
    const char *ids[MAX_LISTED];
    size_t i, k, n;
    for (i = 0; i < m->nreports; i++) {
        json_t *list = json_array();
        json_object_set_new(sides, m->reports[i]->label,
                            json_string(m->reports[i]->architecture));
        n = m->cross_arch ? compare_arch_only(m, i, ids, MAX_LISTED) : 0;
        for (k = 0; k < n; k++)
            json_array_append_new(list, json_string(ids[k]));
        json_object_set_new(only, m->reports[i]->label, list);
    }
    for (k = 0; k < m->nsections; k++)
        json_array_append_new(compared, json_string(m->sections[k].id));
    json_object_set_new(o, "mixed", json_boolean(m->cross_arch));
    json_object_set_new(o, "sides", sides);
    json_object_set_new(o, "compared", compared);
    json_object_set_new(o, "only_in", only);
    /* the questions (arch_questions.h): each side's experiment and mechanism, the rows */
    json_object_set_new(o, "questions", m->cross_arch ? compare_questions_json(m) : json_array());
    return o;
}
