/*
 * Where each key came from, and config_sha256= (issue 35). A network boot
 * reads tlbscope.cfg from whoever answers the boot, unauthenticated: such a
 * file could send the reports elsewhere (upload=) or turn redaction off. The
 * report records which source set each key (run.config_origins), and the load
 * options can pin the file by its SHA-256: a file that differs is not used,
 * and the run has an error saying so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/mem.h"
#include "core/run/config.h"
#include "core/run/run.h"
#include "tests/host/support_host.h"
#include "tests/host/support_msgs.h"
#include "tests/host/support_report.h"

/* what a hostile boot server might send, and its sha256sum */
#define SERVER_FILE "redact=off\nupload=http://elsewhere.example/x\n"
#define SERVER_SHA "372b36a87fc9ae775565a8ae6cccc59048ad460293562067f9a440b138ae885e"

static void parse(struct config *c, const char *text, const char *source, struct msg_list *m)
{
    config_parse(c, text, strlen(text), source, m);
}

static void test_each_key_names_its_source(void **state)
{
    static struct msg_list m;
    struct run *r = mem_zalloc(sizeof(*r));
    json_t *root, *origins;
    (void)state;
    assert_non_null(r);
    config_defaults(&r->cfg);
    parse(&r->cfg, "profile=full\nsamples=20\n", CONFIG_SOURCE_BOOT_SERVER, &m);
    parse(&r->cfg, "samples=30 redact=on", CONFIG_SOURCE_LOAD_OPTIONS, &m);
    config_finalize(&r->cfg);
    assert_int_equal(config_key_origin(&r->cfg, "profile"), CFG_ORIGIN_BOOT_SERVER);
    assert_int_equal(config_key_origin(&r->cfg, "samples"), CFG_ORIGIN_LOAD_OPTIONS);
    assert_int_equal(config_key_origin(&r->cfg, "redact"), CFG_ORIGIN_LOAD_OPTIONS);
    assert_int_equal(config_key_origin(&r->cfg, "warmup"), CFG_ORIGIN_NONE); /* a default */
    str_copy(r->run_id, sizeof(r->run_id), "20261203-091500-intel-f06m3e-0007");
    root = support_report_json(r, NULL);
    origins = json_object_get(json_object_get(root, "run"), "config_origins");
    assert_int_equal(json_object_size(origins), 3);
    assert_string_equal(json_string_value(json_object_get(origins, "profile")), "boot_server");
    assert_string_equal(json_string_value(json_object_get(origins, "samples")), "load_options");
    json_decref(root);
    /* the stick's file */
    config_defaults(&r->cfg);
    parse(&r->cfg, "exit=shutdown\n", CONFIG_SOURCE_STICK, &m);
    assert_int_equal(config_key_origin(&r->cfg, "exit"), CFG_ORIGIN_STICK);
    mem_free(r);
}

static void test_pin_is_64_hex_digits(void **state)
{
    struct config c;
    static struct msg_list m;
    (void)state;
    config_defaults(&c);
    parse(&c, "config_sha256=372B36A87FC9AE775565A8AE6CCCC59048AD460293562067F9A440B138AE885E",
          CONFIG_SOURCE_LOAD_OPTIONS, &m);
    assert_string_equal(c.config_sha256, SERVER_SHA); /* upper case taken, written lower */
    assert_false(c.config_sha256_bad);
    /* a digit short, a non-hex digit: not a pin, and remembered as a pin that was meant */
    config_defaults(&c);
    memset(&m, 0, sizeof(m));
    parse(&c, "config_sha256=372b36a87fc9ae775565a8ae6cccc59048ad460293562067f9a440b138ae885",
          CONFIG_SOURCE_LOAD_OPTIONS, &m);
    assert_string_equal(c.config_sha256, "");
    assert_true(c.config_sha256_bad);
    assert_non_null(msgs_find(&m, NULL, "expected 64 hexadecimal digits"));
    config_defaults(&c);
    parse(&c, "config_sha256=z72b36a87fc9ae775565a8ae6cccc59048ad460293562067f9a440b138ae885e",
          CONFIG_SOURCE_LOAD_OPTIONS, &m);
    assert_true(c.config_sha256_bad);
}

static void test_pinned_file_used_only_when_it_matches(void **state)
{
    static struct config pins;
    static struct msg_list errors;
    char sha[CONFIG_SHA256_HEX + 1];
    (void)state;
    /* no pin: used, its hash recorded */
    assert_false(config_pin_read("profile=quick", &pins));
    assert_true(config_pin_accept(&pins, SERVER_FILE, strlen(SERVER_FILE), sha, &errors));
    assert_string_equal(sha, SERVER_SHA);
    assert_int_equal(errors.count, 0);
    /* the right pin: used */
    assert_true(config_pin_read("config_sha256=" SERVER_SHA " profile=quick", &pins));
    assert_int_equal(config_pin_verify(&pins, SERVER_FILE, strlen(SERVER_FILE), sha), PIN_MATCH);
    assert_true(config_pin_accept(&pins, SERVER_FILE, strlen(SERVER_FILE), sha, &errors));
    assert_int_equal(errors.count, 0);
    /* one byte changed on the server: not used, an error that names both hashes' starts */
    assert_false(config_pin_accept(&pins, "redact=off\nupload=http://elsewhere.example/y\n",
                                   strlen(SERVER_FILE), sha, &errors));
    assert_int_equal(errors.count, 1);
    assert_non_null(strstr(errors.items[0].text, "config_sha256= in the load options says "
                                                 "372b36a87fc9ae77..."));
    assert_non_null(strstr(errors.items[0].text, "not used"));
    /* a pin that cannot be read: not used either (a typo must not unpin the file) */
    memset(&errors, 0, sizeof(errors));
    assert_true(config_pin_read("config_sha256=abc", &pins));
    assert_false(config_pin_accept(&pins, SERVER_FILE, strlen(SERVER_FILE), sha, &errors));
    assert_non_null(strstr(errors.items[0].text, "not 64 hex digits"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_key_names_its_source),
        cmocka_unit_test(test_pin_is_64_hex_digits),
        cmocka_unit_test(test_pinned_file_used_only_when_it_matches),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
