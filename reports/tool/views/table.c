#include "reports/tool/views/table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/views/svg.h"
#include "reports/tool/model/units.h"

struct table {
    size_t ncols, nrows, cap;
    char **header;
    bool *right;
    char **cells; /* nrows * ncols, NULL for empty */
};

struct table *table_new(size_t ncols)
{
    struct table *t = calloc(1, sizeof(*t));
    if (!t || !ncols)
        goto fail;
    t->ncols = ncols;
    t->header = calloc(ncols, sizeof(*t->header));
    t->right = calloc(ncols, sizeof(*t->right));
    if (!t->header || !t->right)
        goto fail;
    return t;
fail:
    table_free(t);
    return NULL;
}

void table_free(struct table *t)
{
    size_t i;
    if (!t)
        return;
    for (i = 0; t->header && i < t->ncols; i++)
        free(t->header[i]);
    for (i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->header);
    free(t->right);
    free(t->cells);
    free(t);
}

void table_header(struct table *t, size_t col, const char *text, bool right_align)
{
    if (!t || col >= t->ncols)
        return;
    free(t->header[col]);
    t->header[col] = strdup(text ? text : "");
    t->right[col] = right_align;
}

size_t table_add_row(struct table *t)
{
    if (!t)
        return 0;
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        char **grown = realloc(t->cells, cap * t->ncols * sizeof(*grown));
        if (!grown)
            return (size_t)-1;
        t->cells = grown;
        t->cap = cap;
    }
    memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
    return t->nrows++;
}

size_t table_rows(const struct table *t) { return t ? t->nrows : 0; }

void table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    char **cell;
    if (!t || row >= t->nrows || col >= t->ncols)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    cell = &t->cells[row * t->ncols + col];
    free(*cell);
    *cell = strdup(buf);
}

static const char *header_at(const struct table *t, size_t col)
{
    return t->header[col] ? t->header[col] : "";
}

static const char *cell_at(const struct table *t, size_t row, size_t col)
{
    const char *s = t->cells[row * t->ncols + col];
    return s ? s : "";
}

size_t table_text_width(const struct table *t)
{
    size_t c, r, total = 0;
    char clip[TABLE_TEXT_CELL_MAX * 2];
    if (!t)
        return 0;
    for (c = 0; c < t->ncols; c++) {
        size_t w = strlen(units_clip(header_at(t, c), TABLE_TEXT_CELL_MAX, clip, sizeof(clip)));
        for (r = 0; r < t->nrows; r++) {
            size_t x = strlen(units_clip(cell_at(t, r, c), TABLE_TEXT_CELL_MAX, clip, sizeof(clip)));
            if (x > w)
                w = x;
        }
        total += w + (c + 1 < t->ncols ? 2 : 0);
    }
    return total;
}

static void print_text(const struct table *t, FILE *out, const char *indent)
{
    size_t *width = calloc(t->ncols, sizeof(*width)), r, c;
    char clip[TABLE_TEXT_CELL_MAX * 2];
    if (!width)
        return;
    for (c = 0; c < t->ncols; c++) {
        width[c] = strlen(units_clip(header_at(t, c), TABLE_TEXT_CELL_MAX, clip, sizeof(clip)));
        for (r = 0; r < t->nrows; r++) {
            size_t w = strlen(units_clip(cell_at(t, r, c), TABLE_TEXT_CELL_MAX, clip, sizeof(clip)));
            if (w > width[c])
                width[c] = w;
        }
    }
    for (r = 0; r <= t->nrows; r++) {
        fputs(indent ? indent : "", out);
        for (c = 0; c < t->ncols; c++) {
            const char *s = r == 0 ? header_at(t, c) : cell_at(t, r - 1, c);
            bool last = c + 1 == t->ncols;
            units_clip(s, TABLE_TEXT_CELL_MAX, clip, sizeof(clip));
            if (t->right[c])
                fprintf(out, "%*s%s", (int)width[c], clip, last ? "" : "  ");
            else if (last)
                fputs(clip, out);
            else
                fprintf(out, "%-*s  ", (int)width[c], clip);
        }
        fputc('\n', out);
    }
    free(width);
}

/* A number as a spreadsheet reads one: digits, one sign first, a point, an exponent. */
static bool plain_number(const char *s)
{
    char *end;
    size_t len = strlen(s);
    if (!len || strspn(s, "0123456789+-.eE") != len || !strpbrk(s, "0123456789"))
        return false;
    (void)strtod(s, &end);
    return *end == '\0';
}

bool table_csv_formula(const char *s)
{
    /* a lone "-" (the tool's "none") has nothing after the sign to evaluate */
    return s[0] && strchr("=+-@\t\r", s[0]) && !plain_number(s) && strcmp(s, "-") != 0 &&
           !MUTANT(csv_formula_kept);
}

void table_csv_cell(FILE *out, const char *s)
{
    bool formula = table_csv_formula(s);
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', out);
        if (formula)
            fputc('\'', out);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', out);
            fputc(*s, out);
        }
        fputc('"', out);
    } else {
        if (formula)
            fputc('\'', out);
        fputs(s, out);
    }
}

static void print_csv(const struct table *t, FILE *out)
{
    size_t r, c;
    for (r = 0; r <= t->nrows; r++) {
        for (c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', out);
            table_csv_cell(out, r == 0 ? header_at(t, c) : cell_at(t, r - 1, c));
        }
        fputs("\r\n", out);
    }
}

/* A cell of a pipe table: a pipe escaped, and so a backslash (GFM reads "\\|" as an escaped
 * backslash and a cell's end); < > & are left to md_escape.h, which the whole output goes
 * through. */
static void print_md_cell(FILE *out, const char *s)
{
    fputc(' ', out);
    for (; *s; s++) {
        if (*s == '|' || *s == '\\') {
            fputc('\\', out);
            fputc(*s, out);
        } else if ((unsigned char)*s < 0x20) {
            fputc(' ', out);
        } else {
            fputc(*s, out);
        }
    }
    fputs(" |", out);
}

static void print_markdown(const struct table *t, FILE *out)
{
    size_t r, c;
    for (r = 0; r <= t->nrows; r++) {
        fputc('|', out);
        for (c = 0; c < t->ncols; c++)
            print_md_cell(out, r == 0 ? header_at(t, c) : cell_at(t, r - 1, c));
        fputc('\n', out);
        if (r == 0) {
            fputc('|', out);
            for (c = 0; c < t->ncols; c++)
                fputs(t->right[c] ? " --: |" : " --- |", out);
            fputc('\n', out);
        }
    }
}

static void print_html(const struct table *t, FILE *out)
{
    size_t r, c;
    fputs("<table class=\"data\">\n<thead><tr>", out);
    for (c = 0; c < t->ncols; c++) {
        fputs(t->right[c] ? "<th class=\"num\">" : "<th>", out);
        svg_text(out, header_at(t, c));
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (r = 0; r < t->nrows; r++) {
        fputs("<tr>", out);
        for (c = 0; c < t->ncols; c++) {
            fputs(t->right[c] ? "<td class=\"num\">" : "<td>", out);
            svg_text(out, cell_at(t, r, c));
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

void table_print(const struct table *t, FILE *out, enum table_format fmt, const char *indent)
{
    if (!t)
        return;
    if (fmt == TABLE_CSV)
        print_csv(t, out);
    else if (fmt == TABLE_MARKDOWN)
        print_markdown(t, out);
    else if (fmt == TABLE_HTML)
        print_html(t, out);
    else
        print_text(t, out, indent);
}
