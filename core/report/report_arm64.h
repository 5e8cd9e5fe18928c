/*
 * The aarch64 report: the skeleton and the experiments every report has
 * (report_doc.c, experiment_json.c), with aarch64's own parts where the
 * hardware differs: firmware (FADT ARM boot flags), cpu (MIDR, ID
 * registers, EL), topology (MPIDR, PSCI bring-up), method (GIC, PSCI, TLBI
 * forms), and the text summary beside it (report_text_arm64.c: x86's layout,
 * summary_text.h). Both end with the verdict line of core/run/verdict.c, as
 * on x86. Built into the aarch64 app only (its name:
 * Makefile leaves every core file named *_arm64.c out of the x86 builds).
 */
#ifndef TLBSCOPE_CORE_REPORT_ARM64_H
#define TLBSCOPE_CORE_REPORT_ARM64_H

#include <stdbool.h>
#include <stddef.h>

#include "core/run/run_arm64.h"
#include "core/lib/strbuf.h"
#include "core/report/report_redact.h"
#include "core/run/verdict.h"

void a64_verdict(const struct arm64_run *run, struct verdict *v);
/* false when the JSON did not fit or was malformed */
bool a64_report_json(const struct arm64_run *run, struct strbuf *out);
/* redact=on: the text scrubbed as the JSON is (the upload URL's token) */
void a64_report_text(const struct arm64_run *run, struct strbuf *out);
/* redact=on's tokens of the run (core/report/report_redact.h), e.g. for a console line */
void a64_prepare_redaction(const struct arm64_run *run, struct redaction *red);
/* method.psci_functions and method.handback (handback_json_arm64.c) */
struct json_writer;
void a64_write_psci_and_handback(struct json_writer *w, const struct arm64_run *run);
/* The verdict line, without a line end: the summary's last, and the console's after "RESULT: ". */
void a64_report_verdict(const struct arm64_run *run, struct strbuf *out);

#endif
