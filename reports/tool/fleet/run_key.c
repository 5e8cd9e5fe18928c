#include "reports/tool/fleet/run_key.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "core/lib/sha256.h"

void run_key_hex(const uint8_t *d, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = '\0';
}

/*
 * The canonical form of a document, fed to a hash: keys sorted, no
 * whitespace, strings with only " \ and control characters escaped, and a
 * number by its value (1.0 and 1 alike: jq and other tools rewrite one as the
 * other, and a report passed through them is still the same report).
 */
static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void canon_string(struct sha256_ctx *c, const char *s, size_t len)
{
    size_t i;
    char esc[8];
    sha256_update(c, "\"", 1);
    for (i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\' || ch < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", ch);
            sha256_update(c, esc, 6);
        } else {
            sha256_update(c, &s[i], 1);
        }
    }
    sha256_update(c, "\"", 1);
}

static bool canon(struct sha256_ctx *c, const json_t *v, int depth)
{
    char num[40];
    size_t i, n;
    if (depth > 4096)
        return false;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char **keys;
        const char *k;
        json_t *m;
        n = json_object_size(v);
        if (!(keys = malloc((n ? n : 1) * sizeof(*keys))))
            return false;
        i = 0;
        json_object_foreach((json_t *)v, k, m)
            keys[i++] = k;
        qsort(keys, n, sizeof(*keys), cmp_key);
        sha256_update(c, "{", 1);
        for (i = 0; i < n; i++) {
            if (i)
                sha256_update(c, ",", 1);
            canon_string(c, keys[i], strlen(keys[i]));
            sha256_update(c, ":", 1);
            if (!canon(c, json_object_get(v, keys[i]), depth + 1)) {
                free(keys);
                return false;
            }
        }
        sha256_update(c, "}", 1);
        free(keys);
        return true;
    }
    case JSON_ARRAY:
        sha256_update(c, "[", 1);
        for (i = 0; i < json_array_size(v); i++) {
            if (i)
                sha256_update(c, ",", 1);
            if (!canon(c, json_array_get(v, i), depth + 1))
                return false;
        }
        sha256_update(c, "]", 1);
        return true;
    case JSON_STRING:
        canon_string(c, json_string_value(v), json_string_length(v));
        return true;
    case JSON_INTEGER:
        snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
        break;
    case JSON_REAL: {
        double x = json_real_value(v);
        if (x == floor(x) && fabs(x) < 9007199254740992.0) /* 2^53: exact as an integer */
            snprintf(num, sizeof(num), "%lld", (long long)x);
        else
            snprintf(num, sizeof(num), "%.17g", x);
        break;
    }
    case JSON_TRUE:
        snprintf(num, sizeof(num), "true");
        break;
    case JSON_FALSE:
        snprintf(num, sizeof(num), "false");
        break;
    default:
        snprintf(num, sizeof(num), "null");
        break;
    }
    sha256_update(c, num, strlen(num));
    return true;
}

/*
 * The run key: SHA-256 of the canonical JSON, so the same report is one run
 * whatever its indentation or number spelling. The verbatim bytes are kept in
 * runs.report_json all the same.
 */
bool run_key_of(const json_t *root, const char *bytes, size_t len,
                char key[RUN_KEY_LEN + 1])
{
    struct sha256_ctx c;
    uint8_t d[SHA256_DIGEST_LEN];
    sha256_init(&c);
    if (MUTANT(fleet_key_from_bytes))
        sha256_update(&c, bytes, len);
    else if (!canon(&c, root, 0))
        return false;
    sha256_final(&c, d);
    run_key_hex(d, sizeof(d), key);
    return true;
}
