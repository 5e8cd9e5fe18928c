/*
 * The text summary's layout, which the x86 summary (report_text.c) and the
 * aarch64 one (report_text_arm64.c) share: the title, the header lines under
 * a 10-column label, the experiment table, each experiment's heading, and
 * the end (the run's errors and warnings, how long it ran, then the verdict
 * line). What each architecture knows differs; how it is laid out does not.
 * 80 columns throughout: a server's UEFI console is 80x25. Only core/lib,
 * core/run's records and verdict here, so both builds compile it.
 */
#ifndef TLBSCOPE_CORE_SUMMARY_TEXT_H
#define TLBSCOPE_CORE_SUMMARY_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/lib/msglist.h"
#include "core/lib/strbuf.h"
#include "core/run/record.h"
#include "core/run/verdict.h"

/* "tlbscope VERSION (COMMIT)  run ID" */
void summary_title(struct strbuf *sb, const char *run_id);
/* "LABEL     text": the label in 10 columns, the words wrapped to 80 columns under it. */
void summary_line(struct strbuf *sb, const char *label, const char *text);
/* "SIMULATED tlbscope-sim on the MODEL (version N)" and "profile P, seed S", the second
 * without its line end: x86 adds the modelled TLB, microcode and errata after it. */
void summary_simulated_head(struct strbuf *sb, const char *model, uint32_t version,
                            const char *profile, uint64_t seed);

/* What labels every row and heading of a run: tlbscope-sim's, or all of it emulated. */
struct summary_tags {
    bool simulated;
    bool emulated; /* x86's emulator=; a record's own `emulated` counts besides */
};
/*
 * "Experiment  Status  Points  Checks  Stale  Reason / notes": one row per
 * experiment that ran, a reason too long for its row below it, a plan's cut
 * under its row; then the experiments run_budget_s made smaller (plan_report.h).
 */
void summary_experiment_table(struct strbuf *sb, const struct experiment_record *exps,
                              uint32_t count, const struct summary_tags *tags,
                              uint32_t run_budget_s);
/* "\nID [SIMULATED] [EMULATED]: title", the title wrapped under it. */
void summary_experiment_head(struct strbuf *sb, const struct experiment_record *e,
                             const struct summary_tags *tags);
/* The verdict line at 80 columns, without a line end: the summary's last, and the console's
 * after "RESULT: " (core/run/verdict.h). */
void summary_verdict(struct strbuf *sb, const struct verdict *v);
/*
 * The summary's end: "Errors:" and "Warnings:" (each only with messages), "Run complete in
 * S s" (or partial), and the verdict line last.
 */
void summary_end(struct strbuf *sb, const struct msg_list *errors, const struct msg_list *warnings,
                 bool partial, uint64_t duration_ms, const struct verdict *v);

#endif
