/*
 * Markdown that quotes reports. A Markdown renderer passes HTML through as it is, so text from
 * a report (a CPU brand, a note, a parameter's value) holding "<script>" would run in the
 * browser of whoever opens the comparison on a forge or wiki: everything compare --markdown
 * prints goes through md_write_escaped, which writes < > & as entities.
 */
#ifndef TLBSCOPE_REPORT_MD_ESCAPE_H
#define TLBSCOPE_REPORT_MD_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * text[0..len) with & < > written as &amp; &lt; &gt;, but for the ">" markers that open a
 * line (a block quote: the tool's own WARNING lines). The tool's own Markdown uses none of
 * the three otherwise; a pipe inside a table cell is table.c's (\|), not this.
 */
void md_write_escaped(FILE *out, const char *text, size_t len);

#endif
