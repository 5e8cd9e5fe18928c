/* show's machine lines for an aarch64 report (contract A of issue 27). */
#ifndef TLBSCOPE_REPORT_SHOW_ARM64_H
#define TLBSCOPE_REPORT_SHOW_ARM64_H

#include <stdio.h>

#include "reports/tool/model/model.h"

/* Firmware, MIDR and implementer, exception level, GIC, PSCI, TLBI forms, counter rate. */
void show_arm64_machine(const struct m_report *r, FILE *out);

#endif
