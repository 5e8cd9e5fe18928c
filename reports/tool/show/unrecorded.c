#include "reports/tool/show/unrecorded.h"

#include <string.h>

#include "reports/tool/show/show.h"
#include "reports/tool/model/units.h"

/* Fields added after an experiment first shipped; `metric` false: a parameter. */
static const struct later_field {
    const char *experiment, *name;
    bool metric;
    const char *meaning;
} later[] = {
    { "invlpgb_range", "path", false,
      "which INVLPGB path each point took above the ceiling (linux: one whole-PCID INVLPGB; "
      "chunked: the range in chunks); added later" },
    { "pti_double_invalidation", "working_set", false,
      "the user working set the return to user refills (the deferred flush's real cost); "
      "added later" },
    { "flush_ceiling", "working_set_form", false,
      "which form of the working set (contiguous, or scattered with cold page tables); "
      "added later" },
    { "flush_ceiling", "target_refill", true,
      "the targets' refill apart from the initiator's latency (a shootdown's latency then "
      "held the refill); added later" },
    { "shootdown_lazy", "targets_doing", false,
      "what the other targets did (wait, or a busy loop); lazy CPUs then waited like the "
      "others instead of idling, so ipi_all paid no wake-up; added later" },
    { "ipi_target_state", "residency", false,
      "whether the state was proven reached (residency MSRs); states then settled 10 us and "
      "SMT siblings were left in the idle loop; added later" },
};

static bool has_field(const struct m_point *p, const struct later_field *f)
{
    size_t i;
    if (!f->metric)
        return model_param(p, f->name) != NULL;
    for (i = 0; i < p->nmetrics; i++)
        if (p->metrics[i].name && strcmp(p->metrics[i].name, f->name) == 0)
            return true;
    return false;
}

void unrecorded_show(const struct m_experiment *e, FILE *out)
{
    size_t i, j;
    char line[400];
    if (!e->id || !e->results.count)
        return;
    for (i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
        bool any = false;
        if (strcmp(later[i].experiment, e->id) != 0)
            continue;
        /* a metric only some points carry (shootdown ones) counts as recorded */
        for (j = 0; j < e->results.count && !any; j++)
            any = has_field(&e->results.items[j], &later[i]);
        if (any)
            continue;
        snprintf(line, sizeof(line), "not recorded in this report: %s %s (%s)",
                 later[i].metric ? "metric" : "parameter", later[i].name, later[i].meaning);
        units_print_wrapped(out, "  ", "      ", line, SHOW_WIDTH);
    }
}
