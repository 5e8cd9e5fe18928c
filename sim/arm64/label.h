/*
 * The simulation labels of an aarch64 report, until the aarch64 writer
 * (core/report/arm64/report_a64.c) prints run->sim itself: the writer's
 * output after a boot (`"simulated": false`, `"simulation": null`, the
 * recommendations' environment "hardware", a verdict line without
 * [SIMULATED]) rewritten as a simulated report has them (reports/SCHEMA.md
 * "simulation", "verdict"). A writer that already labels the run is left as
 * it is. The lines it must print, once it does, are named in sim/arm64/label.c.
 */
#ifndef TLBSCOPE_SIM_ARM64_LABEL_H
#define TLBSCOPE_SIM_ARM64_LABEL_H

#include <stdbool.h>

#include "core/exp/arm64/arm64_run.h"
#include "core/lib/strbuf.h"

/* in: the writer's JSON; out: labelled. False when in is not the writer's layout. */
bool a64s_label_json(const struct arm64_run *run, const struct strbuf *in, struct strbuf *out);
/* the text summary's verdict line with [SIMULATED], in place */
void a64s_label_text(const struct arm64_run *run, struct strbuf *text);

#endif
