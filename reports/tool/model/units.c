#include "reports/tool/model/units.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *units_ns(double ns, char *buf, size_t cap)
{
    if (!isfinite(ns))
        snprintf(buf, cap, "-");
    else if (fabs(ns) < 100)
        snprintf(buf, cap, "%.1f", ns);
    else
        snprintf(buf, cap, "%.0f", ns);
    return buf;
}

const char *units_time(double ns, char *buf, size_t cap)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
    size_t i;
    if (!isfinite(ns)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    for (i = 0; i < 3 && fabs(ns) < units[i].scale * 0.9995; i++)
        ;
    {
        double v = ns / units[i].scale, a = fabs(v);
        /* rounded, not truncated: 34,902 ns is 34.9 us */
        snprintf(buf, cap, a >= 99.95 || (i == 3 && a >= 10) ? "%.0f %s" : a >= 9.995 ? "%.1f %s"
                                                                                        : "%.2f %s",
                 v, units[i].unit);
    }
    return buf;
}

/*
 * The JSON integers a report holds end at 2^63-1; as a double that is 2^63,
 * which %.0f would print as 9223372036854775808. Values that close to the
 * limit can only have been the limit (validate rejects larger ones).
 */
#define UNITS_INT64_MAX_AS_DOUBLE 9223372036854775807.0

const char *units_count(double v, char *buf, size_t cap)
{
    char digits[40];
    size_t n, i, o = 0, lead;
    bool neg = v < 0;
    if (!isfinite(v)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    if (fabs(v) >= UNITS_INT64_MAX_AS_DOUBLE)
        snprintf(digits, sizeof(digits), "%s", "9223372036854775807");
    else
        snprintf(digits, sizeof(digits), "%.0f", fabs(v));
    n = strlen(digits);
    lead = n % 3 ? n % 3 : 3;
    if (neg && o + 1 < cap)
        buf[o++] = '-';
    for (i = 0; i < n && o + 2 < cap; i++) {
        if (i && (i - lead) % 3 == 0 && i >= lead)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *units_ticks(double ticks, char *buf, size_t cap)
{
    if (!isfinite(ticks))
        snprintf(buf, cap, "-");
    else if (fabs(ticks) >= UNITS_INT64_MAX_AS_DOUBLE)
        snprintf(buf, cap, "%s9223372036854775807", ticks < 0 ? "-" : "");
    else
        snprintf(buf, cap, "%.0f", ticks);
    return buf;
}

const char *units_ratio(double r, char *buf, size_t cap)
{
    if (!isfinite(r))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.2f", r);
    return buf;
}

const char *units_number(double v, char *buf, size_t cap)
{
    if (!isfinite(v))
        snprintf(buf, cap, "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.3g", v);
    return buf;
}

const char *units_plain(const char *s, char *buf, size_t cap)
{
    size_t n = 0;
    if (!cap)
        return "";
    for (; s && s[n] && n + 1 < cap; n++)
        buf[n] = ((unsigned char)s[n] < 0x20 || s[n] == 0x7f) ? ' ' : s[n];
    buf[n] = '\0';
    return buf;
}

size_t units_line_len(const char *text, size_t width)
{
    size_t len = strlen(text), cut;
    if (len <= width)
        return len;
    for (cut = width; cut > 0 && text[cut] != ' '; cut--)
        ;
    return cut ? cut : width;
}

void units_print_wrapped(FILE *out, const char *first, const char *cont, const char *text,
                         size_t width)
{
    const char *prefix = first, *p = text ? text : "";
    size_t plen, room, n, cut;
    do {
        plen = strlen(prefix);
        room = width > plen + 10 ? width - plen : 10;
        while (*p == ' ')
            p++;
        n = strlen(p);
        cut = n;
        if (n > room) {
            for (cut = room; cut > 0 && p[cut] != ' '; cut--)
                ;
            if (cut == 0)
                cut = room;
        }
        fputs(prefix, out);
        for (n = 0; n < cut; n++)
            fputc((unsigned char)p[n] < 0x20 || p[n] == 0x7f ? ' ' : p[n], out);
        fputc('\n', out);
        p += cut;
        prefix = cont;
    } while (*p && strspn(p, " ") < strlen(p));
}
