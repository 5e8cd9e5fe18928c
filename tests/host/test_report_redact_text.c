/*
 * tlbscope-report redact in the free text (issue 35): a report whose
 * warnings, notes, reason and run.args quote its boot server, collector,
 * MAC or address gets, there too, the tokens it writes in the identifying
 * fields; the same strings the app writes under redact=on with the same key
 * (tests/host/redact_text_case.h, test_redact_text.c). The upload URLs are
 * identifying fields of their own. Run from the repository root.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/model/load.h"
#include "reports/tool/redact/redact.h"
#include "reports/tool/validate/diag.h"
#include "reports/tool/validate/validate.h"
#include "tests/host/redact_text_case.h"
#include "tests/host/report_fixture.h"

/* A real report (QEMU's) as it would be after a network boot that quoted its addresses. */
static char *case_report(size_t *len)
{
    json_error_t err;
    json_t *root = json_load_file(FIXTURES "qemu-tcg-smp2-all.json", 0, &err), *run, *net, *w, *e;
    char *text;
    unsigned i;
    assert_non_null(root);
    run = json_object_get(root, "run");
    json_object_set_new(run, "args", json_string(RT_ARGS));
    json_object_set_new(json_object_get(run, "config"), "upload", json_string(RT_UPLOAD));
    net = json_pack("{s:s, s:s, s:s, s:s, s:s}", "boot", "http", "boot_url", RT_BOOT_URL, "mac",
                    RT_MAC, "ip", RT_IP, "upload_url", RT_UPLOAD_URL);
    json_object_set_new(run, "network", net);
    json_object_set_new(run, "config_source", json_string("http"));
    w = json_array();
    for (i = 0; i < RT_WARNINGS; i++)
        json_array_append_new(w, json_pack("{s:s, s:s}", "where", rt_warnings[i][0], "message",
                                           rt_warnings[i][1]));
    json_object_set_new(run, "warnings", w);
    e = json_array_get(json_object_get(root, "experiments"), 0);
    json_array_append_new(json_object_get(e, "notes"), json_string(RT_NOTE));
    json_object_set_new(e, "reason", json_string("skipped: " RT_MAC " is a test NIC"));
    text = json_dumps(root, JSON_INDENT(2));
    json_decref(root);
    assert_non_null(text);
    *len = strlen(text);
    return text;
}

static struct redact_result redacted(const char *text, size_t len)
{
    struct load_result lr;
    struct redact_key key;
    struct redact_result res;
    char why[100];
    load_buffer(text, len, &lr);
    assert_int_equal(lr.status, LOAD_OK);
    assert_true(redact_key_from_text(RT_KEY, &key, why, sizeof(why)));
    assert_true(redact_report(text, len, lr.root, &key, &res));
    redact_key_free(&key);
    load_release(&lr);
    return res;
}

static void test_free_text_gets_the_apps_tokens(void **state)
{
    char args[256], warnings[RT_WARNINGS][256], note[256], reason[256], *in;
    size_t len, i;
    struct redact_result res, again;
    json_t *root, *w, *e, *notes;
    struct diag_list d;
    (void)state;
    in = case_report(&len);
    res = redacted(in, len);
    assert_int_equal(res.quotes, 6); /* args, three warnings, the note, the reason */
    root = json_loadb(res.text, res.len, 0, NULL);
    assert_non_null(root);
    rt_expected(args, warnings, note);
    assert_string_equal(json_string_value(jget_path(root, "run.args")), args);
    w = json_object_get(json_object_get(root, "run"), "warnings");
    for (i = 0; i < RT_WARNINGS; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(w, i), "message")),
                            warnings[i]);
    e = json_array_get(json_object_get(root, "experiments"), 0);
    notes = json_object_get(e, "notes");
    assert_string_equal(json_string_value(json_array_get(notes, json_array_size(notes) - 1)),
                        note);
    snprintf(reason, sizeof(reason), "skipped: %s is a test NIC",
             rt_token(REDACT_FIELD_NET_MAC, RT_MAC));
    assert_string_equal(json_string_value(json_object_get(e, "reason")), reason);
    assert_string_equal(json_string_value(jget_path(root, REDACT_FIELD_NET_UPLOAD_URL)),
                        rt_token(REDACT_FIELD_NET_UPLOAD_URL, RT_UPLOAD_URL));
    assert_string_equal(json_string_value(jget_path(root, REDACT_FIELD_CFG_UPLOAD)),
                        rt_token(REDACT_FIELD_CFG_UPLOAD, RT_UPLOAD));
    /* nothing left, nothing left over, a valid report, and a second pass changes nothing */
    assert_null(memmem(res.text, res.len, RT_UPLOAD_HOST, strlen(RT_UPLOAD_HOST)));
    assert_null(memmem(res.text, res.len, RT_BOOT_HOST ":", strlen(RT_BOOT_HOST ":")));
    assert_int_equal(res.nleftovers, 2); /* "192.0.2.410", "x192.0.2.41": another word */
    diag_init(&d);
    assert_int_equal(validate_report(root, &d), 0);
    diag_free(&d);
    again = redacted(res.text, res.len);
    assert_false(again.changed);
    redact_result_free(&again);
    redact_result_free(&res);
    json_decref(root);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_text_gets_the_apps_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
