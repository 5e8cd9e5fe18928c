#include "core/lib/nearest.h"

/* No other core/lib file: tlbscope-report links this one alone (reports/tool/tool.mk). */
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static size_t bounded_len(const char *s)
{
    size_t n = 0;
    while (n < NEAREST_MAX_LEN && s[n])
        n++;
    return n;
}

unsigned edit_distance(const char *a, const char *b)
{
    /* three rows of the dynamic programme: the one before last is for the swap */
    unsigned rows[3][NEAREST_MAX_LEN + 1];
    size_t la = bounded_len(a), lb = bounded_len(b), i, j;
    unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (j = 0; j <= lb; j++)
        prev[j] = (unsigned)j;
    for (i = 1; i <= la; i++) {
        unsigned *t;
        cur[0] = (unsigned)i;
        for (j = 1; j <= lb; j++) {
            unsigned cost = a[i - 1] != b[j - 1];
            unsigned best = prev[j - 1] + cost;            /* substitute (or keep) */
            best = MIN(best, prev[j] + 1);                 /* delete from a */
            best = MIN(best, cur[j - 1] + 1);              /* insert into a */
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = MIN(best, prev2[j - 2] + 1);        /* swap two neighbours */
            cur[j] = best;
        }
        t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

const char *nearest_name(const char *typo, const char *const *names, size_t count)
{
    size_t len = bounded_len(typo), i;
    unsigned limit = (unsigned)MIN((size_t)2, len / 3), best = limit + 1;
    const char *found = NULL;
    for (i = 0; i < count; i++) {
        unsigned d = edit_distance(typo, names[i]);
        if (d < best) {
            best = d;
            found = names[i];
        }
    }
    return found;
}
