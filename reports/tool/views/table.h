/*
 * A table of text cells printed four ways: aligned plain text (numbers
 * right-aligned), CSV (RFC 4180 quoting), a Markdown pipe table or an HTML table. show and
 * compare build their tables once and choose the format at the end.
 */
#ifndef TLBSCOPE_REPORT_TABLE_H
#define TLBSCOPE_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum table_format { TABLE_TEXT = 0, TABLE_CSV, TABLE_MARKDOWN, TABLE_HTML };

/*
 * Plain-text cells longer than this wrap onto continuation lines, at blanks, a word longer
 * than this (only a corrupt report's) where it reaches it: a corrupt report must not make a
 * 10 kB line, and no value is ever cut.
 */
#define TABLE_TEXT_CELL_MAX 48

struct table;

/* NULL when out of memory; every other function accepts NULL and does nothing. */
struct table *table_new(size_t ncols);
void table_free(struct table *t);
void table_header(struct table *t, size_t col, const char *text, bool right_align);
/*
 * TABLE_TEXT: column col's cells wrap at blanks to at most `width` characters a line (default
 * and at most TABLE_TEXT_CELL_MAX); a longer word keeps its column that wide, never cut.
 */
void table_wrap(struct table *t, size_t col, size_t width);
/* Appends an empty row and returns its index. */
size_t table_add_row(struct table *t);
/*
 * Appends a row that is one line of text across the columns (a heading within the table, as
 * the point above its rows); TABLE_TEXT wraps it at the table's width, the other formats put
 * it in the first cell (HTML: spanning the row).
 */
size_t table_add_span(struct table *t, const char *text);
/* TABLE_TEXT: span rows wrap at `width` where the table is narrower (default: its width). */
void table_span_width(struct table *t, size_t width);
void table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
size_t table_rows(const struct table *t);
/* The widest TABLE_TEXT line, indent not counted (cells wrapped as printed). */
size_t table_text_width(const struct table *t);
/* TABLE_TEXT lines start with `indent`; the other formats ignore it. */
void table_print(const struct table *t, FILE *out, enum table_format fmt, const char *indent);
/*
 * One CSV field, quoted as RFC 4180 says when it holds a comma, quote or line break. A field
 * a spreadsheet would take for a formula (table_csv_formula) gets a leading single quote,
 * as OWASP advises for CSV injection: text from a report (a CPU brand, a note) must not run
 * as "=HYPERLINK(...)" in the spreadsheet of whoever opens the file.
 */
void table_csv_cell(FILE *out, const char *s);
/* Whether s starts with = + - @, a tab or a carriage return and is not a plain number
 * (-3.5, +2, 1e-3 stay numbers) nor a lone "-" (the tool's "none"). */
bool table_csv_formula(const char *s);

#endif
