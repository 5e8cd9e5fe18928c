/* The experiments[] entry of the report, for every architecture (experiment_json.c). */
#ifndef TLBSCOPE_CORE_REPORT_EXPERIMENT_JSON_H
#define TLBSCOPE_CORE_REPORT_EXPERIMENT_JSON_H

#include "core/lib/json.h"
#include "core/report/report_common.h"
#include "core/run/record.h"

/* One experiments[] entry: id, status, plan, axes, verification, notes, results, summary,
 * conditions. `unit`: the clock of its ticks ("tsc_ticks" on x86_64, "counter_ticks" on
 * aarch64). */
void report_write_experiment(struct json_writer *w, const struct experiment_record *e,
                             const char *unit, report_show_fn show, const void *ctx);

#endif
