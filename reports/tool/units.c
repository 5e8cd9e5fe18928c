#include "reports/tool/units.h"

#include <math.h>
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

const char *units_ticks(double ticks, char *buf, size_t cap)
{
    if (!isfinite(ticks))
        snprintf(buf, cap, "-");
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

const char *units_clip(const char *s, size_t max, char *buf, size_t cap)
{
    size_t i, n = 0;
    if (!cap)
        return "";
    if (!s)
        s = "";
    for (i = 0; s[i] && n + 1 < cap && n < max; i++)
        buf[n++] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? ' ' : s[i];
    if (s[i] && max >= 3 && cap > 3) {
        n = n > 3 ? n - 3 : 0;
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n < cap ? n : cap - 1] = '\0';
    return buf;
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
