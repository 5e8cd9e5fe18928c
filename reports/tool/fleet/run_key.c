#include "reports/tool/fleet/run_key.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "core/lib/sha256.h"
#include "reports/tool/fleet/cells.h"

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
struct member {
    const char *key;
    const json_t *value;
};

static int cmp_member(const void *a, const void *b)
{
    return strcmp(((const struct member *)a)->key, ((const struct member *)b)->key);
}

/* By key; a point's objects have a handful of members: insertion sort, qsort beyond. */
static void sort_members(struct member *m, size_t n)
{
    size_t i, j;
    if (n > 16) {
        qsort(m, n, sizeof(*m), cmp_member);
        return;
    }
    for (i = 1; i < n; i++) {
        struct member x = m[i];
        for (j = i; j > 0 && strcmp(m[j - 1].key, x.key) > 0; j--)
            m[j] = m[j - 1];
        m[j] = x;
    }
}

/* The canonical text goes to SHA-256 in blocks, not a call per character. */
struct canon_out {
    struct sha256_ctx sha;
    size_t n;
    char buf[8192];
};

static void put(struct canon_out *c, const char *p, size_t n)
{
    if (c->n + n > sizeof(c->buf)) {
        sha256_update(&c->sha, c->buf, c->n);
        c->n = 0;
        if (n > sizeof(c->buf)) {
            sha256_update(&c->sha, p, n);
            return;
        }
    }
    memcpy(c->buf + c->n, p, n);
    c->n += n;
}

static void canon_string(struct canon_out *c, const char *s, size_t len)
{
    size_t i, plain = 0;
    char esc[8];
    put(c, "\"", 1);
    for (i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\' || ch < 0x20) {
            put(c, s + plain, i - plain);
            plain = i + 1;
            snprintf(esc, sizeof(esc), "\\u%04x", ch);
            put(c, esc, 6);
        }
    }
    put(c, s + plain, len - plain);
    put(c, "\"", 1);
}

/*
 * Where a value sits, for a document whose points are left in the file
 * (split.h): the experiments array's elements are experiments, and their
 * results and summary arrays are read through split_point.
 */
enum canon_level { AT_ROOT, AT_EXPERIMENTS, AT_EXPERIMENT, AT_POINTS, AT_OTHER };
struct canon_at {
    struct split_report *split; /* NULL: every point is in the document */
    enum canon_level level;
    size_t exp;
    const char *section;
};

static bool canon(struct canon_out *c, const json_t *v, int depth, struct canon_at at)
{
    char num[40];
    size_t i, n;
    if (depth > 4096)
        return false;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        struct member few[16], *m = few;
        const char *k;
        json_t *mv;
        n = json_object_size(v);
        if (n > 16 && !(m = malloc(n * sizeof(*m))))
            return false;
        i = 0;
        json_object_foreach((json_t *)v, k, mv) {
            m[i].key = k;
            m[i++].value = mv;
        }
        sort_members(m, n);
        put(c, "{", 1);
        for (i = 0; i < n; i++) {
            struct canon_at child = { at.split, AT_OTHER, at.exp, m[i].key };
            if (at.level == AT_ROOT && strcmp(m[i].key, "experiments") == 0)
                child.level = AT_EXPERIMENTS;
            else if (at.level == AT_EXPERIMENT &&
                     (strcmp(m[i].key, "results") == 0 || strcmp(m[i].key, "summary") == 0))
                child.level = AT_POINTS;
            if (i)
                put(c, ",", 1);
            canon_string(c, m[i].key, strlen(m[i].key));
            put(c, ":", 1);
            if (!canon(c, m[i].value, depth + 1, child)) {
                if (m != few)
                    free(m);
                return false;
            }
        }
        put(c, "}", 1);
        if (m != few)
            free(m);
        return true;
    }
    case JSON_ARRAY:
        put(c, "[", 1);
        for (i = 0; i < json_array_size(v); i++) {
            struct canon_at child = { at.split, at.level == AT_EXPERIMENTS ? AT_EXPERIMENT
                                                                           : AT_OTHER, i, NULL };
            const json_t *e = at.level == AT_POINTS && at.split
                                  ? split_point(at.split, at.exp, at.section, i) : NULL;
            if (i)
                put(c, ",", 1);
            if (!canon(c, e ? e : json_array_get(v, i), depth + 1, child))
                return false;
        }
        put(c, "]", 1);
        return true;
    case JSON_STRING:
        canon_string(c, json_string_value(v), json_string_length(v));
        return true;
    case JSON_INTEGER:
        put(c, num, cells_int_text((long long)json_integer_value(v), num));
        return true;
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
    put(c, num, strlen(num));
    return true;
}

/*
 * The run key: SHA-256 of the canonical JSON, so the same report is one run
 * whatever its indentation or number spelling. The verbatim bytes are kept in
 * runs.report_json all the same.
 */
bool run_key_of(const json_t *root, struct split_report *split, const char *bytes, size_t len,
                char key[RUN_KEY_LEN + 1])
{
    struct canon_out c;
    struct canon_at at = { split, AT_ROOT, 0, NULL };
    uint8_t d[SHA256_DIGEST_LEN];
    sha256_init(&c.sha);
    c.n = 0;
    if (MUTANT(fleet_key_from_bytes))
        sha256_update(&c.sha, bytes, len);
    else if (!canon(&c, root, 0, at))
        return false;
    sha256_update(&c.sha, c.buf, c.n);
    sha256_final(&c.sha, d);
    run_key_hex(d, sizeof(d), key);
    return true;
}
