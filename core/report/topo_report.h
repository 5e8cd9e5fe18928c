/*
 * The topology classes in the report (issue 21): which CPUID leaf gave the
 * L3 sharing, how many ordered CPU pairs each class has, and the class of
 * every pair (`topology.pair_classes`, one letter per pair, reports/SCHEMA.md).
 */
#ifndef TLBSCOPE_CORE_TOPO_REPORT_H
#define TLBSCOPE_CORE_TOPO_REPORT_H

#include "core/lib/json.h"
#include "core/run/run.h"

/* Above this many CPUs pair_classes is null (n^2 letters: 64 KiB at 256). */
#define TOPO_PAIR_CLASSES_MAX 256

/* Members of the open `topology` object: l3_source, classes, pair_class_codes, pair_classes. */
void topo_report_classes(struct json_writer *w, const struct run *r);
/*
 * method.linux_ipi_mode: the IPI mode Linux would pick here (core/machine/linux_apic.h),
 * why, and whether this run measured that mode's points (x2APIC cluster
 * points need x2APIC mode).
 */
void topo_report_linux_ipi_mode(struct json_writer *w, const struct run *r);
/* One CPU's `l3` member: its L3's number, or null when no L3 is enumerated. */
void topo_report_cpu_l3(struct json_writer *w, const struct cpu_info *c);

#endif
