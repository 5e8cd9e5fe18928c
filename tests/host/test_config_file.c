/*
 * The stick's tlbscope.cfg (config_write_file, written by `make image` through
 * release/gen-cfg.c): it names every key the parser accepts, each with its
 * default and help, it fits an 80-column console, and as shipped (everything
 * commented out) it changes nothing and warns about nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/config.h"
#include "core/lib/msglist.h"
#include "core/lib/strbuf.h"
#include "tests/host/support_host.h"

static char *file_text(void)
{
    struct strbuf sb;
    assert_true(sb_init_dynamic(&sb, 4096));
    config_write_file(&sb);
    assert_false(sb.truncated);
    return sb.data;
}

/* every key of `help` (the same table) has its "# key: ...; default ..." entry */
static void test_every_key_listed_with_default_and_help(void **state)
{
    struct strbuf help;
    char *text = file_text(), *line, *save = NULL;
    unsigned keys = 0;
    (void)state;
    assert_true(sb_init_dynamic(&help, 4096));
    config_write_help(&help);
    for (line = strtok_r(help.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[40], want[48];
        if (strncmp(line, "  ", 2) != 0 || line[2] == ' ')
            continue; /* a help line, not a key line */
        assert_int_equal(sscanf(line + 2, "%39s", name), 1);
        snprintf(want, sizeof(want), "\n# %s: ", name);
        assert_non_null(strstr(text, want));
        keys++;
    }
    assert_true(keys >= 20);
    /* each entry: values and default, then its help, indented, on the next lines */
    assert_non_null(strstr(text, "\n# exit: shell|shutdown|reset; default shell\n#     after the run: "
                                 "return to the UEFI shell, power the machine off, or reset\n"));
    assert_non_null(strstr(text, "\n# samples: an integer 10..1000000; default by profile "
                                 "(1000)\n#     samples per parameter point"));
    sb_release(&help);
    free(text);
}

static void test_fits_80_columns_and_parses_clean(void **state)
{
    char *text = file_text(), *p = text;
    struct config parsed, defaults;
    struct msg_list msgs;
    (void)state;
    while (*p) {
        size_t n = strcspn(p, "\n");
        assert_true(n <= 80);
        assert_true(n == 0 || p[0] == '#'); /* all commented out: the defaults apply */
        p += n + (p[n] == '\n');
    }
    memset(&msgs, 0, sizeof(msgs));
    config_defaults(&parsed);
    config_defaults(&defaults);
    config_parse(&parsed, text, strlen(text), "tlbscope.cfg", &msgs);
    config_finalize(&parsed);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(parsed.exit_mode, defaults.exit_mode);
    assert_int_equal(parsed.samples, defaults.samples);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_listed_with_default_and_help),
        cmocka_unit_test(test_fits_80_columns_and_parses_clean),
    };
    host_init();
    return cmocka_run_group_tests_name("config_file", tests, NULL, NULL);
}
