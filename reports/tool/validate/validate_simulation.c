/*
 * The top-level keys tlbscope-sim adds: "simulated" and "simulation".
 * Both are optional (reports written before them have neither, and are not
 * simulated), but they must agree: a simulated report names the model, its
 * profile, seed and errata, so that its numbers can be traced to the model
 * and never taken for a machine's; any other report has no simulation.
 */
#include <limits.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

static void validate_simulation_object(struct vctx *c, const json_t *root)
{
    size_t mark;
    bool la57 = false;
    long long levels;
    const json_t *s = vc_enter(c, root, "simulation", 0, &mark);
    if (!s)
        return;
    vc_string(c, s, "model", 0);
    vc_int(c, s, "model_version", 0, LLONG_MAX, 0, NULL);
    vc_string(c, s, "profile", 0);
    vc_int(c, s, "seed", 0, LLONG_MAX, 0, NULL);
    vc_string_array(c, s, "errata", 0);
    /* optional, but when present they must hold what the writer puts there */
    vc_string(c, s, "profile_cpu", VF_OPTIONAL | VF_NULLABLE);
    vc_int(c, s, "tlb_sets", 1, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_int(c, s, "tlb_ways", 1, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_string(c, s, "tlb_source", VF_OPTIONAL | VF_NULLABLE);
    vc_string(c, s, "cpuid_override", VF_OPTIONAL | VF_NULLABLE);
    /* added with --microcode and --la57: absent from earlier simulated reports */
    vc_hex(c, s, "microcode", VF_OPTIONAL | VF_NULLABLE);
    vc_string(c, s, "microcode_source", VF_OPTIONAL | VF_NULLABLE);
    vc_bool(c, s, "la57", VF_OPTIONAL, &la57);
    levels = jget_int(jget_object(root, "method"), "paging_levels", 0);
    if (la57 && levels != 5 && levels != 0) /* 0: paging never set up */
        vc_error(c, "la57", "true (the modelled firmware ran with CR4.LA57, which cannot change "
                 "in long mode), but method.paging_levels is %lld, not 5", levels);
    vc_leave(c, mark);
}

void validate_simulation(struct vctx *c, const json_t *root)
{
    const json_t *sim = json_object_get(root, "simulation");
    bool simulated = false, known = vc_bool(c, root, "simulated", VF_OPTIONAL, &simulated);
    bool has_simulated = json_object_get(root, "simulated") != NULL;
    const json_t *cpu = json_object_get(root, "cpu");
    const char *tsc = cpu ? json_string_value(json_object_get(cpu, "tsc_source")) : NULL;
    /* only the simulator times with the host's clock; a boot never does */
    if (tsc && strcmp(tsc, "host_clock") == 0 && !(known && simulated)) {
        size_t m = jpath_push_key(&c->path, "cpu");
        vc_error(c, "tsc_source", "\"host_clock\" (tlbscope-sim's timebase) in a report that is "
                 "not simulated");
        jpath_pop(&c->path, m);
    }
    if (known && simulated) {
        if (!sim || json_is_null(sim))
            vc_error(c, "simulation", "%s, but simulated is true (expected an object {model, "
                     "model_version, profile, seed, errata})", sim ? "is null" : "missing");
        else
            validate_simulation_object(c, root);
        return;
    }
    if (!sim || json_is_null(sim))
        return;
    if (!json_is_object(sim))
        vc_error(c, "simulation", "expected an object or null, found %s", jget_type_word(sim));
    else if (known || !has_simulated)
        vc_error(c, "simulation", "is an object, but simulated is %s (only a simulated report "
                 "has one; else it is null or absent)", known ? "false" : "absent");
    else /* simulated is of the wrong type (reported): still check what the object holds */
        validate_simulation_object(c, root);
}
