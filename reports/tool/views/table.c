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
    size_t *wrap; /* per column: cells longer than this wrap at blanks (table_wrap) */
    char **cells; /* nrows * ncols, NULL for empty */
    bool *span;   /* per row: a line of text across the columns (table_add_span), in cell 0 */
    size_t span_width; /* where span rows wrap: 0, at the table's width */
};

struct table *table_new(size_t ncols)
{
    struct table *t = calloc(1, sizeof(*t));
    if (!t || !ncols)
        goto fail;
    t->ncols = ncols;
    t->header = calloc(ncols, sizeof(*t->header));
    t->right = calloc(ncols, sizeof(*t->right));
    t->wrap = calloc(ncols, sizeof(*t->wrap));
    if (!t->header || !t->right || !t->wrap)
        goto fail;
    for (size_t c = 0; c < ncols; c++)
        t->wrap[c] = TABLE_TEXT_CELL_MAX;
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
    free(t->wrap);
    free(t->span);
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

void table_wrap(struct table *t, size_t col, size_t width)
{
    if (t && col < t->ncols)
        t->wrap[col] = width < 1 ? 1 : width > TABLE_TEXT_CELL_MAX ? TABLE_TEXT_CELL_MAX : width;
}

size_t table_add_row(struct table *t)
{
    if (!t)
        return 0;
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        char **grown = realloc(t->cells, cap * t->ncols * sizeof(*grown));
        bool *spans = grown ? realloc(t->span, cap * sizeof(*spans)) : NULL;
        if (grown)
            t->cells = grown;
        if (!spans)
            return (size_t)-1;
        t->span = spans;
        t->cap = cap;
    }
    memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
    t->span[t->nrows] = false;
    return t->nrows++;
}

void table_span_width(struct table *t, size_t width)
{
    if (t)
        t->span_width = width;
}

size_t table_add_span(struct table *t, const char *text)
{
    size_t r = table_add_row(t);
    if (r < table_rows(t)) {
        t->span[r] = true;
        table_set(t, r, 0, "%s", text);
    }
    return r;
}

size_t table_rows(const struct table *t) { return t ? t->nrows : 0; }

void table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
    va_list ap;
    char **cell, *text;
    int len;
    if (!t || row >= t->nrows || col >= t->ncols)
        return;
    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0 || !(text = malloc((size_t)len + 1)))
        return;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap); /* the whole value: a view never cuts one */
    va_end(ap);
    cell = &t->cells[row * t->ncols + col];
    free(*cell);
    *cell = text;
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

/*
 * Where a cell's next text line ends, `s` at its start: the cell wraps at blanks to the
 * column's wrap width; a word longer than that stays whole (the column widens to it) up to
 * TABLE_TEXT_CELL_MAX, and only a longer word (a corrupt report's) is broken there. Nothing
 * is ever dropped: a value is never cut.
 */
static size_t cell_line_len(const char *s, size_t wrap)
{
    size_t word = strcspn(s, " ");
    if (word > wrap)
        return word < TABLE_TEXT_CELL_MAX ? word : TABLE_TEXT_CELL_MAX;
    return units_line_len(s, wrap);
}

/* The next text line of a cell into line (control characters as blanks); s moves past it. */
static const char *cell_line(const char **s, size_t wrap, char *line)
{
    size_t k = cell_line_len(*s, wrap), i;
    for (i = 0; i < k; i++)
        line[i] = (unsigned char)(*s)[i] < 0x20 || (*s)[i] == 0x7f ? ' ' : (*s)[i];
    line[k] = '\0';
    for (*s += k; **s == ' '; (*s)++)
        ;
    return line;
}

/* The widest text line of a cell as it wraps in column c. */
static size_t cell_width(const struct table *t, const char *s, size_t c)
{
    size_t w = 0, k;
    while (*s == ' ')
        s++;
    do {
        k = cell_line_len(s, t->wrap[c]);
        if (k > w)
            w = k;
        for (s += k; *s == ' '; s++)
            ;
    } while (*s);
    return w;
}

/* Each column's width: its widest header or wrapped cell line. */
static void column_widths(const struct table *t, size_t *width)
{
    size_t c, r;
    for (c = 0; c < t->ncols; c++) {
        width[c] = cell_width(t, header_at(t, c), c);
        for (r = 0; r < t->nrows; r++) {
            size_t w = t->span[r] ? 0 : cell_width(t, cell_at(t, r, c), c);
            if (w > width[c])
                width[c] = w;
        }
    }
}

size_t table_text_width(const struct table *t)
{
    size_t c, total = 0, *width = t ? calloc(t->ncols, sizeof(*width)) : NULL;
    if (!width)
        return 0;
    column_widths(t, width);
    for (c = 0; c < t->ncols; c++)
        total += width[c] + (c + 1 < t->ncols ? 2 : 0);
    free(width);
    return total;
}

/* One table row (or the header, row 0) as text lines: a cell that wraps continues below. */
static void print_text_row(const struct table *t, FILE *out, const char *indent,
                           const size_t *width, size_t r, const char **rest)
{
    char line[TABLE_TEXT_CELL_MAX + 1];
    size_t c;
    bool more;
    for (c = 0; c < t->ncols; c++)
        for (rest[c] = r == 0 ? header_at(t, c) : cell_at(t, r - 1, c); *rest[c] == ' ';)
            rest[c]++;
    do {
        fputs(indent ? indent : "", out);
        for (c = 0; c < t->ncols; c++) {
            bool last = c + 1 == t->ncols;
            cell_line(&rest[c], t->wrap[c], line);
            if (t->right[c])
                fprintf(out, "%*s%s", (int)width[c], line, last ? "" : "  ");
            else if (last)
                fputs(line, out);
            else
                fprintf(out, "%-*s  ", (int)width[c], line);
        }
        fputc('\n', out);
        for (more = false, c = 0; c < t->ncols; c++)
            more |= *rest[c] != '\0';
    } while (more);
}

/* A span row: its text across the table's width, wrapped at blanks, continued 2 in. */
static void print_text_span(FILE *out, const char *indent, const char *text, size_t width)
{
    size_t k, i;
    const char *lead = "";
    while (*text == ' ')
        text++;
    do {
        k = units_line_len(text, width > 12 + strlen(lead) ? width - strlen(lead) : 12);
        fprintf(out, "%s%s", indent ? indent : "", lead);
        for (i = 0; i < k; i++)
            fputc((unsigned char)text[i] < 0x20 || text[i] == 0x7f ? ' ' : text[i], out);
        fputc('\n', out);
        for (text += k; *text == ' '; text++)
            ;
        lead = "  ";
    } while (*text);
}

static void print_text(const struct table *t, FILE *out, const char *indent)
{
    size_t *width = calloc(t->ncols, sizeof(*width)), r, c, total = 0;
    const char **rest = calloc(t->ncols, sizeof(*rest));
    if (width && rest) {
        column_widths(t, width);
        for (c = 0; c < t->ncols; c++)
            total += width[c] + (c + 1 < t->ncols ? 2 : 0);
        for (r = 0; r <= t->nrows; r++) {
            if (r && t->span[r - 1])
                print_text_span(out, indent, cell_at(t, r - 1, 0),
                                t->span_width > total ? t->span_width : total);
            else
                print_text_row(t, out, indent, width, r, rest);
        }
    }
    free(width);
    free(rest);
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
        if (t->span[r]) {
            fprintf(out, "<tr><td colspan=\"%zu\">", t->ncols);
            svg_text(out, cell_at(t, r, 0));
            fputs("</td></tr>\n", out);
            continue;
        }
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
