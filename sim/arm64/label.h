/*
 * What the aarch64 writer (core/report/report_arm64.c) does not yet say of a
 * simulated run (run->sim), added to its output: the verdict line's
 * [SIMULATED] (JSON and text) and the `simulation` object's `errata` (which
 * every simulated report carries: reports/SCHEMA.md "simulation") and
 * `id_registers_source`. Each edit is made only where the writer's output
 * lacks it, so a writer that prints them leaves this with nothing to do; the
 * lines it must print are named in sim/arm64/label.c.
 */
#ifndef TLBSCOPE_SIM_ARM64_LABEL_H
#define TLBSCOPE_SIM_ARM64_LABEL_H

#include <stdbool.h>

#include "core/lib/strbuf.h"
#include "core/run/run_arm64.h"

/* in: the writer's JSON; out: labelled. False when in has no `simulation` object. */
bool a64s_label_json(const struct arm64_run *run, const struct strbuf *in, struct strbuf *out);
/* the text summary's verdict line with [SIMULATED], in place */
void a64s_label_text(const struct arm64_run *run, struct strbuf *text);

#endif
