#include "core/report/time_text.h"
#include "core/lib/mem.h"

uint64_t ticks_to_ns(uint64_t ticks, uint64_t tsc_hz)
{
    if (!tsc_hz)
        return 0;
    /* split to avoid overflow of ticks * 1e9 for long intervals */
    return (ticks / tsc_hz) * 1000000000ull + (ticks % tsc_hz) * 1000000000ull / tsc_hz;
}

void time_text(uint64_t ns, char *buf, size_t cap)
{
    /*
     * Rounded to the nearest shown digit, never truncated: 34,902 ns is
     * "34.9 us", not "34 us". Integer arithmetic (no floating point in the
     * app); one decimal below 100 of a unit, none above.
     */
    if (ns >= 99950000)
        fmt_into(buf, cap, "%llu ms", (unsigned long long)((ns + 500000) / 1000000));
    else if (ns >= 9999500)
        fmt_into(buf, cap, "%llu.%llu ms", (unsigned long long)((ns + 50000) / 1000000),
                 (unsigned long long)((ns + 50000) / 100000 % 10));
    else if (ns >= 99950)
        fmt_into(buf, cap, "%llu us", (unsigned long long)((ns + 500) / 1000));
    else if (ns >= 10000)
        fmt_into(buf, cap, "%llu.%llu us", (unsigned long long)((ns + 50) / 1000),
                 (unsigned long long)((ns + 50) / 100 % 10));
    else
        fmt_into(buf, cap, "%llu ns", (unsigned long long)ns);
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_word(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* A signed integer at s (digits, or '-' and digits); its end, or NULL. */
static const char *number(const char *s, int64_t *v)
{
    bool neg = *s == '-';
    int64_t x = 0;
    if (neg)
        s++;
    if (!is_digit(*s))
        return NULL;
    while (is_digit(*s))
        x = x * 10 + (*s++ - '0');
    *v = neg ? -x : x;
    return s;
}

/* " ticks", then an optional "/word": its end (and the suffix), or NULL. */
static const char *ticks_word(const char *s, const char **suffix, size_t *suffix_len)
{
    const char *t = " ticks";
    while (*t && *s == *t) {
        s++;
        t++;
    }
    if (*t)
        return NULL;
    *suffix = s;
    if (*s == '/')
        for (s++; is_word(*s); s++)
            ;
    *suffix_len = (size_t)(s - *suffix);
    return is_word(*s) ? NULL : s;
}

static void put_time(struct strbuf *sb, int64_t ticks, uint64_t tsc_hz)
{
    char t[24];
    time_text(ticks_to_ns((uint64_t)(ticks < 0 ? -ticks : ticks), tsc_hz), t, sizeof(t));
    sb_printf(sb, "%s%s", ticks < 0 ? "-" : "", t);
}

void prose_ticks_as_time(struct strbuf *sb, const char *text, uint64_t tsc_hz)
{
    const char *p = text;
    while (*p) {
        const char *end, *to, *after, *suffix;
        size_t suffix_len;
        int64_t a, b = 0;
        bool range = false;
        bool starts = (is_digit(*p) || (*p == '-' && is_digit(p[1]))) &&
                      (p == text || (!is_word(p[-1]) && p[-1] != '.' && p[-1] != '-'));
        if (!tsc_hz || !starts || !(end = number(p, &a))) {
            sb_putc(sb, *p++);
            continue;
        }
        after = NULL;
        if (str_has_prefix(end, " to ") && (to = number(end + 4, &b)) != NULL &&
            (after = ticks_word(to, &suffix, &suffix_len)) != NULL)
            range = true;
        else
            after = ticks_word(end, &suffix, &suffix_len);
        if (!after) { /* a number of something else: as it is */
            sb_putn(sb, p, (size_t)(end - p));
            p = end;
            continue;
        }
        put_time(sb, a, tsc_hz);
        if (range) {
            sb_puts(sb, " to ");
            put_time(sb, b, tsc_hz);
        }
        sb_putn(sb, suffix, suffix_len);
        sb_puts(sb, " (");
        sb_putn(sb, p, (size_t)(after - p - suffix_len)); /* "A ticks" or "A to B ticks" */
        sb_putn(sb, suffix, suffix_len);
        sb_putc(sb, ')');
        p = after;
    }
}
