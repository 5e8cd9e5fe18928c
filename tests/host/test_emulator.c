/*
 * emulator=: a machine whose CPUID looks like hardware (Bochs: no hypervisor
 * bit, a real Intel brand string) is marked by the key the harness passes,
 * and only by it. The report writer records it (run.config.emulator), labels
 * the recommendations emulated, and the text summary says so; without the
 * key the same run reads as hardware, because nothing is guessed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/config.h"
#include "core/lib/mem.h"
#include "core/run/run.h"
#include "core/lib/strbuf.h"
#include "tests/host/support_host.h"
#include "tests/host/support_report.h"

/* A run on a CPU that shows no hypervisor, configured by `args`. */
static struct run *run_with(const char *args)
{
    struct run *r = mem_zalloc(sizeof(*r));
    assert_non_null(r);
    config_defaults(&r->cfg);
    str_copy(r->args_text, sizeof(r->args_text), args);
    config_parse(&r->cfg, args, strlen(args), "command line", &r->warnings);
    config_finalize(&r->cfg);
    str_copy(r->run_id, sizeof(r->run_id), "20261201-150619-intel-f06m55-0001");
    str_copy(r->cpu.vendor, sizeof(r->cpu.vendor), "GenuineIntel");
    str_copy(r->cpu.brand, sizeof(r->cpu.brand), "Intel(R) Core(TM) i7-7800X CPU @ 3.50GHz");
    r->cpu.pcid = r->cpu.invpcid = true;
    return r;
}

static const char *config_emulator(const json_t *root)
{
    return json_string_value(
        json_object_get(json_object_get(json_object_get(root, "run"), "config"), "emulator"));
}

/* Every recommendation's environment is `env`, and none describes hardware unless env is. */
static void expect_environment(const json_t *root, const char *env)
{
    const json_t *recs = json_object_get(root, "recommendations"), *e;
    size_t i;
    assert_string_equal(json_string_value(json_object_get(recs, "environment")), env);
    assert_true(json_array_size(json_object_get(recs, "entries")) > 0);
    json_array_foreach(json_object_get(recs, "entries"), i, e) {
        assert_string_equal(json_string_value(json_object_get(e, "environment")), env);
        assert_int_equal(json_is_true(json_object_get(e, "describes_hardware")),
                         strcmp(env, "hardware") == 0);
    }
}

static void test_report_records_the_emulator(void **state)
{
    struct run *r = run_with("emulator=bochs profile=quick");
    json_t *root = support_report_json(r, NULL);
    char *text = support_report_text(r);
    (void)state;
    assert_string_equal(config_emulator(root), "bochs");
    assert_true(json_is_null(json_object_get(json_object_get(root, "cpu"), "hypervisor")));
    expect_environment(root, "emulated");
    assert_non_null(strstr(text, "\nNOTE      emulated machine (emulator=bochs): every instruction "
                                 "ran on the\n          emulator's CPU; timings are not hardware "
                                 "timings\n"));
    assert_non_null(strstr(text, "[emulated: "));
    json_decref(root);
    free(text);
    mem_free(r);
}

/* The same CPU without the key: CPUID alone says hardware, and the report does not guess. */
static void test_without_the_key_nothing_is_guessed(void **state)
{
    struct run *r = run_with("profile=quick");
    json_t *root = support_report_json(r, NULL);
    char *text = support_report_text(r);
    (void)state;
    assert_string_equal(config_emulator(root), "none");
    expect_environment(root, "hardware");
    assert_null(strstr(text, "emulated machine"));
    json_decref(root);
    free(text);
    mem_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_records_the_emulator),
        cmocka_unit_test(test_without_the_key_nothing_is_guessed),
    };
    host_init();
    return cmocka_run_group_tests_name("emulator", tests, NULL, NULL);
}
