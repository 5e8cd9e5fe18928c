/*
 * A mistyped redact_key never reaches the report (issue 35): in the
 * configuration file and on the command line, every form of a line that names
 * redact_key (a blank or ':' for '=', a key with a blank in it, another case,
 * '-' for '_', a misspelt name) leaves no part of the key in the JSON report
 * or the .txt summary: not in run.warnings, run.errors or run.args. Such a
 * line that is not key=value pairs of known keys refuses the key: an error of
 * the run, and the tokens are not keyed by a key the operator did not mean.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/report/report.h"
#include "core/run/config.h"
#include "core/run/run.h"
#include "tests/host/support_host.h"
#include "tests/host/support_msgs.h"
#include "tests/host/support_report.h"

/* the key's two parts: neither may show anywhere */
#define PART1 "Zq9mark"
#define PART2 "Wv4tail"

struct form {
    const char *line;  /* PART1/PART2 stand in the key's place */
    bool refused;      /* the line refuses the key (an error of the run) */
};

static const struct form forms[] = {
    { "redact_key =" PART1, true },
    { "redact_key= " PART1, true },
    { "redact_key:" PART1, true },
    { "redact_key " PART1, true },
    { "redact_key=" PART1 " " PART2, true },       /* a key with a blank */
    { "redact_key=\"" PART1 " " PART2 "\"", true }, /* quoted: no quoting in the file */
    { "REDACT_KEY=" PART1, true },
    { "Redact-Key=" PART1, true },
    { "redact key=" PART1, true },
    { "redact_kye=" PART1, true },
    { "redact_keys=" PART1, true },
    { "redact.key = " PART1 " " PART2, true },
    { "redact=on redact_key=" PART1 " profile=" PART2, false }, /* a bad value, quietly */
    { "redact_key=" PART1, false },
};

/* A run given `file` as tlbscope.cfg and `args` on the command line, as efi/args.c reads them. */
static struct run *run_with(const char *file, const char *args)
{
    struct run *r = mem_zalloc(sizeof(*r));
    assert_non_null(r);
    config_defaults(&r->cfg);
    if (file)
        config_parse(&r->cfg, file, strlen(file), "tlbscope.cfg", &r->warnings);
    if (args) {
        str_copy(r->args_text, sizeof(r->args_text), args);
        config_parse(&r->cfg, args, strlen(args), "command line", &r->warnings);
    }
    config_finalize(&r->cfg);
    config_take_errors(&r->cfg, &r->errors);
    str_copy(r->run_id, sizeof(r->run_id), "20261203-091500-intel-f06m3e-0007");
    run_conclude(r);
    return r;
}

static void expect_nowhere(const struct run *r, const char *what)
{
    char *json, *summary = support_report_text(r);
    json_t *root = support_report_json(r, &json);
    uint32_t i;
    for (i = 0; i < r->warnings.count; i++)
        assert_null(strstr(r->warnings.items[i].text, PART1));
    if (strstr(json, PART1) || strstr(json, PART2) || strstr(summary, PART1) ||
        strstr(summary, PART2)) {
        print_message("%s\n%s\n", json, summary);
        fail_msg("%s: part of the key is in the report", what);
    }
    json_decref(root);
    free(json);
    free(summary);
}

static void check_form(const struct form *f, bool in_file)
{
    char text[256];
    struct run *r;
    snprintf(text, sizeof(text), "redact=on\n%s\nprofile=quick\n", f->line);
    r = in_file ? run_with(text, NULL) : run_with(NULL, f->line);
    expect_nowhere(r, f->line);
    if (f->refused) {
        /* one error, at that line; the key is not used (random tokens), the rest is */
        assert_int_equal(r->errors.count, 1);
        assert_string_equal(r->errors.items[0].where,
                            in_file ? "tlbscope.cfg:2" : "command line:1");
        assert_non_null(strstr(r->errors.items[0].text, "redact_key refused"));
        assert_string_equal(r->cfg.redact_key, "");
        assert_false(config_is_set(&r->cfg, "redact_key"));
        assert_int_equal(r->result, RESULT_ERROR);
        if (in_file)
            assert_int_equal(r->cfg.profile, PROFILE_QUICK);
    } else {
        assert_int_equal(r->errors.count, 0);
        assert_string_equal(r->cfg.redact_key, PART1);
    }
    mem_free(r);
}

static void test_every_form_in_the_file(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        check_form(&forms[i], true);
}

static void test_every_form_on_the_command_line(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        check_form(&forms[i], false);
}

/* A refused line also takes back the key an earlier source gave: the operator meant another. */
static void test_refusal_overrides_the_file(void **state)
{
    struct run *r = run_with("redact=on\nredact_key=" PART1 "\n", "redact_key " PART2);
    (void)state;
    assert_string_equal(r->cfg.redact_key, "");
    assert_int_equal(r->errors.count, 1);
    expect_nowhere(r, "file key, then a refused command line");
    mem_free(r);
    /* and a good one after a refused one is taken (a later source wins) */
    r = run_with("redact=on\nredact_key:" PART2 "\n", "redact_key=" PART1);
    assert_string_equal(r->cfg.redact_key, PART1);
    mem_free(r);
}

/* Lines that do not name the key read as before: their messages quote them. */
static void test_other_lines_still_quoted(void **state)
{
    struct run *r = run_with("redact=on\nprofile=quik\nsampels=10\n", NULL);
    (void)state;
    assert_non_null(
        msgs_find(&r->warnings, "tlbscope.cfg:2", "bad value 'quik' for key 'profile'"));
    assert_non_null(msgs_find(&r->warnings, "tlbscope.cfg:3", "unknown key 'sampels'"));
    assert_int_equal(r->errors.count, 0);
    mem_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_form_in_the_file),
        cmocka_unit_test(test_every_form_on_the_command_line),
        cmocka_unit_test(test_refusal_overrides_the_file),
        cmocka_unit_test(test_other_lines_still_quoted),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
