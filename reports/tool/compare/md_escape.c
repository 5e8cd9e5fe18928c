#include "reports/tool/compare/md_escape.h"

#include <stdbool.h>

#include "core/mutant.h"

void md_write_escaped(FILE *out, const char *text, size_t len)
{
    bool line_start = true; /* still in the line's leading "> > " block-quote markers */
    size_t i;
    for (i = 0; i < len; i++) {
        char ch = text[i];
        if (ch == '\n') {
            line_start = true;
            fputc(ch, out);
            continue;
        }
        if (line_start && (ch == '>' || ch == ' ')) {
            fputc(ch, out);
            continue;
        }
        line_start = false;
        if (MUTANT(markdown_html_kept))
            fputc(ch, out);
        else if (ch == '&')
            fputs("&amp;", out);
        else if (ch == '<')
            fputs("&lt;", out);
        else if (ch == '>')
            fputs("&gt;", out);
        else
            fputc(ch, out);
    }
}
