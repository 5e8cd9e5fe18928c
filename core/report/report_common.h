/*
 * JSON pieces the x86 report (report_json.c) and the aarch64 report
 * (report_arm64.c) write alike: a point's statistics, the run's messages
 * and the verdict (reports/SCHEMA.md). Only core/lib and core/run's verdict
 * here, so the aarch64 build compiles it too.
 */
#ifndef TLBSCOPE_CORE_REPORT_COMMON_H
#define TLBSCOPE_CORE_REPORT_COMMON_H

#include "core/lib/json.h"
#include "core/lib/msglist.h"
#include "core/lib/stats.h"
#include "core/run/verdict.h"

/* The report's schema_version, written by both architectures' writers (reports/SCHEMA.md):
 * 2 added recommendations, flush_ceiling and cpu.l2_tlb; 3 is listed under "Version 3". */
#define REPORT_SCHEMA_VERSION 3

#define REPORT_COMMON_VERDICT_LEN 256

/* {n, min, p50, p90?, p99?, max, mean}: p90 and p99 only where n supports them */
void report_write_stats(struct json_writer *w, const struct stats *st);
/*
 * A metric of an x86 point (schema 3): the statistics, "p50_ci95": {low,
 * high} or null, and with keep_samples=on "samples": [...] (reports/SCHEMA.md).
 */
void report_write_metric(struct json_writer *w, const struct stats *st);
/* "key": [{where, message}...], and one entry for the dropped ones */
void report_write_msgs(struct json_writer *w, const char *key, const struct msg_list *l);
/* Writes a free-text string of the report as it is shown (core/report/report_redact.h's
 * redaction_write_text replaces quoted values by their tokens). */
typedef void (*report_show_fn)(struct json_writer *w, const char *text, const void *ctx);
/* The string as it is (or null): reports without redaction. */
void report_show_as_is(struct json_writer *w, const char *text, const void *ctx);
/* The same, each message written by show(w, text, ctx) (the redaction of core/report/). */
void report_write_msgs_shown(struct json_writer *w, const char *key, const struct msg_list *l,
                             report_show_fn show, const void *ctx);
/*
 * The sentence a report's `recommendations.note` carries for where it was
 * measured (simulated, emulated, virtualised); NULL on hardware.
 */
const char *report_environment_note(const char *environment);
/* "verdict": {word, line, counts} */
void report_json_verdict(struct json_writer *w, const struct verdict *v);

/*
 * method.bootstrap (schema 3): how every metric's p50_ci95 was drawn (core/run/bootstrap.h:
 * the seed, resamples, the fewest samples given one) and what the intervals cost the run.
 */
void report_write_bootstrap(struct json_writer *w, uint64_t seed, uint64_t intervals,
                            uint64_t duration_ms);

/* A revision or identifier in hex, or null when it was not read. */
void report_kv_hex_or_null(struct json_writer *w, const char *key, bool known, uint64_t v);

#endif
