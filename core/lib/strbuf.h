/*
 * A growable (or fixed) character buffer with a small printf.
 *
 * The formatter supports what tlbscope prints: %s %c %d %i %u %x %X %p %%,
 * the length modifiers l, ll and z, flags '-' and '0', a field width and a
 * precision for strings (also as '*'). No floating point: EFI code is built
 * with -mgeneral-regs-only, so fractions are printed with sb_fixed().
 */
#ifndef TLBSCOPE_CORE_STRBUF_H
#define TLBSCOPE_CORE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
    char *data;     /* always NUL-terminated when cap > 0 */
    size_t len;
    size_t cap;
    bool growable;  /* allocated with mem_alloc and may be reallocated */
    bool truncated; /* an append did not fit (fixed buffer or no memory) */
};

void sb_init_fixed(struct strbuf *sb, char *buf, size_t cap);
/* Returns false when the initial allocation fails. */
bool sb_init_dynamic(struct strbuf *sb, size_t initial_cap);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);

void sb_putc(struct strbuf *sb, char c);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putn(struct strbuf *sb, const char *s, size_t n);
void sb_repeat(struct strbuf *sb, char c, size_t count);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/*
 * `text` after `first`, broken at spaces into lines of at most `width`
 * columns (a word longer than a line is cut), each further line after `cont`.
 */
void sb_put_wrapped(struct strbuf *sb, const char *first, const char *cont, const char *text,
                    size_t width);
/* Prints value / 10^decimals with exactly `decimals` fraction digits. */
void sb_fixed(struct strbuf *sb, int64_t value, unsigned decimals);

/*
 * Appends `text` word-wrapped to lines of at most `width` columns: the first
 * line after `first`, every further one after `indent` spaces; a word
 * longer than a line gets a line of its own. Ends with a newline.
 */
void sb_wrapped(struct strbuf *sb, const char *first, size_t indent, const char *text,
                size_t width);

/* snprintf-alike into a fixed array; returns the length written. */
size_t fmt_into(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
