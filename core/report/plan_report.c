/* The `plan` of an experiment in the JSON report (reports/SCHEMA.md) and in the text summary. */
#include "core/report/plan_report.h"
#include "core/lib/json.h"
#include "core/lib/strbuf.h"

void plan_write_json(struct json_writer *w, const struct plan_summary *s)
{
    char text[320];
    if (!s->applied) {
        jw_null(w); /* not planned: run_budget_s=0, a fixed-work experiment, or it never ran */
        return;
    }
    plan_describe(s, text, sizeof(text));
    jw_object_begin(w);
    jw_kv_u64(w, "share_ms", s->share_ms);
    jw_kv_u64(w, "estimate_ms", s->estimate_ms);
    jw_kv_u64(w, "full_estimate_ms", s->full_estimate_ms);
    jw_kv_u64(w, "pilot_ms", s->pilot_ms);
    jw_kv_u64(w, "floor", PLAN_FLOOR);
    jw_kv_u64(w, "samples_configured", s->samples_configured);
    jw_kv_u64(w, "samples", s->samples);
    jw_kv_u64(w, "warmup", s->warmup);
    jw_kv_u64(w, "samples_min", s->samples_min);
    jw_kv_u64(w, "samples_max", s->samples_max);
    jw_kv_u64(w, "replans", s->replans);
    jw_kv_str(w, "rows_name", s->rows_name);
    jw_kv_u64(w, "rows_configured", s->rows_configured);
    jw_kv_u64(w, "rows", s->rows);
    jw_kv_str(w, "cols_name", s->cols_name);
    jw_kv_u64(w, "cols_configured", s->cols_configured);
    jw_kv_u64(w, "cols", s->cols);
    jw_kv_u64(w, "points_planned", s->points_planned);
    jw_kv_u64(w, "samples_planned", s->samples_planned);
    jw_kv_u64(w, "samples_achieved", s->samples_achieved);
    if (s->points_added) /* measured with what the share had left (flush_ceiling's refinement) */
        jw_kv_u64(w, "points_added", s->points_added);
    jw_key(w, "reduced");
    jw_array_begin_inline(w);
    if (s->reasons & PLAN_FEWER_SAMPLES)
        jw_str(w, "samples");
    if (s->reasons & PLAN_FEWER_ROWS)
        jw_str(w, "rows");
    if (s->reasons & PLAN_FEWER_COLS)
        jw_str(w, "cols");
    if (s->reasons & PLAN_FEWER_VARIANTS)
        jw_str(w, "variants");
    jw_array_end(w);
    jw_kv_bool(w, "fits", !(s->reasons & PLAN_NO_FIT));
    jw_kv_bool(w, "measured", s->measured);
    jw_kv_str(w, "reason", text);
    jw_object_end(w);
}

void plan_write_text(struct strbuf *sb, const char *id, const struct plan_summary *s)
{
    char text[320];
    if (!s->applied || !s->reasons)
        return;
    plan_describe(s, text, sizeof(text));
    sb_printf(sb, "  %-24s %s; %llu of %llu planned samples measured\n", id, text,
              (unsigned long long)s->samples_achieved, (unsigned long long)s->samples_planned);
}

void plan_write_status_detail(struct json_writer *w, const struct plan_summary *s)
{
    char text[160];
    if (plan_status_detail(s, text, sizeof(text)))
        jw_kv_str(w, "status_detail", text);
}
