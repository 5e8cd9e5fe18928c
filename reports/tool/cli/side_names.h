/*
 * The names compare and html give their sides (issue 31, item 4): the
 * NAME of a NAME=f1.json,f2.json operand, else a short CPU name from the
 * report ("EPYC-7763" from "AMD EPYC 7763 64-Core Processor"), else a letter.
 * Names are made unique ("QEMU-TCG", "QEMU-TCG_2"); a side's second run and
 * later ones are NAME#2, NAME#3. They go into text, JSON, CSV and HTML as
 * they are, so a name is letters, digits and . _ + - only.
 */
#ifndef TLBSCOPE_REPORT_SIDE_NAMES_H
#define TLBSCOPE_REPORT_SIDE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/tool/model/model.h"

/* The longest name a side may have (the label holds it and "#NN"). */
#define SIDE_NAME_MAX 15

/* Is `name` (of `len` bytes) a valid side name: 1 to SIDE_NAME_MAX of [A-Za-z0-9._+-]? */
bool side_name_valid(const char *name, size_t len);
/* "EPYC-7763", "Xeon-8180", "i9-12900K", "QEMU-TCG" from cpu.brand; "" when it has none. */
const char *side_cpu_name(const struct m_report *r, char *buf, size_t cap);

#endif
