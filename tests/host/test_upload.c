/*
 * upload=URL and the network facts of a report (issue 24):
 *   - the retry policy (core/run/upload.c): transient answers only, waits that
 *     double up to a cap, no attempt past the overall deadline, one name for
 *     every attempt (a retry overwrites, never adds a copy);
 *   - upload= is a checked URL, written to run.config;
 *   - run.network: the MAC, IP and boot URL as written, and as tokens under
 *     redact=on (listed in the redaction record, found nowhere else); the
 *     text summary says where the configuration came from and how the
 *     upload went.
 * Mutants 90-94 (core/mutant.h) each fail one of these tests.
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
#include "core/run/upload.h"
#include "tests/host/support_host.h"
#include "tests/host/support_report.h"

static void test_only_transient_answers_are_retried(void **state)
{
    static const uint32_t done[] = { 200, 201, 204 };
    static const uint32_t retry[] = { 0, 408, 429, 500, 502, 503, 504, 599 };
    static const uint32_t give_up[] = { 301, 400, 401, 403, 404, 405, 413 };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(done) / sizeof(done[0]); i++)
        assert_int_equal(upload_judge(done[i]), UPLOAD_DONE);
    for (i = 0; i < sizeof(retry) / sizeof(retry[0]); i++)
        assert_int_equal(upload_judge(retry[i]), UPLOAD_RETRY);
    for (i = 0; i < sizeof(give_up) / sizeof(give_up[0]); i++)
        assert_int_equal(upload_judge(give_up[i]), UPLOAD_GIVE_UP);
}

/*
 * 409: the collector never replaces a report (issue 35). Read back, the same
 * bytes are this upload's own earlier attempt, anything else a failure.
 */
static void test_a_taken_name_is_read_back(void **state)
{
    static const char mine[] = "{\"schema\": \"tlbscope-report\"}\n";
    static const char other[] = "{\"schema\": \"tlbscope-report\" }\n";
    size_t n = sizeof(mine) - 1;
    (void)state;
    assert_int_equal(upload_judge(409), UPLOAD_CHECK);
    assert_int_equal(upload_judge_copy(200, mine, n, mine, n), UPLOAD_DONE);
    assert_int_equal(upload_judge_copy(200, mine, n, other, sizeof(other) - 1), UPLOAD_GIVE_UP);
    assert_int_equal(upload_judge_copy(200, mine, n, mine, n - 1), UPLOAD_GIVE_UP);
    assert_int_equal(upload_judge_copy(404, mine, n, mine, n), UPLOAD_GIVE_UP);
    assert_int_equal(upload_judge_copy(0, mine, n, mine, n), UPLOAD_GIVE_UP);
}

static void test_backoff_doubles_up_to_its_cap(void **state)
{
    static const uint32_t want[] = { 1000, 2000, 4000, 8000, 16000, 16000, 16000 };
    uint32_t a;
    (void)state;
    for (a = 1; a <= sizeof(want) / sizeof(want[0]); a++)
        assert_int_equal(upload_backoff_ms(a), want[a - 1]);
    assert_int_equal(upload_backoff_ms(1000), UPLOAD_BACKOFF_CAP_MS);
}

static void test_no_attempt_past_the_deadline(void **state)
{
    uint32_t wait;
    (void)state;
    /* attempts left and time left: wait, then go */
    assert_true(upload_next_attempt(1, 5, 0, 60000, &wait));
    assert_int_equal(wait, 1000);
    assert_true(upload_next_attempt(3, 5, 10000, 60000, &wait));
    assert_int_equal(wait, 4000);
    /* the wait would end past the deadline: no further attempt */
    assert_false(upload_next_attempt(1, 5, 59500, 60000, &wait));
    assert_false(upload_next_attempt(4, 5, 52000, 60000, &wait)); /* 8 s from 52 s */
    assert_false(upload_next_attempt(2, 5, 70000, 60000, &wait));
    /* no attempts left, whatever the time */
    assert_false(upload_next_attempt(5, 5, 0, 60000, &wait));
    assert_false(upload_next_attempt(1, 1, 0, 60000, &wait));
}

static void test_every_attempt_writes_one_name(void **state)
{
    char first[160], later[160];
    uint32_t attempt;
    (void)state;
    assert_true(upload_object_url("http://10.0.2.2:8080/reports", "NAME", ".json", 1, first,
                                  sizeof(first)));
    assert_string_equal(first, "http://10.0.2.2:8080/reports/NAME.json");
    for (attempt = 2; attempt <= 5; attempt++) {
        assert_true(upload_object_url("http://10.0.2.2:8080/reports/", "NAME", ".json", attempt,
                                      later, sizeof(later)));
        assert_string_equal(later, first);
    }
    assert_true(upload_object_url("http://h/", "NAME", ".txt", 1, later, sizeof(later)));
    assert_string_equal(later, "http://h/NAME.txt");
    /* a URL that does not fit is refused, never cut */
    assert_false(upload_object_url("http://h/reports", "NAME", ".json", 1, later, 20));
}

static void test_upload_key_is_a_checked_url(void **state)
{
    static const char *const bad[] = { "ftp://h/x", "http://", "http:///x", "h:80/x",
                                       "http://h/x?y=1" };
    const char *why = NULL;
    struct config c;
    struct msg_list m;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char line[64];
        mem_zero(&m, sizeof(m));
        config_defaults(&c);
        snprintf(line, sizeof(line), "upload=%s", bad[i]);
        config_parse(&c, line, strlen(line), "test", &m);
        assert_string_equal(c.upload, "");
        assert_int_equal(m.count, 1);
        assert_non_null(strstr(m.items[0].text, "key 'upload'"));
    }
    /* '#' starts a comment in tlbscope.cfg; a URL given otherwise is checked all the same */
    assert_false(upload_url_valid("http://h/#x", &why));
    assert_non_null(why);
    mem_zero(&m, sizeof(m));
    config_defaults(&c);
    config_parse(&c, "upload=https://collector.lab:8443/tlb upload_attempts=3", 55, "test", &m);
    assert_int_equal(m.count, 0);
    assert_string_equal(c.upload, "https://collector.lab:8443/tlb");
    assert_int_equal(c.upload_attempts, 3);
    assert_int_equal(c.upload_deadline_s, 60);
}

static struct run *network_run(bool redact)
{
    static const char args[] = "upload=http://10.0.2.2:8080/reports";
    struct run *r = mem_zalloc(sizeof(*r));
    assert_non_null(r);
    config_defaults(&r->cfg);
    config_parse(&r->cfg, args, strlen(args), "command line", &r->warnings);
    if (redact)
        config_parse(&r->cfg, "redact=on redact_key=lab", 24, "command line", &r->warnings);
    config_finalize(&r->cfg);
    str_copy(r->run_id, sizeof(r->run_id), "20261201-150619-amd-f19m01-0000-0badc0de");
    str_copy(r->cpu.vendor, sizeof(r->cpu.vendor), "AuthenticAMD");
    r->net.boot = BOOT_PXE_TFTP;
    r->net.config_source = CFG_SRC_TFTP;
    str_copy(r->net.boot_url, sizeof(r->net.boot_url), "tftp://192.0.2.7/lab/BOOTX64.EFI");
    str_copy(r->net.mac, sizeof(r->net.mac), "52:54:00:aa:bb:cc");
    str_copy(r->net.ip, sizeof(r->net.ip), "192.0.2.41");
    r->upload.state = UPLOAD_PENDING;
    str_copy(r->upload.url, sizeof(r->upload.url),
             "http://10.0.2.2:8080/reports/20261201-150619-amd-f19m01-0000-0badc0de.json");
    return r;
}

static const char *network_field(const json_t *root, const char *key)
{
    return json_string_value(
        json_object_get(json_object_get(json_object_get(root, "run"), "network"), key));
}

static void test_network_facts_written(void **state)
{
    struct run *r = network_run(false);
    json_t *root = support_report_json(r, NULL);
    (void)state;
    assert_string_equal(json_string_value(json_object_get(json_object_get(root, "run"),
                                                          "config_source")), "tftp");
    assert_string_equal(network_field(root, "boot"), "pxe_tftp");
    assert_string_equal(network_field(root, "boot_url"), "tftp://192.0.2.7/lab/BOOTX64.EFI");
    assert_string_equal(network_field(root, "mac"), "52:54:00:aa:bb:cc");
    assert_string_equal(network_field(root, "ip"), "192.0.2.41");
    assert_string_equal(network_field(root, "upload_url"), r->upload.url);
    json_decref(root);
    mem_free(r);
}

static void test_network_addresses_redacted(void **state)
{
    struct run *r = network_run(true);
    char *json_text = NULL, *text;
    json_t *root = support_report_json(r, &json_text), *fields;
    /* issue 35: where the reports went is identifying too (the collector names the lab) */
    static const char *const keys[] = { "mac", "ip", "boot_url", "upload_url" };
    size_t i, listed = 0;
    (void)state;
    for (i = 0; i < 4; i++)
        assert_non_null(strstr(network_field(root, keys[i]), "redacted:hmac:"));
    fields = json_object_get(json_object_get(root, "redaction"), "fields");
    for (i = 0; i < json_array_size(fields); i++)
        listed += strncmp(json_string_value(json_array_get(fields, i)), "run.network.", 12) == 0;
    assert_int_equal(listed, 4);
    assert_null(strstr(json_text, "52:54:00"));
    assert_null(strstr(json_text, "192.0.2"));
    assert_null(strstr(json_text, "10.0.2.2"));
    text = support_report_text(r);
    assert_null(strstr(text, "192.0.2.7"));
    assert_null(strstr(text, "10.0.2.2"));
    assert_non_null(strstr(text, "Boot      pxe_tftp from (redacted); configuration from tftp"));
    free(text);
    free(json_text);
    json_decref(root);
    mem_free(r);
}

static void test_text_says_how_the_upload_went(void **state)
{
    struct run *r = network_run(false);
    char *text;
    (void)state;
    text = support_report_text(r);
    /* issue 35: the report is written before the upload, which it cannot know the end of */
    assert_non_null(strstr(text, "Upload    this copy goes to http://10.0.2.2:8080/reports/"));
    assert_non_null(strstr(text, "how that went: the console, and the .upload file beside it"));
    assert_non_null(strstr(text, "Boot      pxe_tftp from tftp://192.0.2.7/lab/BOOTX64.EFI; "
                                 "configuration from tftp"));
    free(text);
    r->upload.state = UPLOAD_OK;
    r->upload.attempts = 2;
    r->upload.http_status = 201;
    r->upload.text_sent = true;
    text = support_report_text(r);
    assert_non_null(strstr(text, "Upload    succeeded: http://10.0.2.2:8080/reports/"));
    assert_non_null(strstr(text, "(HTTP 201, attempt 2 of at most 5)\n"));
    assert_null(strstr(text, ".txt did not arrive"));
    free(text);
    r->upload.state = UPLOAD_FAILED;
    r->upload.attempts = 0;
    str_copy(r->upload.why, sizeof(r->upload.why), "no IPv4 address from DHCP within 15000 ms");
    text = support_report_text(r);
    assert_non_null(strstr(text, "Upload    FAILED: http://10.0.2.2:8080/reports/"));
    assert_non_null(strstr(text, "before any attempt: no IPv4 address from DHCP"));
    free(text);
    mem_free(r);
}

/* The outcome file beside the stick's report (issue 35): before, and after. */
static void test_outcome_file(void **state)
{
    struct upload_outcome u;
    char buf[768];
    struct strbuf sb;
    (void)state;
    memset(&u, 0, sizeof(u));
    u.state = UPLOAD_PENDING;
    sb_init_fixed(&sb, buf, sizeof(buf));
    upload_outcome_text(&u, false, "NAME", "ab12", 4321, &sb);
    assert_non_null(strstr(buf, "\nreport=NAME\njson_bytes=4321\njson_sha256=ab12\n"
                                "state=started\nattempts=0\n"));
    assert_null(strstr(buf, "http_status="));
    u.state = UPLOAD_FAILED;
    u.attempts = 3;
    str_copy(u.why, sizeof(u.why), "waiting for the answer: no completion before the deadline");
    sb_init_fixed(&sb, buf, sizeof(buf));
    upload_outcome_text(&u, false, "NAME", "ab12", 4321, &sb);
    assert_non_null(strstr(buf, "state=failed\nattempts=3\nhttp_status=0\nwhy=waiting"));
    u.state = UPLOAD_OK;
    u.http_status = 201;
    sb_init_fixed(&sb, buf, sizeof(buf));
    upload_outcome_text(&u, true, "NAME", "ab12", 4321, &sb);
    assert_non_null(strstr(buf, "state=succeeded\nattempts=3\nhttp_status=201\n"));
    assert_null(strstr(buf, "why="));
    assert_null(strstr(buf, "http://")); /* the file travels with the stick: no URL */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_only_transient_answers_are_retried),
        cmocka_unit_test(test_a_taken_name_is_read_back),
        cmocka_unit_test(test_backoff_doubles_up_to_its_cap),
        cmocka_unit_test(test_no_attempt_past_the_deadline),
        cmocka_unit_test(test_every_attempt_writes_one_name),
        cmocka_unit_test(test_upload_key_is_a_checked_url),
        cmocka_unit_test(test_network_facts_written),
        cmocka_unit_test(test_network_addresses_redacted),
        cmocka_unit_test(test_text_says_how_the_upload_went),
        cmocka_unit_test(test_outcome_file),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
