/*
 * Numbers as the reader sees them. Reports keep TSC ticks; views show
 * nanoseconds when the report knows its TSC frequency (cpu.tsc_hz), and say
 * which unit a column is in. NaN (absent) prints as "-".
 */
#ifndef TLBSCOPE_REPORT_UNITS_H
#define TLBSCOPE_REPORT_UNITS_H

#include <stddef.h>
#include <stdio.h>

/* A duration in ns: "1154", "12.5" below 100 ns. */
const char *units_ns(double ns, char *buf, size_t cap);
/* A duration scaled to its unit, 3 significant digits: "812 ns", "34.9 us", "1.23 ms", "2.05 s". */
const char *units_time(double ns, char *buf, size_t cap);
/* A count with thousands separators: "518,373"; exact up to 2^63-1. */
const char *units_count(double v, char *buf, size_t cap);
/* A tick count: "3000". */
const char *units_ticks(double ticks, char *buf, size_t cap);
/* A ratio: "1.84". */
const char *units_ratio(double r, char *buf, size_t cap);
/* A plain number from a report (a parameter or a value): "12", "0.873". */
const char *units_number(double v, char *buf, size_t cap);
/* Copies `s` with control characters replaced by blanks; the caller's buffer holds it whole
 * (a view wraps a long value, never cuts it). */
const char *units_plain(const char *s, char *buf, size_t cap);

/*
 * Where the first of `text`'s lines of at most `width` characters ends: at a blank, or
 * mid-word only for a word longer than a line. Nothing is dropped: the rest is the next line.
 */
size_t units_line_len(const char *text, size_t width);

/*
 * Prose from a report (reasons, notes) wrapped at `width` columns: the first
 * line starts with `first`, the others with `cont`. A word longer than a line
 * is broken where the line ends and goes on on the next; control characters become spaces.
 */
void units_print_wrapped(FILE *out, const char *first, const char *cont, const char *text,
                         size_t width);

#endif
