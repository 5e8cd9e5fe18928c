/*
 * The Content-Length of the boot server's answer (core/lib/http_length.c),
 * which decides whether the tlbscope.cfg that came is whole: exactly one
 * header of decimal digits within the bound. Before issue 35 the firmware
 * glue read "" and "-5" as 0, added repeated headers up and wrapped past
 * 64 bits, so a cut-short file could count as complete.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <string.h>

#include "core/lib/http_length.h"

#define MAX 65536u /* the configuration file's bound (efi/args.c CONFIG_FILE_MAX) */

/* The state after feeding NAME: VALUE pairs (a NULL name ends the list). */
static struct http_length feed(uint64_t max, const char *const *pairs)
{
    struct http_length l;
    http_length_init(&l, max);
    for (; pairs[0]; pairs += 2)
        http_length_header(&l, pairs[0], pairs[1]);
    return l;
}

static void expect_valid(const char *value, uint64_t bytes)
{
    const char *pairs[] = { "Content-Type", "text/plain", "Content-Length", value, NULL };
    struct http_length l = feed(MAX, pairs);
    assert_int_equal(l.state, HTTP_LENGTH_VALID);
    assert_int_equal(l.bytes, bytes);
}

static void expect_invalid(const char *value, const char *why)
{
    const char *pairs[] = { "Content-Length", value, NULL };
    struct http_length l = feed(MAX, pairs);
    assert_int_equal(l.state, HTTP_LENGTH_INVALID);
    assert_string_equal(l.why, why);
}

static void test_digits_are_the_length(void **state)
{
    (void)state;
    expect_valid("0", 0);
    expect_valid("1234", 1234);
    expect_valid("65536", 65536);
    expect_valid(" 17\t", 17);  /* optional whitespace around the value (RFC 9110 5.5) */
    expect_valid("00017", 17);
    {
        /* the header's name in any case */
        const char *pairs[] = { "CONTENT-LENGTH", "9", NULL };
        struct http_length l = feed(MAX, pairs);
        assert_int_equal(l.state, HTTP_LENGTH_VALID);
        assert_int_equal(l.bytes, 9);
    }
}

static void test_empty_or_signed_is_invalid(void **state)
{
    (void)state;
    expect_invalid("", "an empty Content-Length");
    expect_invalid("   ", "an empty Content-Length");
    expect_invalid(NULL, "an empty Content-Length");
    expect_invalid("-5", "a Content-Length that is not a decimal number");
    expect_invalid("+5", "a Content-Length that is not a decimal number");
    expect_invalid("5 5", "a Content-Length that is not a decimal number");
    expect_invalid("12abc", "a Content-Length that is not a decimal number");
    expect_invalid("0x10", "a Content-Length that is not a decimal number");
    expect_invalid("10, 10", "a Content-Length that is not a decimal number");
}

static void test_past_the_bound_never_wraps(void **state)
{
    (void)state;
    expect_invalid("65537", "a Content-Length larger than the answer may be");
    /* 2^64 + 10 would wrap to 10 in 64-bit arithmetic */
    expect_invalid("18446744073709551626", "a Content-Length larger than the answer may be");
    expect_invalid("99999999999999999999999999999999",
                   "a Content-Length larger than the answer may be");
    {
        /* the largest bound there is: 2^64 - 1 is taken, one more is not */
        const char *top[] = { "Content-Length", "18446744073709551615", NULL };
        const char *over[] = { "Content-Length", "18446744073709551616", NULL };
        struct http_length l = feed(UINT64_MAX, top);
        assert_int_equal(l.state, HTTP_LENGTH_VALID);
        assert_true(l.bytes == UINT64_MAX);
        l = feed(UINT64_MAX, over);
        assert_int_equal(l.state, HTTP_LENGTH_INVALID);
    }
    {
        /* a bound of 0 takes only 0 */
        const char *zero[] = { "Content-Length", "0", NULL };
        const char *one[] = { "Content-Length", "5", NULL };
        assert_int_equal(feed(0, zero).state, HTTP_LENGTH_VALID);
        assert_int_equal(feed(0, one).state, HTTP_LENGTH_INVALID);
    }
}

static void test_one_header_only(void **state)
{
    const char *twice[] = { "Content-Length", "10", "Content-Length", "10", NULL };
    const char *differ[] = { "Content-Length", "10", "content-length", "20", NULL };
    const char *bad_then_good[] = { "Content-Length", "x", "Content-Length", "10", NULL };
    const char *none[] = { "Content-Type", "text/plain", "X-Content-Length", "5", NULL };
    struct http_length l;
    (void)state;
    l = feed(MAX, twice);
    assert_int_equal(l.state, HTTP_LENGTH_INVALID);
    assert_string_equal(l.why, "more than one Content-Length header");
    assert_int_equal(feed(MAX, differ).state, HTTP_LENGTH_INVALID);
    assert_int_equal(feed(MAX, bad_then_good).state, HTTP_LENGTH_INVALID);
    l = feed(MAX, none);
    assert_int_equal(l.state, HTTP_LENGTH_ABSENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digits_are_the_length),
        cmocka_unit_test(test_empty_or_signed_is_invalid),
        cmocka_unit_test(test_past_the_bound_never_wraps),
        cmocka_unit_test(test_one_header_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
