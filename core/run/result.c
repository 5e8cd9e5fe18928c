#include "core/run/result.h"
#include "core/lib/mem.h"

static const char *const names[] = { "SUCCESS", "SKIP", "ERROR", "FAILURE" };
static const char *const prefixes[] = { "PASS", "SKIP", "ERROR", "FAIL" };

enum result result_worst(enum result a, enum result b) { return a > b ? a : b; }

const char *result_name(enum result r)
{
    return (unsigned)r < ARRAY_SIZE(names) ? names[r] : "ERROR";
}

const char *result_line_prefix(enum result r)
{
    return (unsigned)r < ARRAY_SIZE(prefixes) ? prefixes[r] : "ERROR";
}

bool result_parse(const char *s, enum result *out)
{
    unsigned i;
    for (i = 0; i < ARRAY_SIZE(names); i++) {
        if (str_eq(s, names[i])) {
            *out = (enum result)i;
            return true;
        }
    }
    return false;
}
