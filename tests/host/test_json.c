/* JSON writer and formatter: the output must parse back with jansson. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <string.h>

#include "core/lib/json.h"
#include "core/lib/strbuf.h"
#include "tests/host/support_host.h"

static void test_printf_formats(void **state)
{
    char buf[256];
    (void)state;
    fmt_into(buf, sizeof(buf), "[%d|%5u|%-4s|%04x|%llx|%c|%%|%.3s|%zu]", -42, 7u, "ab", 0xbeu,
             0x1234567890abcdefull, 'z', "abcdef", (size_t)99);
    assert_string_equal(buf, "[-42|    7|ab  |00be|1234567890abcdef|z|%|abc|99]");
    fmt_into(buf, sizeof(buf), "%05d|%lld|%u", -7, (long long)INT64_MIN, 0u);
    assert_string_equal(buf, "-0007|-9223372036854775808|0");
}

static void test_fixed_buffer_truncates(void **state)
{
    char buf[8];
    struct strbuf sb;
    (void)state;
    sb_init_fixed(&sb, buf, sizeof(buf));
    sb_puts(&sb, "0123456789");
    assert_true(sb.truncated);
    assert_int_equal(sb.len, 7);
    assert_string_equal(buf, "0123456");
}

static void test_fixed_point(void **state)
{
    char buf[32];
    struct strbuf sb;
    (void)state;
    sb_init_fixed(&sb, buf, sizeof(buf));
    sb_fixed(&sb, 1234, 3);
    sb_putc(&sb, ' ');
    sb_fixed(&sb, -5, 3);
    sb_putc(&sb, ' ');
    sb_fixed(&sb, 42, 0);
    assert_string_equal(buf, "1.234 -0.005 42");
}

static void test_writer_roundtrip(void **state)
{
    struct strbuf sb;
    struct json_writer w;
    json_t *root, *arr;
    json_error_t err;
    const char nasty[] = "quote\" backslash\\ newline\n tab\t ctl\x01 high\xc3\xa9";
    (void)state;
    assert_true(sb_init_dynamic(&sb, 16)); /* forces several regrowths */
    jw_init(&w, &sb);
    jw_object_begin(&w);
    jw_kv_str(&w, "s", nasty);
    jw_kv_u64(&w, "big", (uint64_t)INT64_MAX); /* jansson reads integers as long long */
    jw_kv_i64(&w, "neg", -3);
    jw_kv_hex(&w, "id", 0xfee00900ull);
    jw_kv_fixed(&w, "ratio", 873, 3);
    jw_kv_null(&w, "none");
    jw_kv_bool(&w, "yes", true);
    jw_key(&w, "list");
    jw_array_begin_inline(&w);
    jw_u64(&w, 1);
    jw_object_begin(&w); /* an object inside an inline array stays inline */
    jw_kv_str(&w, "k", "v");
    jw_object_end(&w);
    jw_array_end(&w);
    jw_key(&w, "empty");
    jw_array_begin(&w);
    jw_array_end(&w);
    jw_object_end(&w);
    assert_true(jw_finish(&w));

    root = json_loads(sb.data, 0, &err);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "s")),
                        "quote\" backslash\\ newline\n tab\t ctl\x01 high\xc3\x83\xc2\xa9");
    assert_true(json_integer_value(json_object_get(root, "neg")) == -3);
    assert_string_equal(json_string_value(json_object_get(root, "id")), "0xfee00900");
    assert_true(json_real_value(json_object_get(root, "ratio")) > 0.872 &&
                json_real_value(json_object_get(root, "ratio")) < 0.874);
    assert_true(json_is_null(json_object_get(root, "none")));
    assert_true(json_is_true(json_object_get(root, "yes")));
    arr = json_object_get(root, "list");
    assert_int_equal(json_array_size(arr), 2);
    assert_int_equal(json_array_size(json_object_get(root, "empty")), 0);
    /* every byte written is ASCII */
    for (size_t i = 0; i < sb.len; i++)
        assert_true((unsigned char)sb.data[i] < 0x80);
    json_decref(root);
    sb_release(&sb);
}

static void test_writer_detects_misuse(void **state)
{
    char buf[128];
    struct strbuf sb;
    struct json_writer w;
    (void)state;
    sb_init_fixed(&sb, buf, sizeof(buf));
    jw_init(&w, &sb);
    jw_object_begin(&w);
    jw_key(&w, "dangling");
    jw_object_end(&w); /* a key without a value */
    assert_false(jw_finish(&w));

    sb_init_fixed(&sb, buf, sizeof(buf));
    jw_init(&w, &sb);
    jw_array_begin(&w);
    assert_false(jw_finish(&w)); /* unclosed */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printf_formats),
        cmocka_unit_test(test_fixed_buffer_truncates),
        cmocka_unit_test(test_fixed_point),
        cmocka_unit_test(test_writer_roundtrip),
        cmocka_unit_test(test_writer_detects_misuse),
    };
    host_init();
    return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
