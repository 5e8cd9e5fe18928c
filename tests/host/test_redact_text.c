/*
 * redact=on in the app's writers beyond the identifying fields (issue 35):
 * run.network.upload_url and run.config.upload are tokens too, and wherever
 * free text quotes an identifying value or a URL's host (run.args' upload=,
 * a failed fetch's warning, an experiment's note), its token stands there: in
 * the JSON and in the .txt. The strings are the ones tlbscope-report redact
 * writes for the same report (tests/host/redact_text_case.h).
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
#include "tests/host/redact_text_case.h"
#include "tests/host/support_host.h"
#include "tests/host/support_report.h"

static struct run *case_run(bool redact)
{
    static const char redaction[] = "redact=on redact_key=" RT_KEY;
    struct run *r = mem_zalloc(sizeof(*r));
    struct experiment_record *e;
    unsigned i;
    assert_non_null(r);
    config_defaults(&r->cfg);
    str_copy(r->args_text, sizeof(r->args_text), RT_ARGS);
    config_parse(&r->cfg, RT_ARGS, strlen(RT_ARGS), CONFIG_SOURCE_LOAD_OPTIONS, &r->warnings);
    if (redact)
        config_parse(&r->cfg, redaction, strlen(redaction), CONFIG_SOURCE_STICK, &r->warnings);
    config_finalize(&r->cfg);
    for (i = 0; i < RT_WARNINGS; i++)
        msg_add(&r->warnings, rt_warnings[i][0], "%s", rt_warnings[i][1]);
    str_copy(r->run_id, sizeof(r->run_id), RT_NAME);
    r->net.boot = BOOT_HTTP;
    str_copy(r->net.boot_url, sizeof(r->net.boot_url), RT_BOOT_URL);
    str_copy(r->net.mac, sizeof(r->net.mac), RT_MAC);
    str_copy(r->net.ip, sizeof(r->net.ip), RT_IP);
    r->upload.state = UPLOAD_PENDING;
    str_copy(r->upload.url, sizeof(r->upload.url), RT_UPLOAD_URL);
    r->experiment_count = 1;
    r->experiments = mem_zalloc(sizeof(*r->experiments));
    assert_non_null(r->experiments);
    e = &r->experiments[0];
    e->id = "ipi_roundtrip";
    e->title = "IPI round trip";
    e->ran = true;
    e->status = RESULT_SKIP;
    str_copy(e->reason, sizeof(e->reason), "skipped: " RT_MAC " is a test NIC");
    record_note(e, "%s", RT_NOTE);
    return r;
}

static const char *run_str(json_t *root, const char *a, const char *b)
{
    json_t *o = json_object_get(json_object_get(root, "run"), a);
    return json_string_value(b ? json_object_get(o, b) : o);
}

static void test_free_text_gets_the_tokens(void **state)
{
    struct run *r = case_run(true);
    char args[256], warnings[RT_WARNINGS][256], note[256], reason[256], *json, *txt;
    json_t *root = support_report_json(r, &json), *w, *e;
    unsigned i;
    (void)state;
    rt_expected(args, warnings, note);
    assert_string_equal(run_str(root, "args", NULL), args);
    w = json_object_get(json_object_get(root, "run"), "warnings");
    assert_int_equal(json_array_size(w), RT_WARNINGS);
    for (i = 0; i < RT_WARNINGS; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(w, i), "message")),
                            warnings[i]);
    e = json_array_get(json_object_get(root, "experiments"), 0);
    assert_string_equal(json_string_value(json_array_get(json_object_get(e, "notes"), 0)), note);
    snprintf(reason, sizeof(reason), "skipped: %s is a test NIC",
             rt_token(REDACT_FIELD_NET_MAC, RT_MAC));
    assert_string_equal(json_string_value(json_object_get(e, "reason")), reason);
    /* the upload URLs are tokens in their own fields, and listed */
    assert_string_equal(run_str(root, "network", "upload_url"),
                        rt_token(REDACT_FIELD_NET_UPLOAD_URL, RT_UPLOAD_URL));
    assert_string_equal(run_str(root, "config", "upload"),
                        rt_token(REDACT_FIELD_CFG_UPLOAD, RT_UPLOAD));
    /* no host, address or URL is left anywhere, in the JSON or the .txt */
    txt = support_report_text(r);
    assert_null(strstr(json, RT_BOOT_HOST ":"));
    assert_null(strstr(json, RT_UPLOAD_HOST));
    assert_null(strstr(json, RT_MAC));
    assert_null(strstr(txt, RT_BOOT_HOST ":"));
    assert_null(strstr(txt, RT_UPLOAD_HOST));
    assert_null(strstr(txt, RT_MAC));
    assert_non_null(strstr(txt, warnings[0]));
    free(txt);
    free(json);
    json_decref(root);
    mem_free(r->experiments);
    mem_free(r);
}

static void test_unredacted_reports_keep_their_text(void **state)
{
    struct run *r = case_run(false);
    json_t *root = support_report_json(r, NULL), *w;
    (void)state;
    assert_string_equal(run_str(root, "args", NULL), RT_ARGS);
    assert_string_equal(run_str(root, "config", "upload"), RT_UPLOAD);
    assert_string_equal(run_str(root, "network", "upload_url"), RT_UPLOAD_URL);
    w = json_object_get(json_object_get(root, "run"), "warnings");
    assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "message")),
                        rt_warnings[0][1]);
    json_decref(root);
    mem_free(r->experiments);
    mem_free(r);
}

/* redact_scrub and redact_url_host, the shared pieces, on their own */
static void test_scrub_rules(void **state)
{
    static struct redact_pairs p;
    char out[256];
    size_t s, n;
    (void)state;
    assert_true(redact_url_host("http://user@host.lab:8080/x", 27, &s, &n));
    assert_int_equal(s, 12);
    assert_int_equal(n, 8);
    assert_true(redact_url_host("tftp://10.0.2.2/BOOTX64.EFI", 27, &s, &n));
    assert_int_equal(n, 8);
    assert_true(redact_url_host("http://[fd00::1]:80/", 20, &s, &n));
    assert_int_equal(n, 9);
    assert_false(redact_url_host("no url here", 11, &s, &n));
    memset(&p, 0, sizeof(p));
    redact_pairs_add(&p, "k", 1, true, REDACT_FIELD_CFG_UPLOAD, "http://col.lab/r", 16);
    assert_int_equal(p.n, 2); /* the URL and its host */
    redact_pairs_add(&p, "k", 1, true, REDACT_FIELD_NET_BOOT_URL, "http://col.lab/b", 16);
    assert_int_equal(p.n, 3); /* the same host: once */
    redact_pairs_add(&p, "k", 1, true, REDACT_FIELD_NET_IP, "10.1", 4);
    n = redact_scrub(&p, "to col.lab, col.labs, sub.col.lab, 10.1 and 10.12", 49, out,
                     sizeof(out));
    assert_int_equal(n, strlen(out));
    assert_null(strstr(out, "to col.lab,"));
    assert_non_null(strstr(out, "col.labs")); /* another name */
    assert_non_null(strstr(out, "sub.col.lab")); /* another host under it */
    assert_non_null(strstr(out, "10.12"));
    assert_null(strstr(out, " 10.1 "));
    /* cut to the capacity, NUL-terminated, the whole length returned */
    n = redact_scrub(&p, "to col.lab", 10, out, 5);
    assert_int_equal(strlen(out), 4);
    assert_true(n > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_text_gets_the_tokens),
        cmocka_unit_test(test_unredacted_reports_keep_their_text),
        cmocka_unit_test(test_scrub_rules),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
