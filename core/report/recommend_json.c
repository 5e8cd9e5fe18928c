/*
 * The recommendations section (core/run/recommendation.h) as JSON and as the text
 * summary's "What this machine suggests", for every architecture: the list is
 * x86's (core/run/recommend.c) or aarch64's (core/run/recommend_arm64.c).
 */
#include "core/report/recommend_json.h"

#include "core/lib/mem.h"
#include "core/report/report_common.h"
#include "core/report/time_text.h"
#include "core/run/bootstrap.h"

/* A bound of an interval (x 1000) with the interval's decimals; null when it is "none". */
static void write_bound(struct json_writer *w, const char *key, int64_t v, bool none,
                        unsigned decimals)
{
    int64_t div = decimals >= 3 ? 1 : decimals == 2 ? 10 : decimals == 1 ? 100 : 1000;
    jw_key(w, key);
    if (none)
        jw_null(w);
    else
        jw_fixed(w, v < 0 ? -((-v + div / 2) / div) : (v + div / 2) / div, decimals);
}

static void write_interval(struct json_writer *w, const struct rec_interval *iv)
{
    jw_key(w, "interval");
    if (!iv->valid) {
        jw_null(w);
        return;
    }
    jw_object_begin_inline(w);
    jw_kv_str(w, "of", iv->of);
    jw_kv_str(w, "unit", iv->unit);
    jw_kv_u64(w, "level_percent", BOOT_LEVEL_PERCENT);
    write_bound(w, "low", iv->low, iv->low_none, iv->decimals);
    write_bound(w, "high", iv->high, iv->high_none, iv->decimals);
    jw_kv_str(w, "method", "paired_bootstrap");
    jw_kv_u64(w, "replicates", BOOT_REPLICATES);
    jw_kv_u64(w, "pairs", iv->pairs);
    jw_object_end(w);
}

/* shootdown_order's saving per page count (issue 32), 1 page first */
static void write_parts(struct json_writer *w, const struct recommendation *e)
{
    uint32_t i;
    if (!e->nparts)
        return;
    jw_key(w, "by_pages");
    jw_array_begin(w);
    for (i = 0; i < e->nparts; i++) {
        const struct rec_part *p = &e->parts[i];
        jw_object_begin_inline(w);
        jw_kv_i64(w, "pages", p->pages);
        jw_kv_str(w, "flush", p->flush);
        write_bound(w, "saving", p->saving_millipct, false, 1);
        write_bound(w, "low", p->low, !p->has_interval, 1);
        write_bound(w, "high", p->high, !p->has_interval, 1);
        jw_object_end(w);
    }
    jw_array_end(w);
}

void report_write_recommendations(struct json_writer *w, const struct recommendations *list)
{
    const struct recommendations *recs = list;
    uint32_t i, j;
    jw_key(w, "recommendations");
    jw_object_begin(w);
    jw_kv_str(w, "environment", recs->environment);
    jw_kv_str(w, "note", report_environment_note(recs->environment));
    jw_key(w, "entries");
    jw_array_begin(w);
    for (i = 0; i < recs->count; i++) {
        const struct recommendation *e = &recs->items[i];
        jw_object_begin(w);
        jw_kv_str(w, "id", e->id);
        jw_kv_str(w, "status", e->enough ? "recommended" : "not_enough_evidence");
        jw_key(w, "value");
        if (e->has_value)
            jw_i64(w, e->value);
        else
            jw_null(w);
        if (e->has_value && e->has_value_high) /* flush_ceiling: no count measured between value and p* */
            jw_kv_i64(w, "value_high", e->value_high);
        jw_kv_str(w, "unit", e->unit);
        if (e->has_cpus_from) {
            jw_key(w, "cpus_from");
            if (e->cpus_from > 0)
                jw_i64(w, e->cpus_from);
            else
                jw_null(w);
            jw_kv_str(w, "cpus_from_placement", e->cpus_from_placement);
        }
        jw_kv_str(w, "verdict", e->verdict);
        write_interval(w, &e->interval);
        write_parts(w, e);
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

void report_text_recommendation_list(const struct recommendations *list, uint64_t hz,
                                     struct strbuf *sb)
{
    const struct recommendations *recs = list;
    uint32_t i;
    sb_putc(sb, '\n');
    if (recommend_not_hardware(recs->environment)) {
        char head[200];
        fmt_into(head, sizeof(head), "[%s: %s]:", recs->environment,
                 report_environment_note(recs->environment));
        sb_wrapped(sb, "What this machine suggests ", 2, head, 80);
    } else {
        sb_puts(sb, "What this machine suggests:\n");
    }
    for (i = 0; i < recs->count; i++) {
        const struct recommendation *e = &recs->items[i];
        /* the verdict's tick counts as time with the ticks beside them (core/report/time_text.h):
         * at most 5 numbers in a verdict, 40 characters more each */
        char text[sizeof(e->verdict) + sizeof(e->why) + 512], first[32];
        struct strbuf line;
        sb_init_fixed(&line, text, sizeof(text));
        prose_ticks_as_time(&line, e->verdict, hz);
        if (e->enough)
            sb_printf(&line, " [confidence %s]", confidence_name(e->conf));
        else
            sb_printf(&line, " (%s)", e->why);
        if (e->linux_default)
            sb_printf(&line, "; Linux: %s", e->linux_default);
        if (recommend_not_hardware(e->environment))
            sb_printf(&line, " [%s]", e->environment);
        /* 80 columns: the id, then the text wrapped under itself */
        fmt_into(first, sizeof(first), "  %-16s ", e->id);
        sb_wrapped(sb, first, 19, text, 80);
    }
}
