#include "reports/tool/fleet/query_out.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/sanitize.h"
#include "reports/tool/views/table.h"

struct query_out {
    enum query_format format;
    const struct fdb *db;
    FILE *out;
    size_t rows;
    int ncols;
    bool failed;
    /* aligned: the whole table, printed at the end (widths need every row) */
    char **header;
    char **cells; /* rows * ncols, NULL for SQL NULL */
    bool *numeric_col;
    size_t cap;
};

bool query_format_parse(const char *word, enum query_format *out)
{
    static const char *const words[] = { "tsv", "aligned", "csv", "json" };
    size_t i;
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        if (strcmp(word, words[i]) == 0) {
            *out = (enum query_format)i;
            return true;
        }
    }
    return false;
}

struct query_out *query_out_new(enum query_format format, const struct fdb *db, FILE *out)
{
    struct query_out *q = calloc(1, sizeof(*q));
    if (!q)
        return NULL;
    q->format = format;
    q->db = db;
    q->out = out;
    return q;
}

/* A number as both engines' text should read: an integer's digits as they are, any other
 * value finite with at most 10 significant digits; NULL when it is not a finite number. */
static const char *number_text(const char *v, char *buf, size_t cap)
{
    const char *digits = v + (v[0] == '-');
    char *end = NULL;
    double x;
    if (*digits && strspn(digits, "0123456789") == strlen(digits))
        return v;
    x = strtod(v, &end);
    if (end == v || *end || !isfinite(x))
        return NULL;
    if (x == floor(x) && fabs(x) < 9007199254740992.0) /* 2^53: exact as an integer */
        snprintf(buf, cap, "%.0f", x == 0 ? 0.0 : x);
    else
        snprintf(buf, cap, "%.10g", x);
    return buf;
}

/* A value's text for the terminal and CSV: numbers normalised, strings as they are. */
static const char *value_text(const struct query_out *q, int col, const char *v, char *buf,
                              size_t cap)
{
    const char *num;
    if (!v)
        return "";
    num = fdb_value_is_number(q->db, col) ? number_text(v, buf, cap) : NULL;
    return num ? num : v;
}

static void json_text(FILE *out, const char *s)
{
    json_t *j = json_string(s);
    if (j) {
        json_dumpf(j, out, JSON_ENCODE_ANY);
        json_decref(j);
        return;
    }
    /* not UTF-8: every byte above ASCII as its Latin-1 code point, still valid JSON */
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void print_tsv(struct query_out *q, int ncols, const char *const *names,
                      const char *const *values)
{
    char buf[64];
    int i;
    if (q->rows == 0)
        for (i = 0; i < ncols; i++) {
            fputs(i ? "\t" : "", q->out);
            sanitize_fputs(names[i], q->out);
            fputs(i + 1 == ncols ? "\n" : "", q->out);
        }
    for (i = 0; i < ncols; i++) {
        fputs(i ? "\t" : "", q->out);
        /* sanitize_fputs writes a tab or newline as \x09, \x0a: a field keeps its column */
        sanitize_fputs(value_text(q, i, values[i], buf, sizeof(buf)), q->out);
    }
    fputc('\n', q->out);
}

static void print_csv(struct query_out *q, int ncols, const char *const *names,
                      const char *const *values)
{
    char buf[64];
    int i;
    if (q->rows == 0) {
        for (i = 0; i < ncols; i++) {
            fputs(i ? "," : "", q->out);
            table_csv_cell(q->out, names[i]);
        }
        fputs("\r\n", q->out);
    }
    for (i = 0; i < ncols; i++) {
        fputs(i ? "," : "", q->out);
        table_csv_cell(q->out, value_text(q, i, values[i], buf, sizeof(buf)));
    }
    fputs("\r\n", q->out);
}

static void print_json(struct query_out *q, int ncols, const char *const *names,
                       const char *const *values)
{
    char buf[64];
    int i;
    fputs(q->rows ? ",\n  {" : "[\n  {", q->out);
    for (i = 0; i < ncols; i++) {
        const char *num = values[i] && fdb_value_is_number(q->db, i)
                              ? number_text(values[i], buf, sizeof(buf)) : NULL;
        fputs(i ? ", " : "", q->out);
        json_text(q->out, names[i]);
        fputs(": ", q->out);
        if (!values[i])
            fputs("null", q->out);
        else if (num)
            fputs(num, q->out);
        else
            json_text(q->out, values[i]); /* a string, or a number JSON cannot hold (NaN) */
    }
    fputc('}', q->out);
}

static char *dup_escaped(const char *s)
{
    char *e = sanitize_text(s);
    return e ? e : strdup(s);
}

static void keep_aligned(struct query_out *q, int ncols, const char *const *names,
                         const char *const *values)
{
    char buf[64];
    size_t base;
    int i;
    if (q->rows == 0) {
        q->header = calloc((size_t)ncols, sizeof(*q->header));
        q->numeric_col = calloc((size_t)ncols, sizeof(*q->numeric_col));
        if (!q->header || !q->numeric_col) {
            q->failed = true;
            return;
        }
        for (i = 0; i < ncols; i++) {
            q->header[i] = dup_escaped(names[i]);
            q->numeric_col[i] = true;
        }
    }
    if (q->rows == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 64;
        char **c = realloc(q->cells, cap * (size_t)ncols * sizeof(*c));
        if (!c) {
            q->failed = true;
            return;
        }
        q->cells = c;
        q->cap = cap;
    }
    base = q->rows * (size_t)ncols;
    for (i = 0; i < ncols; i++) {
        q->cells[base + (size_t)i] =
            values[i] ? dup_escaped(value_text(q, i, values[i], buf, sizeof(buf))) : NULL;
        if (values[i] && !fdb_value_is_number(q->db, i))
            q->numeric_col[i] = false; /* a column of numbers is right-aligned */
    }
}

int query_out_row(void *ctx, int ncols, const char *const *names, const char *const *values)
{
    struct query_out *q = ctx;
    if (q->failed)
        return 1;
    q->ncols = ncols;
    if (q->format == QUERY_TSV)
        print_tsv(q, ncols, names, values);
    else if (q->format == QUERY_CSV)
        print_csv(q, ncols, names, values);
    else if (q->format == QUERY_JSON)
        print_json(q, ncols, names, values);
    else
        keep_aligned(q, ncols, names, values);
    q->rows++;
    return q->failed;
}

/* Terminal columns a UTF-8 string takes (a code point each: reports hold no wide ones). */
static size_t text_width(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static void pad(FILE *out, size_t n)
{
    while (n--)
        fputc(' ', out);
}

/* psql's shape: a header, a rule, the rows with " | " between columns, "(N rows)". */
static void print_aligned(struct query_out *q)
{
    size_t *width = calloc((size_t)q->ncols + 1, sizeof(*width)), r;
    int c;
    if (!width) {
        q->failed = true;
        return;
    }
    for (c = 0; c < q->ncols; c++) {
        width[c] = text_width(q->header[c]);
        for (r = 0; r < q->rows; r++) {
            size_t w = text_width(q->cells[r * (size_t)q->ncols + (size_t)c]);
            width[c] = w > width[c] ? w : width[c];
        }
    }
    for (r = 0; r <= q->rows + 1; r++) {
        for (c = 0; c < q->ncols; c++) {
            const char *s = r == 0 ? q->header[c]
                          : r == 1 ? NULL : q->cells[(r - 2) * (size_t)q->ncols + (size_t)c];
            size_t room = width[c] - text_width(s);
            bool last = c + 1 == q->ncols;
            if (r == 1) {
                fputs(c ? "-+-" : "", q->out);
                while (room--)
                    fputc('-', q->out);
                continue;
            }
            fputs(c ? " | " : "", q->out);
            if (r > 1 && q->numeric_col[c])
                pad(q->out, room);
            fputs(s ? s : "", q->out);
            if (!(r > 1 && q->numeric_col[c]) && !last)
                pad(q->out, room);
        }
        fputc('\n', q->out);
    }
    fprintf(q->out, "(%zu row%s)\n", q->rows, q->rows == 1 ? "" : "s");
    free(width);
}

int query_out_finish(struct query_out *q)
{
    size_t i;
    int c, rc;
    if (q->format == QUERY_JSON)
        fputs(q->rows ? "\n]\n" : "[]\n", q->out);
    else if (q->format == QUERY_ALIGNED && q->rows && !q->failed)
        print_aligned(q);
    else if (q->format == QUERY_ALIGNED && !q->rows)
        fputs("(0 rows)\n", q->out);
    rc = q->failed ? -1 : 0;
    for (i = 0; i < q->rows && q->cells; i++)
        for (c = 0; c < q->ncols; c++)
            free(q->cells[i * (size_t)q->ncols + (size_t)c]);
    for (c = 0; q->header && c < q->ncols; c++)
        free(q->header[c]);
    free(q->cells);
    free(q->header);
    free(q->numeric_col);
    free(q);
    return rc;
}
