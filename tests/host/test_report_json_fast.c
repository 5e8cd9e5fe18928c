/*
 * tlbscope-report: the fast JSON path (reports/tool/model/json_fast.c) against
 * jansson. What it accepts, jansson must accept with the same document (types,
 * values, member order); everything else it must decline, so that jansson's
 * error message stands. Checked on hand-picked inputs, on every sample and
 * fixture report, and on 40,000 deterministic mutations of a small report.
 * Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/json_fast.h"
#include "reports/tool/model/load.h"
#include "reports/tool/model/sanitize.h"
#include "tests/host/json_same_tree.h"

/* 1: the fast path took it (and jansson agrees), 0: it declined; fails on a disagreement. */
static int differential(const char *p, size_t len)
{
    bool controls;
    json_t *fast = json_fast_parse(p, len, &controls);
    json_t *slow = json_loadb(p, len, JSON_REJECT_DUPLICATES, NULL);
    int took = fast != NULL;
    if (fast && (!slow || !json_same_tree(fast, slow)))
        fail_msg("fast path %s on: %.*s", slow ? "differs from jansson" : "accepts what jansson rejects",
                 (int)(len < 200 ? len : 200), p);
    /* no control character seen: sanitize_json, which commands then skip, changes nothing */
    if (fast && !controls) {
        assert_true(sanitize_json(slow));
        if (!json_same_tree(fast, slow))
            fail_msg("a control character the fast path missed in: %.*s",
                     (int)(len < 200 ? len : 200), p);
    }
    json_decref(fast);
    json_decref(slow);
    return took;
}

static void test_accepts_what_tlbscope_writes(void **state)
{
    static const char *const ok[] = {
        "{}", "[]", " \r\n\t{ } \n", "[[],{},[{}]]",
        "{\"a\":1,\"b\":-2,\"c\":0,\"d\":-0,\"e\":123456789012345678,\"f\":-123456789012345678}",
        "{\"r\":1.5,\"s\":-0.25,\"t\":1e3,\"u\":1E+3,\"v\":2.5e-7,\"w\":0.0,\"x\":-0.0,\"y\":1e-400}",
        "[\"\",\"plain\",\"q\\\"q\",\"b\\\\s\",\"s\\/l\",\"\\b\\f\\n\\r\\t\",\"~\x7f\"]",
        "{\"\":true,\"k\\n\":false,\"n\":null,\"nested\":{\"a\":[1,2.0,\"3\"]}}",
        "[true,false,null]", "[1 , 2 ,3 ]", "{ \"a\" : { \"b\" : [ ] } }",
        "{\"a\\\\b\":{\"c\\\\d\":\"long value with an escape \\\" in it\"}}",
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        if (!differential(ok[i], strlen(ok[i])))
            fail_msg("declined: %s", ok[i]);
}

static void test_declines_the_rest(void **state)
{
    /* invalid JSON (jansson names the fault), and valid JSON that is jansson's to read */
    static const char *const no[] = {
        "", " ", "1", "\"s\"", "true", "null", "{} x", "{}{}", "[1,]", "[,1]", "{\"a\":1,}",
        "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "[1 2]", "[01]", "[-]", "[1.]", "[.5]",
        "[1e]", "[1e+]", "[-01]", "[+1]", "[1x]", "[truex]", "[tru]", "[nul]", "[True]",
        "[\"unterminated]", "{\"a\":1", "[", "{", "[\"a\x01\"]", "[\"\\x\"]", "[\"\\u0041\"]",
        "[\"\\u0000\"]", "[\"\xc3\xa9\"]", "[\"\xff\"]", "{\"a\":1,\"a\":2}",
        "{\"a\":1,\"b\":{},\"a\":[]}", "[1234567890123456789]", "[9223372036854775808]",
        "[1e999]", "[-1e999]", "[NaN]", "[Infinity]", "[0x10]", "\xef\xbb\xbf{}",
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (differential(no[i], strlen(no[i])))
            fail_msg("took: %s", no[i]);
    /* a NUL byte inside */
    assert_int_equal(differential("[\"a\0\"]", 6), 0);
}

static void test_control_characters_are_noticed(void **state)
{
    static const char *const with[] = { "[\"\\n\"]", "[\"a\\tb\"]", "{\"k\\r\":1}", "[\"\\b\"]",
                                        "[\"\\f\"]", "[\"del \x7f\"]", "{\"\x7f\":0}" };
    static const char *const without[] = { "[\"plain\"]", "{\"k\":\"\\\" \\\\ \\/\"}" };
    size_t i;
    bool controls;
    json_t *v;
    (void)state;
    for (i = 0; i < sizeof(with) / sizeof(with[0]); i++) {
        v = json_fast_parse(with[i], strlen(with[i]), &controls);
        if (!v || !controls)
            fail_msg("no control character noticed in %s", with[i]);
        json_decref(v);
        assert_int_equal(differential(with[i], strlen(with[i])), 1);
    }
    for (i = 0; i < sizeof(without) / sizeof(without[0]); i++) {
        v = json_fast_parse(without[i], strlen(without[i]), &controls);
        if (!v || controls)
            fail_msg("a control character seen in %s", without[i]);
        json_decref(v);
    }
}

static void test_nesting_beyond_its_depth_goes_to_jansson(void **state)
{
    char doc[2 * (JSON_FAST_MAX_DEPTH + 1)];
    struct load_result r;
    size_t i, n = JSON_FAST_MAX_DEPTH;
    (void)state;
    for (i = 0; i < n; i++) {
        doc[i] = '[';
        doc[2 * n - 1 - i] = ']';
    }
    assert_int_equal(differential(doc, 2 * n), 1);
    for (i = 0; i <= n; i++) {
        doc[i] = '[';
        doc[2 * n + 1 - i] = ']';
    }
    assert_int_equal(differential(doc, 2 * n + 2), 0);
    load_buffer(doc, 2 * n + 2, &r); /* jansson reads it: not a report, but JSON */
    assert_int_equal(r.status, LOAD_NOT_REPORT);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        *len = (size_t)n;
    fclose(f);
    return buf;
}

/* Every report the repository holds: the fast path reads each valid one, like jansson. */
static void test_every_sample_and_fixture(void **state)
{
    static const char *const dirs[] = { "reports/samples", "reports/samples/sim",
                                        "reports/samples/sim/runs", "tests/fixtures/reports",
                                        "tests/fixtures/reports/sim",
                                        "tests/fixtures/reports/identity",
                                        "tests/fixtures/reports/broken" };
    size_t d, taken = 0, files = 0;
    (void)state;
    for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
        DIR *dir = opendir(dirs[d]);
        struct dirent *e;
        assert_non_null(dir);
        while ((e = readdir(dir))) {
            char path[512];
            size_t len = 0, n = strlen(e->d_name);
            char *buf;
            if (n < 5 || strcmp(e->d_name + n - 5, ".json") != 0)
                continue;
            snprintf(path, sizeof(path), "%s/%s", dirs[d], e->d_name);
            buf = read_all(path, &len);
            if (!buf)
                fail_msg("cannot read %s", path);
            files++;
            taken += (size_t)differential(buf, len);
            free(buf);
        }
        closedir(dir);
    }
    /* only the broken fixtures may be declined (and the control-character ones: \u escapes) */
    assert_true(files >= 30);
    assert_true(taken + 20 >= files);
}

/* Byte flips, deletions and insertions of a small report: agreement or a decline, never more. */
static void test_mutations_agree_with_jansson(void **state)
{
    static const char base[] =
        "{\"schema\":\"tlbscope-report\",\"schema_version\":1,\"cpu\":{\"tsc_hz\":2.5e9,"
        "\"vendor\":\"Genuine\\\"Intel\\\"\"},\"experiments\":[{\"id\":\"x\",\"results\":"
        "[{\"params\":{\"pages\":1,\"mode\":\"seq\"},\"metrics\":{\"latency\":{\"n\":100,"
        "\"p50\":-12,\"p99\":0.5e-3}}}],\"notes\":[true,false,null,[],{}]}]}";
    static const char alphabet[] = "{}[]\",:\\-+.0123456789eEtrufalsn \n\x01\x80";
    char doc[sizeof(base) + 8];
    unsigned long long seed = 0x9e3779b97f4a7c15ull;
    size_t i, taken = 0, len;
    (void)state;
    for (i = 0; i < 40000; i++) {
        size_t at, k, edits = 1 + i % 3;
        memcpy(doc, base, sizeof(base) - 1);
        len = sizeof(base) - 1;
        for (k = 0; k < edits; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            at = (size_t)(seed >> 33) % len;
            char c = alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
            switch ((seed >> 10) % 3) {
            case 0: doc[at] = c; break;
            case 1: memmove(doc + at, doc + at + 1, len - at - 1); len--; break;
            default:
                if (len < sizeof(doc)) {
                    memmove(doc + at + 1, doc + at, len - at);
                    doc[at] = c;
                    len++;
                }
            }
        }
        taken += (size_t)differential(doc, len);
    }
    assert_true(taken > 1000); /* some mutants stay valid JSON: the agreement was tested */
    assert_true(taken < 40000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_what_tlbscope_writes),
        cmocka_unit_test(test_declines_the_rest),
        cmocka_unit_test(test_control_characters_are_noticed),
        cmocka_unit_test(test_nesting_beyond_its_depth_goes_to_jansson),
        cmocka_unit_test(test_every_sample_and_fixture),
        cmocka_unit_test(test_mutations_agree_with_jansson),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
