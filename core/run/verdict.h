/*
 * The run's verdict: the one line a technician reads to know whether the run
 * is complete and usable, apart from ERROR and FAILURE (issue 23).
 *
 *   COMPLETE: 9 measured, 2 not applicable to this machine (invlpgb_range, pti)
 *   ERROR (incomplete): 7 measured, 2 not applicable, 1 in error, 1 CPU dropped out
 *   FAILURE (a finding): 1 failed, 8 measured, 2 not applicable
 *   COMPLETE: 8 measured, 2 not applicable to this machine [SIMULATED]
 *
 * The result model (core/run/result.h) calls a run SKIP as soon as one experiment
 * does not apply, which every Intel server, every pre-Zen 3 AMD and every
 * QEMU run has; the verdict says COMPLETE for SUCCESS and SKIP alike and
 * counts what was measured and what did not apply. Its counts come from the
 * experiments' statuses alone, so the host tool derives the same line from a
 * report's JSON (reports/tool/, also for reports written before the verdict
 * existed): an experiment SKIPped with no point did not apply; one SKIPped
 * after it measured (stale_detector_control on a machine where the verifier
 * is blind) is inconclusive. This file depends on nothing but the result
 * enum, so the host tool compiles it as it is. Like every other output, the
 * line says when the run was simulated (the model's) or emulated.
 */
#ifndef TLBSCOPE_CORE_VERDICT_H
#define TLBSCOPE_CORE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/run/result.h"

enum verdict_word { VERDICT_COMPLETE = 0, VERDICT_ERROR, VERDICT_FAILURE };

/* the ids named after "not applicable" when the line has room */
#define VERDICT_MAX_NAMED 8

struct verdict {
    enum verdict_word word;
    uint32_t measured;       /* SUCCESS */
    uint32_t not_applicable; /* SKIP before measuring anything */
    uint32_t inconclusive;   /* SKIP after measuring */
    uint32_t in_error;       /* ERROR */
    uint32_t failed;         /* FAILURE */
    uint32_t cpus_dropped;   /* hung, faulted, too slow or absent CPUs */
    uint32_t run_errors;     /* run.errors entries */
    bool simulated;          /* tlbscope-sim: the line ends [SIMULATED] */
    bool emulated;           /* emulated instructions or an emulator: the line ends [EMULATED] */
    bool virtualised;        /* a virtual machine on real CPUs (aarch64's cpu.platform): [VIRTUALISED] */
    uint32_t named;          /* ids in not_applicable_ids */
    const char *not_applicable_ids[VERDICT_MAX_NAMED];
};

void verdict_init(struct verdict *v);
/* One experiment that ran: its status and whether it recorded any point. id may be NULL. */
void verdict_count(struct verdict *v, enum result status, bool has_points, const char *id);
/* The word, from the run's result (SUCCESS and SKIP: COMPLETE). */
void verdict_conclude(struct verdict *v, enum result run_result);
/* "COMPLETE", "ERROR", "FAILURE"; false from parse for anything else. */
const char *verdict_word_name(enum verdict_word w);
bool verdict_word_parse(const char *s, enum verdict_word *out);
/*
 * The line, without a line end, at most `width` columns when the ids fit
 * (they are left out otherwise); NUL-terminated, cut to cap - 1 characters.
 * Returns the length it needed.
 */
size_t verdict_line(const struct verdict *v, unsigned width, char *buf, size_t cap);

#endif
