/* The key=value text of load options: see cmdline.h. */
#include "core/lib/cmdline.h"

void cmdline_from_ucs2(const uint16_t *opts, size_t chars, char *out, size_t cap)
{
    size_t i, start = 0, n = 0;
    if (!cap)
        return;
    out[0] = 0;
    for (i = 0; i < chars && opts[i]; i++)
        if (opts[i] != '\t' && (opts[i] < 0x20 || opts[i] > 0x7e))
            return;
    chars = i;
    while (start < chars && opts[start] == ' ')
        start++;
    /* skip the program name when it is there (it has no '=') */
    for (i = start; i < chars && opts[i] != ' '; i++)
        if (opts[i] == '=')
            break;
    if (i == chars || opts[i] == ' ')
        start = i;
    while (start < chars && opts[start] == ' ')
        start++;
    for (i = start; i < chars && n + 1 < cap; i++)
        out[n++] = (char)opts[i];
    out[n] = 0;
}
