#define _GNU_SOURCE /* fopencookie */
#include "reports/tool/cli/wrap80.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

struct wrap80 {
    FILE *out;
    bool raw; /* the line holds a carriage return or an escape: a progress line, not wrapped */
    size_t len;
    char line[8192]; /* a longer line is written as it is, in pieces */
};

/* Columns of s[0..n): UTF-8 continuation bytes take none. */
static size_t columns(const char *s, size_t n)
{
    size_t c = 0, i;
    for (i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

/* The byte index where `width` columns of s[0..n) end. */
static size_t bytes_for(const char *s, size_t n, size_t width)
{
    size_t c = 0, i;
    for (i = 0; i < n; i++) {
        if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == width)
            return i;
    }
    return n;
}

/* One line (no line end) out, broken between words; a word longer than a line stays whole. */
static void emit(struct wrap80 *w, const char *s, size_t n)
{
    size_t indent = 0, lead;
    while (indent < n && s[indent] == ' ')
        indent++;
    lead = 0; /* the first piece starts at column 0, the next ones at indent + 2 */
    while (columns(s, n) + lead > WRAP80_COLUMNS) {
        size_t limit = bytes_for(s, n, WRAP80_COLUMNS - lead), cut = limit;
        while (cut > 0 && s[cut] != ' ')
            cut--;
        while (cut > 0 && s[cut - 1] == ' ')
            cut--;
        if (cut == 0 || (!lead && cut <= indent)) { /* one long word (or only the indent): whole */
            cut = limit;
            while (cut < n && s[cut] != ' ')
                cut++;
            if (cut >= n)
                break;
        }
        fprintf(w->out, "%*s%.*s\n", (int)lead, "", (int)cut, s);
        while (cut < n && s[cut] == ' ')
            cut++;
        s += cut;
        n -= cut;
        lead = indent + 2 < WRAP80_COLUMNS / 2 ? indent + 2 : 2;
    }
    fprintf(w->out, "%*s%.*s", (int)lead, "", (int)n, s);
}

static ssize_t wrap_write(void *cookie, const char *buf, size_t size)
{
    struct wrap80 *w = cookie;
    size_t i;
    for (i = 0; i < size; i++) {
        if (buf[i] == '\n') {
            if (w->raw)
                fwrite(w->line, 1, w->len, w->out);
            else
                emit(w, w->line, w->len);
            fputc('\n', w->out);
            w->len = 0;
            w->raw = false;
            continue;
        }
        /* a progress line (import's counter: "\r" and an erase) draws over itself: as it is */
        if (buf[i] == '\r' || buf[i] == '\033')
            w->raw = true;
        if (w->len == sizeof(w->line)) { /* no room: out unbroken */
            fwrite(w->line, 1, w->len, w->out);
            w->len = 0;
        }
        w->line[w->len++] = buf[i];
    }
    if (w->raw && w->len) { /* shown now, as an unbuffered stderr would */
        fwrite(w->line, 1, w->len, w->out);
        w->len = 0;
    }
    fflush(w->out);
    return (ssize_t)size;
}

static int wrap_close(void *cookie)
{
    struct wrap80 *w = cookie;
    if (w->len)
        emit(w, w->line, w->len);
    fflush(w->out);
    free(w);
    return 0;
}

FILE *wrap80_open(FILE *out)
{
    cookie_io_functions_t io = { .read = NULL, .write = wrap_write, .seek = NULL,
                                 .close = wrap_close };
    struct wrap80 *w = calloc(1, sizeof(*w));
    FILE *f;
    if (!w)
        return NULL;
    w->out = out;
    f = fopencookie(w, "w", io);
    if (!f) {
        free(w);
        return NULL;
    }
    setvbuf(f, NULL, _IONBF, 0); /* every write reaches wrap_write at once, as on stderr */
    return f;
}

static FILE *wrapped_stderr, *real_stderr;

static void close_wrapped(void)
{
    if (wrapped_stderr) {
        FILE *f = wrapped_stderr;
        wrapped_stderr = NULL;
        stderr = real_stderr;
        fclose(f);
    }
}

void wrap80_stderr_if_terminal(void)
{
    if (!isatty(STDERR_FILENO))
        return;
    real_stderr = stderr;
    wrapped_stderr = wrap80_open(stderr);
    if (!wrapped_stderr)
        return;
    stderr = wrapped_stderr;
    atexit(close_wrapped);
}
