/*
 * compare's warning when shootdown_contention's steady windows differ
 * between the reports (issue 32): a rate over 10 ms and one over 250 ms
 * are not the same measurement (a short window holds few shootdowns, and
 * the planned length followed each run's budget). Kept apart from compare's
 * alignment of points, which it does not touch.
 */
#ifndef TLBSCOPE_TOOL_COMPARE_WINDOWS_H
#define TLBSCOPE_TOOL_COMPARE_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/model/model.h"

/*
 * True, with the warning's text in buf, when two of the n reports' steady
 * windows (each report's shortest steady point's window_ms, and its number
 * of windows a point) differ by more than a tenth or in number.
 */
bool compare_window_warning(const struct m_report *const *reports, size_t n, char *buf,
                            size_t cap);

#endif
