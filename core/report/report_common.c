/* JSON pieces both report writers share: see report_common.h. */
#include "core/report/report_common.h"
#include "core/run/bootstrap.h"

#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"

static void write_stats_fields(struct json_writer *w, const struct stats *st)
{
    jw_kv_u64(w, "n", st->n);
    jw_kv_u64(w, "min", st->min);
    jw_kv_u64(w, "p50", st->p50);
    /* only where n supports them: below that nearest rank gives the maximum (core/lib/stats.h) */
    if (stats_has_p90(st->n) || MUTANT(percentile_from_few))
        jw_kv_u64(w, "p90", st->p90);
    if (stats_has_p99(st->n) || MUTANT(percentile_from_few))
        jw_kv_u64(w, "p99", st->p99);
    jw_kv_u64(w, "max", st->max);
    jw_kv_u64(w, "mean", st->mean);
}

void report_write_stats(struct json_writer *w, const struct stats *st)
{
    jw_object_begin_inline(w);
    write_stats_fields(w, st);
    jw_object_end(w);
}

void report_write_metric(struct json_writer *w, const struct stats *st)
{
    uint64_t i;
    jw_object_begin_inline(w);
    write_stats_fields(w, st);
    /* from the metric's own samples (core/run/record_samples.h); null below BOOT_MEDIAN_MIN_N */
    jw_key(w, "p50_ci95");
    if (st->has_p50_ci) {
        jw_object_begin_inline(w);
        jw_kv_u64(w, "low", st->p50_low);
        jw_kv_u64(w, "high", st->p50_high);
        jw_object_end(w);
    } else {
        jw_null(w);
    }
    if (st->samples) { /* keep_samples=on: in the order measured */
        jw_key(w, "samples");
        jw_array_begin_inline(w);
        for (i = 0; i < st->n; i++)
            jw_u64(w, st->samples[i]);
        jw_array_end(w);
    }
    jw_object_end(w);
}

void report_show_as_is(struct json_writer *w, const char *text, const void *ctx)
{
    (void)ctx;
    jw_str(w, text);
}

void report_write_msgs(struct json_writer *w, const char *key, const struct msg_list *l)
{
    report_write_msgs_shown(w, key, l, report_show_as_is, NULL);
}

void report_write_msgs_shown(struct json_writer *w, const char *key, const struct msg_list *l,
                             report_show_fn show, const void *ctx)
{
    uint32_t i;
    jw_key(w, key);
    jw_array_begin(w);
    for (i = 0; i < l->count; i++) {
        jw_object_begin_inline(w);
        jw_kv_str(w, "where", l->items[i].where);
        jw_key(w, "message");
        show(w, l->items[i].text, ctx);
        jw_object_end(w);
    }
    if (l->dropped) {
        char text[80];
        fmt_into(text, sizeof(text), "%u further messages were dropped", l->dropped);
        jw_object_begin_inline(w);
        jw_kv_str(w, "where", "report");
        jw_kv_str(w, "message", text);
        jw_object_end(w);
    }
    if (l->cut) {
        char text[120];
        fmt_into(text, sizeof(text), "%u messages were longer than %u characters and were cut "
                 "(a tlbscope bug: please report it)", l->cut, MSG_TEXT - 1);
        jw_object_begin_inline(w);
        jw_kv_str(w, "where", "report");
        jw_kv_str(w, "message", text);
        jw_object_end(w);
    }
    jw_array_end(w);
}

void report_json_verdict(struct json_writer *w, const struct verdict *v)
{
    char line[REPORT_COMMON_VERDICT_LEN];
    verdict_line(v, 80, line, sizeof(line));
    jw_key(w, "verdict");
    jw_object_begin(w);
    jw_kv_str(w, "word", verdict_word_name(v->word));
    jw_kv_str(w, "line", line);
    jw_kv_u64(w, "measured", v->measured);
    jw_kv_u64(w, "not_applicable", v->not_applicable);
    jw_kv_u64(w, "inconclusive", v->inconclusive);
    jw_kv_u64(w, "in_error", v->in_error);
    jw_kv_u64(w, "failed", v->failed);
    jw_kv_u64(w, "cpus_dropped", v->cpus_dropped);
    jw_kv_u64(w, "run_errors", v->run_errors);
    jw_object_end(w);
}

const char *report_environment_note(const char *environment)
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

/* A revision or identifier in hex, or null when it was not read. */
void report_kv_hex_or_null(struct json_writer *w, const char *key, bool known, uint64_t v)
{
    jw_key(w, key);
    if (known)
        jw_hex(w, v);
    else
        jw_null(w);
}

void report_write_bootstrap(struct json_writer *w, uint64_t seed, uint64_t intervals,
                            uint64_t duration_ms)
{
    jw_key(w, "bootstrap");
    jw_object_begin_inline(w);
    jw_kv_u64(w, "seed", seed);
    jw_kv_u64(w, "resamples", BOOT_REPLICATES);
    jw_kv_u64(w, "min_samples", BOOT_MEDIAN_MIN_N);
    jw_kv_u64(w, "intervals", intervals);
    jw_kv_u64(w, "duration_ms", duration_ms);
    jw_object_end(w);
}
