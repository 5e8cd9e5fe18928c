/*
 * The aarch64 report: report format A of the issue 27 contract (the x86
 * report's top level plus `architecture: "aarch64"`, aarch64 sections for
 * firmware, cpu, topology and method, the x86 experiment object with unit
 * "counter_ticks"), and the text summary beside it. Both end with the
 * verdict line of core/run/verdict.c, as on x86.
 */
#ifndef TLBSCOPE_CORE_REPORT_ARM64_REPORT_A64_H
#define TLBSCOPE_CORE_REPORT_ARM64_REPORT_A64_H

#include <stdbool.h>
#include <stddef.h>

#include "core/exp/arm64/arm64_run.h"
#include "core/lib/strbuf.h"
#include "core/run/verdict.h"

void a64_verdict(const struct arm64_run *run, struct verdict *v);
/* false when the JSON did not fit or was malformed */
bool a64_report_json(const struct arm64_run *run, struct strbuf *out);
void a64_report_text(const struct arm64_run *run, struct strbuf *out);

#endif
