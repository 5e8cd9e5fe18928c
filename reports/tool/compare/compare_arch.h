/*
 * compare across architectures (issue 27): an x86_64 and an aarch64 report
 * share the experiments both define the same way (ipi_roundtrip,
 * stale_detector_control), each a section, and the questions both answer
 * with experiments of their own (compare_questions.h); all in ns (each
 * side's own tick rate: tsc_hz, counter_hz). Every other experiment is
 * listed per side.
 */
#ifndef TLBSCOPE_REPORT_COMPARE_ARCH_H
#define TLBSCOPE_REPORT_COMPARE_ARCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/compare/compare.h"

/* An experiment that means the same on both architectures. */
bool compare_arch_shared(const char *id);
/* The reports name more than one architecture (absent: x86_64). */
bool compare_arch_mixed(struct m_report *const *all, size_t nall);
/* Whether the experiment gets a section: always within one architecture; across them only a
 * shared one that two sides or more have, and only in ns. */
bool compare_arch_keeps(const struct cmp_model *m, const char *id);
/* The ids of side's experiments that have no section and answer no compared question, in
 * report order; returns the count. */
size_t compare_arch_only(const struct cmp_model *m, size_t side, const char **ids, size_t cap);
/* "Architectures: ..." and one "only in A (x86_64): ..." line per side (text or markdown). */
void compare_arch_print(const struct cmp_model *m, FILE *out, bool markdown, int width);
/* compare --json: {mixed, sides: {A: arch}, compared: [...], only_in: {A: [...]},
 * questions: [...] (compare_questions.h)}. */
json_t *compare_arch_json(const struct cmp_model *m);

#endif
