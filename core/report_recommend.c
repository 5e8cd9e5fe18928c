#include "core/report_recommend.h"
#include "core/mem.h"
#include "core/recommend.h"

static const char *hardware_note(const char *environment)
{
    if (str_eq(environment, "simulated"))
        return "simulated on the strict TLB model: timings are the host's; this does not describe "
               "hardware";
    if (str_eq(environment, "emulated"))
        return "measured with emulated instructions: this does not describe hardware";
    if (str_eq(environment, "virtualised"))
        return "measured in a virtual machine (or emulator): this does not describe hardware";
    return NULL;
}

void report_json_recommendations(struct json_writer *w, const struct run *r)
{
    struct recommendations recs;
    uint32_t i, j;
    recommend_compute(r, &recs);
    jw_key(w, "recommendations");
    jw_object_begin(w);
    jw_kv_str(w, "environment", recs.environment);
    jw_kv_str(w, "note", hardware_note(recs.environment));
    jw_key(w, "entries");
    jw_array_begin(w);
    for (i = 0; i < recs.count; i++) {
        const struct recommendation *e = &recs.items[i];
        jw_object_begin(w);
        jw_kv_str(w, "id", e->id);
        jw_kv_str(w, "status", e->enough ? "recommended" : "not_enough_evidence");
        jw_key(w, "value");
        if (e->has_value)
            jw_i64(w, e->value);
        else
            jw_null(w);
        jw_kv_str(w, "unit", e->unit);
        if (e->has_cpus_from) {
            jw_key(w, "cpus_from");
            if (e->cpus_from > 0)
                jw_i64(w, e->cpus_from);
            else
                jw_null(w);
        }
        jw_kv_str(w, "verdict", e->verdict);
        jw_kv_str(w, "linux_default", e->linux_default);
        jw_key(w, "evidence");
        jw_object_begin_inline(w);
        jw_kv_str(w, "experiment", e->experiment);
        jw_key(w, "points");
        jw_array_begin_inline(w);
        for (j = 0; j < e->npoints; j++)
            jw_u64(w, e->points[j]);
        jw_array_end(w);
        jw_object_end(w);
        jw_key(w, "confidence");
        if (e->enough)
            jw_str(w, confidence_name(e->conf));
        else
            jw_null(w);
        jw_kv_str(w, "why", e->why);
        jw_kv_str(w, "environment", e->environment);
        jw_kv_bool(w, "describes_hardware", !recommend_not_hardware(e->environment));
        jw_object_end(w);
    }
    jw_array_end(w);
    jw_object_end(w);
}

void report_text_recommendations(const struct run *r, struct strbuf *sb)
{
    struct recommendations recs;
    uint32_t i;
    recommend_compute(r, &recs);
    sb_puts(sb, "\nWhat this machine suggests");
    if (recommend_not_hardware(recs.environment))
        sb_printf(sb, " [%s: %s]", recs.environment, hardware_note(recs.environment));
    sb_puts(sb, ":\n");
    for (i = 0; i < recs.count; i++) {
        const struct recommendation *e = &recs.items[i];
        sb_printf(sb, "  %-16s %s", e->id, e->verdict);
        if (e->enough)
            sb_printf(sb, " [confidence %s]", confidence_name(e->conf));
        else
            sb_printf(sb, " (%s)", e->why);
        if (e->linux_default)
            sb_printf(sb, "; Linux: %s", e->linux_default);
        if (recommend_not_hardware(e->environment))
            sb_printf(sb, " [%s]", e->environment);
        sb_putc(sb, '\n');
    }
}
