/*
 * tlbscope-report: reading report files. Every broken input gets its own
 * status and a message that says what is wrong; none crashes or leaks.
 * Run from the repository root (fixtures are read from tests/fixtures/reports).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/load.h"

#define FIXTURES "tests/fixtures/reports/"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("\"%s\" does not contain \"%s\"", haystack, needle);
}

static void test_real_reports_load(void **state)
{
    static const char *const files[] = { "qemu-tcg-smp2-foundation.json", "qemu-tcg-smp4-ipi.json",
                                         "qemu-tcg-smp2-all.json", "synthetic-epyc7763-2s-hw.json" };
    struct load_result r;
    size_t i;
    char path[256];
    (void)state;
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), FIXTURES "%s", files[i]);
        load_file(path, &r);
        if (r.status != LOAD_OK)
            fail_msg("%s: %s", path, r.message);
        assert_int_equal(r.schema_version, 1);
        assert_true(json_is_object(json_object_get(r.root, "cpu")));
        load_release(&r);
        assert_null(r.root);
    }
}

static void test_empty_inputs(void **state)
{
    struct load_result r;
    (void)state;
    load_file(FIXTURES "broken/empty.json", &r);
    assert_int_equal(r.status, LOAD_EMPTY);
    assert_contains(r.message, "0 bytes");
    assert_null(r.root);
    load_buffer(" \n\t\r\n", 5, &r);
    assert_int_equal(r.status, LOAD_EMPTY);
    assert_contains(r.message, "whitespace");
    load_buffer("", 0, &r);
    assert_int_equal(r.status, LOAD_EMPTY);
}

static void test_truncated_names_the_end(void **state)
{
    struct load_result r;
    (void)state;
    load_file(FIXTURES "broken/truncated.json", &r);
    assert_int_equal(r.status, LOAD_TRUNCATED);
    assert_contains(r.message, "truncated JSON");
    assert_contains(r.message, "line ");
    assert_contains(r.message, "column ");
    assert_null(r.root);
    /* a report cut inside a string */
    load_buffer("{\"schema\": \"tlbscope-rep", 24, &r);
    assert_int_equal(r.status, LOAD_TRUNCATED);
}

static void test_not_json_gives_line_and_column(void **state)
{
    struct load_result r;
    const char text[] = "{\n  \"schema\": \"tlbscope-report\",\n  oops\n}";
    (void)state;
    load_buffer(text, sizeof(text) - 1, &r);
    assert_int_equal(r.status, LOAD_NOT_JSON);
    assert_contains(r.message, "not JSON: line 3 column");
    load_file(FIXTURES "broken/not-json.json", &r);
    assert_int_equal(r.status, LOAD_NOT_JSON);
    assert_contains(r.message, "line 1 column");
    /* trailing junk after a complete document is not a report either */
    load_buffer("{}x", 3, &r);
    assert_int_equal(r.status, LOAD_NOT_JSON);
}

static void test_binary_garbage(void **state)
{
    struct load_result r;
    unsigned char junk[512];
    size_t i;
    (void)state;
    load_file(FIXTURES "broken/binary-garbage.json", &r);
    assert_int_equal(r.status, LOAD_NOT_JSON);
    assert_contains(r.message, "binary data");
    for (i = 0; r.message[i]; i++) /* no raw bytes in the message */
        assert_true((unsigned char)r.message[i] >= 0x20 && (unsigned char)r.message[i] < 0x7f);
    for (i = 0; i < sizeof(junk); i++)
        junk[i] = (unsigned char)(i * 37 + 11);
    junk[0] = '{';
    load_buffer(junk, sizeof(junk), &r);
    assert_int_equal(r.status, LOAD_NOT_JSON);
    assert_null(r.root);
}

static void test_huge_nesting_is_refused(void **state)
{
    struct load_result r;
    size_t n = 200000;
    char *deep = malloc(n);
    (void)state;
    assert_non_null(deep);
    memset(deep, '[', n / 2);
    memset(deep + n / 2, ']', n / 2);
    load_buffer(deep, n, &r);
    free(deep);
    assert_int_equal(r.status, LOAD_NOT_JSON);
    assert_contains(r.message, "nesting deeper than");
    load_file(FIXTURES "broken/deep-nesting.json", &r);
    assert_int_equal(r.status, LOAD_NOT_JSON);
}

static void test_identity_checks(void **state)
{
    struct load_result r;
    (void)state;
    load_file(FIXTURES "broken/wrong-schema.json", &r);
    assert_int_equal(r.status, LOAD_NOT_REPORT);
    assert_contains(r.message, "schema is \"tlbscope-results\", expected \"tlbscope-report\"");
    load_file(FIXTURES "broken/not-an-object.json", &r);
    assert_int_equal(r.status, LOAD_NOT_REPORT);
    assert_contains(r.message, "top level is an array");
    load_buffer("{\"a\": 1}", 8, &r);
    assert_int_equal(r.status, LOAD_NOT_REPORT);
    assert_contains(r.message, "no \"schema\" key");
    load_buffer("{\"schema\": 7}", 13, &r);
    assert_int_equal(r.status, LOAD_NOT_REPORT);
    assert_contains(r.message, "is an integer");
}

static void test_schema_versions(void **state)
{
    struct load_result r;
    const char no_version[] = "{\"schema\": \"tlbscope-report\"}";
    const char text_version[] = "{\"schema\": \"tlbscope-report\", \"schema_version\": \"1\"}";
    const char zero[] = "{\"schema\": \"tlbscope-report\", \"schema_version\": 0}";
    (void)state;
    load_file(FIXTURES "broken/newer-schema-v4.json", &r);
    assert_int_equal(r.status, LOAD_NEWER_SCHEMA);
    assert_string_equal(r.message, "schema_version 4 is newer than this tool understands (3); "
                                   "update tlbscope-report");
    assert_null(r.root);
    load_buffer(no_version, sizeof(no_version) - 1, &r);
    assert_int_equal(r.status, LOAD_BAD_VERSION);
    assert_contains(r.message, "schema_version: missing");
    load_buffer(text_version, sizeof(text_version) - 1, &r);
    assert_int_equal(r.status, LOAD_BAD_VERSION);
    assert_contains(r.message, "expected an integer, found a string");
    load_buffer(zero, sizeof(zero) - 1, &r);
    assert_int_equal(r.status, LOAD_BAD_VERSION);
}

static void test_io_errors(void **state)
{
    struct load_result r;
    (void)state;
    load_file(FIXTURES "no-such-report.json", &r);
    assert_int_equal(r.status, LOAD_IO_ERROR);
    assert_contains(r.message, "No such file");
    load_file(FIXTURES, &r);
    assert_int_equal(r.status, LOAD_IO_ERROR);
    assert_contains(r.message, "directory");
}

static void test_duplicate_keys_rejected(void **state)
{
    struct load_result r;
    const char dup[] = "{\"schema\": \"tlbscope-report\", \"schema\": \"x\"}";
    (void)state;
    load_buffer(dup, sizeof(dup) - 1, &r);
    assert_int_equal(r.status, LOAD_NOT_JSON);
    assert_contains(r.message, "duplicate");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_reports_load),
        cmocka_unit_test(test_empty_inputs),
        cmocka_unit_test(test_truncated_names_the_end),
        cmocka_unit_test(test_not_json_gives_line_and_column),
        cmocka_unit_test(test_binary_garbage),
        cmocka_unit_test(test_huge_nesting_is_refused),
        cmocka_unit_test(test_identity_checks),
        cmocka_unit_test(test_schema_versions),
        cmocka_unit_test(test_io_errors),
        cmocka_unit_test(test_duplicate_keys_rejected),
    };
    return cmocka_run_group_tests_name("report_load", tests, NULL, NULL);
}
