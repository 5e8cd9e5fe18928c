#include "core/lib/strbuf.h"
#include "core/lib/mem.h"

void sb_init_fixed(struct strbuf *sb, char *buf, size_t cap)
{
    sb->data = buf;
    sb->cap = cap;
    sb->len = 0;
    sb->growable = false;
    sb->truncated = false;
    if (cap)
        buf[0] = 0;
}

bool sb_init_dynamic(struct strbuf *sb, size_t initial_cap)
{
    sb_init_fixed(sb, NULL, 0);
    sb->growable = true;
    sb->data = mem_alloc(initial_cap ? initial_cap : 64);
    if (!sb->data) {
        sb->growable = false;
        sb->truncated = true;
        return false;
    }
    sb->cap = initial_cap ? initial_cap : 64;
    sb->data[0] = 0;
    return true;
}

void sb_release(struct strbuf *sb)
{
    if (sb->growable)
        mem_free(sb->data);
    sb_init_fixed(sb, NULL, 0);
}

void sb_reset(struct strbuf *sb)
{
    sb->len = 0;
    sb->truncated = false;
    if (sb->cap)
        sb->data[0] = 0;
}

/* Makes room for `extra` more bytes plus the terminator. */
static bool sb_reserve(struct strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    size_t cap;
    char *grown;
    if (need <= sb->cap)
        return true;
    if (!sb->growable)
        return false;
    cap = sb->cap;
    while (cap < need)
        cap *= 2;
    grown = mem_alloc(cap);
    if (!grown)
        return false;
    mem_copy(grown, sb->data, sb->len + 1);
    mem_free(sb->data);
    sb->data = grown;
    sb->cap = cap;
    return true;
}

void sb_putn(struct strbuf *sb, const char *s, size_t n)
{
    if (!sb_reserve(sb, n)) {
        sb->truncated = true;
        if (sb->cap == 0)
            return;
        n = sb->cap - 1 - sb->len; /* keep what fits */
    }
    mem_copy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_putc(struct strbuf *sb, char c) { sb_putn(sb, &c, 1); }
void sb_puts(struct strbuf *sb, const char *s) { sb_putn(sb, s, str_len(s)); }

void sb_repeat(struct strbuf *sb, char c, size_t count)
{
    while (count--)
        sb_putc(sb, c);
}

void sb_put_wrapped(struct strbuf *sb, const char *first, const char *cont, const char *text,
                    size_t width)
{
    const char *prefix = first, *p = text;
    do {
        size_t plen = 0, room, n = 0, cut;
        while (prefix[plen])
            plen++;
        room = width > plen + 10 ? width - plen : 10;
        while (*p == ' ')
            p++;
        while (p[n])
            n++;
        cut = n;
        if (n > room) {
            for (cut = room; cut > 0 && p[cut] != ' '; cut--)
                ;
            if (cut == 0)
                cut = room;
        }
        sb_puts(sb, prefix);
        sb_putn(sb, p, cut);
        sb_putc(sb, '\n');
        p += cut;
        while (*p == ' ')
            p++;
        prefix = cont;
    } while (*p);
}

struct spec {
    bool left;
    bool zero;
    int width;
    int precision; /* -1: none */
};

static void emit_padded(struct strbuf *sb, const struct spec *sp, const char *s, size_t n)
{
    size_t pad = sp->width > 0 && (size_t)sp->width > n ? (size_t)sp->width - n : 0;
    if (!sp->left)
        sb_repeat(sb, sp->zero ? '0' : ' ', pad);
    sb_putn(sb, s, n);
    if (sp->left)
        sb_repeat(sb, ' ', pad);
}

static void emit_unsigned(struct strbuf *sb, const struct spec *sp, uint64_t v, unsigned base,
                          bool upper, bool negative)
{
    char digits[24];
    char out[26];
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    size_t n = 0, o = 0;
    struct spec num = *sp;
    do {
        digits[n++] = set[v % base];
        v /= base;
    } while (v);
    if (negative) {
        if (num.zero) {
            /* the sign goes before the zero padding */
            sb_putc(sb, '-');
            if (num.width > 0)
                num.width--;
        } else {
            out[o++] = '-';
        }
    }
    while (n)
        out[o++] = digits[--n];
    emit_padded(sb, &num, out, o);
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
    while (*fmt) {
        struct spec sp = { false, false, 0, -1 };
        int lng = 0; /* 0 int, 1 long, 2 long long, 3 size_t */
        char conv;
        if (*fmt != '%') {
            const char *run = fmt;
            while (*fmt && *fmt != '%')
                fmt++;
            sb_putn(sb, run, (size_t)(fmt - run));
            continue;
        }
        fmt++;
        for (;; fmt++) {
            if (*fmt == '-')
                sp.left = true;
            else if (*fmt == '0')
                sp.zero = true;
            else
                break;
        }
        if (*fmt == '*') {
            sp.width = va_arg(ap, int);
            if (sp.width < 0) {
                sp.left = true;
                sp.width = -sp.width;
            }
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9')
            sp.width = sp.width * 10 + (*fmt++ - '0');
        if (*fmt == '.') {
            fmt++;
            sp.precision = 0;
            if (*fmt == '*') {
                sp.precision = va_arg(ap, int);
                fmt++;
            }
            while (*fmt >= '0' && *fmt <= '9')
                sp.precision = sp.precision * 10 + (*fmt++ - '0');
        }
        if (sp.left)
            sp.zero = false;
        if (*fmt == 'l') {
            lng = 1;
            if (*++fmt == 'l') {
                lng = 2;
                fmt++;
            }
        } else if (*fmt == 'z') {
            lng = 3;
            fmt++;
        }
        conv = *fmt ? *fmt++ : 0;
        switch (conv) {
        case 's': {
            const char *s = va_arg(ap, const char *);
            size_t n;
            struct spec str = sp;
            str.zero = false;
            if (!s)
                s = "(null)";
            n = sp.precision >= 0 ? str_nlen(s, (size_t)sp.precision) : str_len(s);
            emit_padded(sb, &str, s, n);
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            emit_padded(sb, &sp, &c, 1);
            break;
        }
        case 'd':
        case 'i': {
            int64_t v = lng == 0 ? va_arg(ap, int)
                      : lng == 1 ? va_arg(ap, long)
                      : lng == 2 ? va_arg(ap, long long)
                                 : (int64_t)va_arg(ap, size_t);
            uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
            emit_unsigned(sb, &sp, mag, 10, false, v < 0);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v = lng == 0 ? va_arg(ap, unsigned)
                       : lng == 1 ? va_arg(ap, unsigned long)
                       : lng == 2 ? va_arg(ap, unsigned long long)
                                  : va_arg(ap, size_t);
            emit_unsigned(sb, &sp, v, conv == 'u' ? 10 : 16, conv == 'X', false);
            break;
        }
        case 'p': {
            uintptr_t v = (uintptr_t)va_arg(ap, void *);
            sb_puts(sb, "0x");
            emit_unsigned(sb, &sp, v, 16, false, false);
            break;
        }
        case '%':
            sb_putc(sb, '%');
            break;
        default:
            /* Unknown conversion: print it verbatim so the mistake is visible. */
            sb_putc(sb, '%');
            if (conv)
                sb_putc(sb, conv);
            break;
        }
    }
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void sb_fixed(struct strbuf *sb, int64_t value, unsigned decimals)
{
    uint64_t scale = 1, mag;
    unsigned i;
    for (i = 0; i < decimals; i++)
        scale *= 10;
    if (value < 0) {
        sb_putc(sb, '-');
        mag = (uint64_t)0 - (uint64_t)value;
    } else {
        mag = (uint64_t)value;
    }
    sb_printf(sb, "%llu", (unsigned long long)(mag / scale));
    if (decimals)
        sb_printf(sb, ".%0*llu", (int)decimals, (unsigned long long)(mag % scale));
}

void sb_wrapped(struct strbuf *sb, const char *first, size_t indent, const char *text,
                size_t width)
{
    size_t col = str_len(first), word;
    bool line_empty = true;
    sb_puts(sb, first);
    while (*text) {
        while (*text == ' ')
            text++;
        for (word = 0; text[word] && text[word] != ' '; word++)
            ;
        if (!word)
            break;
        if (!line_empty && col + 1 + word > width) {
            sb_putc(sb, '\n');
            sb_repeat(sb, ' ', indent);
            col = indent;
            line_empty = true;
        }
        if (!line_empty) {
            sb_putc(sb, ' ');
            col++;
        }
        sb_putn(sb, text, word);
        col += word;
        text += word;
        line_empty = false;
    }
    sb_putc(sb, '\n');
}

size_t fmt_into(char *buf, size_t cap, const char *fmt, ...)
{
    struct strbuf sb;
    va_list ap;
    sb_init_fixed(&sb, buf, cap);
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    return sb.len;
}
