/*
 * The load options' key=value text (core/lib/cmdline.c), which both apps
 * hand to the configuration parser: the program name dropped, binary
 * optional data ignored, the text bounded by its NUL, its size and the
 * output's capacity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/lib/cmdline.h"

/* ASCII to UCS-2 (the shell's LoadOptions) */
static size_t ucs2(const char *s, uint16_t *out)
{
    size_t i;
    for (i = 0; s[i]; i++)
        out[i] = (unsigned char)s[i];
    out[i] = 0;
    return i;
}

static const char *run(const char *s, size_t cap)
{
    static uint16_t in[128];
    static char out[128];
    size_t n = ucs2(s, in);
    cmdline_from_ucs2(in, n + 1, out, cap);
    return out;
}

static void test_program_name_dropped(void **state)
{
    assert_string_equal(run("BOOTAA64.EFI samples=12 exit=reset", 128), "samples=12 exit=reset");
    assert_string_equal(run("  tlbscope.efi  samples=20", 128), "samples=20");
    assert_string_equal(run("tlbscope.efi", 128), "");
}

static void test_no_program_name_kept_whole(void **state)
{
    assert_string_equal(run("samples=12 profile=quick", 128), "samples=12 profile=quick");
}

static void test_binary_options_ignored(void **state)
{
    uint16_t in[] = { 's', '=', '1', 0x0001, 'x' };
    char out[16] = "unchanged";
    cmdline_from_ucs2(in, 5, out, sizeof(out));
    assert_string_equal(out, "");
}

static void test_bounded_by_size_and_capacity(void **state)
{
    uint16_t in[] = { 'a', '=', '1', ' ', 'b', '=', '2' }; /* no NUL: the size ends it */
    char out[16];
    cmdline_from_ucs2(in, 3, out, sizeof(out));
    assert_string_equal(out, "a=1");
    cmdline_from_ucs2(in, 7, out, 4);
    assert_string_equal(out, "a=1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_name_dropped),
        cmocka_unit_test(test_no_program_name_kept_whole),
        cmocka_unit_test(test_binary_options_ignored),
        cmocka_unit_test(test_bounded_by_size_and_capacity),
    };
    return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
