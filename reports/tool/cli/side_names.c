#include "reports/tool/cli/side_names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '+' || c == '-';
}

bool side_name_valid(const char *name, size_t len)
{
    size_t i;
    if (!len || len > SIDE_NAME_MAX)
        return false;
    for (i = 0; i < len; i++)
        if (!name_char(name[i]))
            return false;
    return true;
}

/* Words of a brand string that name no CPU model: the vendor, the marketing tier, filler. */
static bool filler(const char *w)
{
    static const char *const words[] = {
        "AMD", "Intel", "Intel(R)", "CPU", "Processor", "Core(TM)", "Core", "Platinum", "Gold",
        "Silver", "Bronze", "Genuine", "version", "with", "Radeon", "Graphics", "Gen",
    };
    size_t i, n = strlen(w);
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strcmp(w, words[i]) == 0)
            return true;
    /* "64-Core", "8-Core"; "12th" (Gen) */
    if (n > 5 && strcmp(w + n - 5, "-Core") == 0 && isdigit((unsigned char)w[0]))
        return true;
    return n >= 3 && isdigit((unsigned char)w[0]) &&
           (strcmp(w + n - 2, "th") == 0 || strcmp(w + n - 2, "st") == 0 ||
            strcmp(w + n - 2, "nd") == 0 || strcmp(w + n - 2, "rd") == 0);
}

const char *side_cpu_name(const struct m_report *r, char *buf, size_t cap)
{
    char words[200], *save = NULL, *w;
    size_t len = 0, taken = 0;
    buf[0] = '\0';
    if (!r->brand || !cap)
        return buf;
    snprintf(words, sizeof(words), "%s", r->brand);
    for (w = strtok_r(words, " \t", &save); w && taken < 2; w = strtok_r(NULL, " \t", &save)) {
        char clean[64];
        size_t i, k = 0;
        if (*w == '@')
            break; /* "@ 2.50GHz": the clock, not the model */
        if (filler(w))
            continue;
        for (i = 0; w[i] && k + 1 < sizeof(clean); i++) {
            /* "(R)", "(TM)" dropped; "(Skylake)" kept as Skylake */
            if (strncmp(w + i, "(R)", 3) == 0 || strncmp(w + i, "(TM)", 4) == 0 ||
                strncmp(w + i, "(tm)", 4) == 0) {
                i += w[i + 1] == 'R' ? 2 : 3;
                continue;
            }
            if (name_char(w[i]))
                clean[k++] = w[i];
        }
        clean[k] = '\0';
        if (!k)
            continue;
        if (len + k + (len ? 1 : 0) > SIDE_NAME_MAX)
            break;
        snprintf(buf + len, cap - len, "%s%s", len ? "-" : "", clean);
        len = strlen(buf);
        taken++;
    }
    return buf;
}
