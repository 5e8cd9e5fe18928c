/*
 * Redaction in the app's build: core/lib/sha256.c against FIPS 180-2 and RFC
 * 4231, the tokens of core/run/redact.c, and the report writer with redact=on
 * (the JSON and the .txt carry tokens, never the serial number or UUID, and
 * never the key; the command line's redact_key is masked). The tokens it
 * writes for the dell-r820 fixture's values are the ones the host tool's
 * redact gives (test_report_redact.c expects the same constants).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/config.h"
#include "core/lib/mem.h"
#include "core/run/redact.h"
#include "core/report/report.h"
#include "core/lib/sha256.h"
#include "core/lib/strbuf.h"
#include "tests/host/hmac_vectors.h"
#include "tests/host/support_report.h"
#include "tests/host/support_host.h"

static void test_sha256_vectors(void **state)
{
    char hex[65];
    uint8_t d[SHA256_DIGEST_LEN];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(sha256_vectors) / sizeof(sha256_vectors[0]); i++) {
        const struct sha_vector *v = &sha256_vectors[i];
        if (v->message) {
            sha256(v->message, strlen(v->message), d);
        } else {
            /* a million 'a' in uneven pieces: every path of the block buffer */
            static char chunk[997];
            struct sha256_ctx c;
            size_t left = 1000000;
            memset(chunk, 'a', sizeof(chunk));
            sha256_init(&c);
            while (left) {
                size_t n = left < sizeof(chunk) ? left : (left % 3 ? 63 : sizeof(chunk));
                sha256_update(&c, chunk, n);
                left -= n;
            }
            sha256_final(&c, d);
        }
        hex_of(d, sizeof(d), hex);
        assert_string_equal(hex, v->digest);
    }
}

static void test_hmac_rfc4231(void **state)
{
    char hex[65];
    uint8_t mac[SHA256_DIGEST_LEN];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(rfc4231_vectors) / sizeof(rfc4231_vectors[0]); i++) {
        const struct hmac_vector *v = &rfc4231_vectors[i];
        struct hmac_sha256_ctx c;
        hmac_sha256(v->key, v->key_len, v->data, v->data_len, mac);
        hex_of(mac, v->mac_bytes, hex);
        assert_string_equal(hex, v->mac);
        /* byte by byte through the incremental interface: the same */
        hmac_sha256_init(&c, v->key, v->key_len);
        for (size_t k = 0; k < v->data_len; k++)
            hmac_sha256_update(&c, v->data + k, 1);
        hmac_sha256_final(&c, mac);
        hex_of(mac, v->mac_bytes, hex);
        assert_string_equal(hex, v->mac);
    }
}

static void test_tokens(void **state)
{
    char t[REDACT_TOKEN_CAP], u[REDACT_TOKEN_CAP];
    (void)state;
    redact_token(FIXTURE_KEY, strlen(FIXTURE_KEY), true, REDACT_FIELD_SYSTEM_SERIAL, DELL_SERIAL,
                 strlen(DELL_SERIAL), t);
    assert_string_equal(t, DELL_SERIAL_TOKEN);
    redact_token(FIXTURE_KEY, strlen(FIXTURE_KEY), true, REDACT_FIELD_SYSTEM_UUID, DELL_UUID,
                 strlen(DELL_UUID), t);
    assert_string_equal(t, DELL_UUID_TOKEN);
    assert_int_equal(redact_token_kind(t), REDACT_TOKEN_HMAC);
    /* the field takes part: the same value in another field is another token */
    redact_token(FIXTURE_KEY, strlen(FIXTURE_KEY), true, REDACT_FIELD_SYSTEM_UUID, DELL_SERIAL,
                 strlen(DELL_SERIAL), u);
    assert_string_not_equal(u, DELL_SERIAL_TOKEN);
    /* random: the prefix says so, the digits are the HMAC under that key */
    redact_token("k", 1, false, REDACT_FIELD_SYSTEM_SERIAL, "x", 1, t);
    redact_token("k", 1, true, REDACT_FIELD_SYSTEM_SERIAL, "x", 1, u);
    assert_int_equal(strncmp(t, REDACT_RANDOM_PREFIX, strlen(REDACT_RANDOM_PREFIX)), 0);
    assert_string_equal(t + strlen(REDACT_RANDOM_PREFIX), u + strlen(REDACT_HMAC_PREFIX));
    assert_int_equal(redact_token_kind(t), REDACT_TOKEN_RANDOM);
    /* the form, exactly */
    assert_int_equal(redact_token_kind("redacted:hmac:0123456789abcdef"), REDACT_TOKEN_HMAC);
    assert_int_equal(redact_token_kind("redacted:hmac:0123456789ABCDEF"), REDACT_NOT_TOKEN);
    assert_int_equal(redact_token_kind("redacted:hmac:0123456789abcde"), REDACT_NOT_TOKEN);
    assert_int_equal(redact_token_kind("redacted:hmac:0123456789abcdef0"), REDACT_NOT_TOKEN);
    assert_int_equal(redact_token_kind("redacted:sha:0123456789abcdef"), REDACT_NOT_TOKEN);
    assert_int_equal(redact_token_kind("S123456X3C01234"), REDACT_NOT_TOKEN);
    assert_int_equal(redact_token_kind(NULL), REDACT_NOT_TOKEN);
    assert_int_equal(redact_field_index(REDACT_FIELD_SYSTEM_UUID), 1);
    assert_int_equal(redact_field_index("firmware.smbios.system.product"), -1);
}

/* A run that found the dell-r820 fixture's SMBIOS, given `args` on the command line. */
static struct run *dell_run(const char *args)
{
    /* 4c4c4544-0051-5a10-8034-b7c04f564b32 as SMBIOS stores it (first three fields LE) */
    static const uint8_t uuid[16] = { 0x44, 0x45, 0x4c, 0x4c, 0x51, 0x00, 0x10, 0x5a,
                                      0x80, 0x34, 0xb7, 0xc0, 0x4f, 0x56, 0x4b, 0x32 };
    struct run *r = mem_zalloc(sizeof(*r));
    struct smbios_info *s;
    assert_non_null(r);
    config_defaults(&r->cfg);
    str_copy(r->args_text, sizeof(r->args_text), args);
    config_parse(&r->cfg, args, strlen(args), "command line", &r->warnings);
    config_finalize(&r->cfg);
    str_copy(r->run_id, sizeof(r->run_id), "20261203-091500-intel-f06m3e-0007");
    s = &r->fw.smbios;
    s->present = true;
    s->major = 2;
    s->minor = 7;
    str_copy(s->sys_manufacturer, sizeof(s->sys_manufacturer), "Dell Inc.");
    str_copy(s->sys_product, sizeof(s->sys_product), "PowerEdge R820");
    str_copy(s->sys_serial, sizeof(s->sys_serial), DELL_SERIAL);
    str_copy(s->bios_version, sizeof(s->bios_version), "2.7.0");
    s->has_uuid = true;
    memcpy(s->uuid, uuid, 16);
    return r;
}

static const char *system_field(const json_t *root, const char *key)
{
    return json_string_value(json_object_get(
        json_object_get(json_object_get(json_object_get(root, "firmware"), "smbios"), "system"),
        key));
}

static void test_writer_full_by_default(void **state)
{
    struct run *r = dell_run("profile=quick");
    char *text;
    json_t *root = support_report_json(r, &text);
    (void)state;
    assert_string_equal(system_field(root, "serial"), DELL_SERIAL);
    assert_string_equal(system_field(root, "uuid"), DELL_UUID);
    assert_null(json_object_get(root, "redaction"));
    assert_true(json_is_false(json_object_get(
        json_object_get(json_object_get(root, "run"), "config"), "redact")));
    json_decref(root);
    free(text);
    mem_free(r);
}

static void test_writer_redacts_with_key(void **state)
{
    struct run *r = dell_run("redact=on redact_key=" FIXTURE_KEY " profile=quick");
    char *text, *summary;
    json_t *root = support_report_json(r, &text), *rec, *cfg;
    (void)state;
    assert_int_equal(r->warnings.count, 0);
    /* the tokens tlbscope-report redact --key lab-key-2026 gives for the same values */
    assert_string_equal(system_field(root, "serial"), DELL_SERIAL_TOKEN);
    assert_string_equal(system_field(root, "uuid"), DELL_UUID_TOKEN);
    rec = json_object_get(root, "redaction");
    assert_true(json_is_true(json_object_get(rec, "redacted")));
    assert_true(json_is_true(json_object_get(rec, "keyed")));
    assert_string_equal(json_string_value(json_object_get(rec, "by")), "tlbscope");
    assert_int_equal(json_array_size(json_object_get(rec, "fields")), 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(rec, "fields"), 0)),
                        REDACT_FIELD_SYSTEM_SERIAL);
    assert_string_equal(json_string_value(json_array_get(json_object_get(rec, "fields"), 1)),
                        REDACT_FIELD_SYSTEM_UUID);
    /* vendor and product stay */
    assert_string_equal(system_field(root, "product"), "PowerEdge R820");
    /* the configuration says a key was given; the key is nowhere */
    cfg = json_object_get(json_object_get(root, "run"), "config");
    assert_true(json_is_true(json_object_get(cfg, "redact")));
    assert_true(json_is_true(json_object_get(cfg, "redact_key")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(root, "run"), "args")),
                        "redact=on redact_key=*");
    assert_null(strstr(text, FIXTURE_KEY));
    assert_null(strstr(text, DELL_SERIAL));
    assert_null(strstr(text, DELL_UUID));
    /* the record sits after "simulation", before "run" */
    assert_true(strstr(text, "\"simulation\"") < strstr(text, "\"redaction\""));
    assert_true(strstr(text, "\"redaction\"") < strstr(text, "\"run\""));
    /* the .txt summary says so and names neither */
    summary = support_report_text(r);
    assert_non_null(strstr(summary, "Redacted  serial number and UUID replaced by keyed tokens"));
    assert_null(strstr(summary, DELL_SERIAL));
    assert_null(strstr(summary, FIXTURE_KEY));
    free(summary);
    json_decref(root);
    free(text);
    mem_free(r);
}

static void test_writer_random_tokens(void **state)
{
    struct run *r = dell_run("redact=on");
    char *text, *text2, a[REDACT_TOKEN_CAP];
    json_t *root, *root2;
    (void)state;
    memset(r->redact_random_key, 0x5a, sizeof(r->redact_random_key));
    r->redact_random_key_set = true;
    root = support_report_json(r, &text);
    assert_int_equal(redact_token_kind(system_field(root, "serial")), REDACT_TOKEN_RANDOM);
    assert_int_equal(redact_token_kind(system_field(root, "uuid")), REDACT_TOKEN_RANDOM);
    assert_true(json_is_false(json_object_get(json_object_get(root, "redaction"), "keyed")));
    assert_null(strstr(text, DELL_SERIAL));
    assert_null(strstr(text, DELL_UUID));
    snprintf(a, sizeof(a), "%s", system_field(root, "serial"));
    /* written twice (after a failed save): the same tokens */
    root2 = support_report_json(r, &text2);
    assert_string_equal(system_field(root2, "serial"), a);
    json_decref(root2);
    free(text2);
    /* another report's random key: other tokens */
    r->redact_random_key[0] ^= 1;
    root2 = support_report_json(r, &text2);
    assert_string_not_equal(system_field(root2, "serial"), a);
    json_decref(root2);
    free(text2);
    json_decref(root);
    free(text);
    /* without platform randomness (host builds) still tokens, never the values */
    r->redact_random_key_set = false;
    root = support_report_json(r, &text);
    assert_int_equal(redact_token_kind(system_field(root, "serial")), REDACT_TOKEN_RANDOM);
    assert_null(strstr(text, DELL_SERIAL));
    json_decref(root);
    free(text);
    mem_free(r);
}

static void test_writer_nothing_to_redact(void **state)
{
    struct run *r = dell_run("redact=on redact_key=k");
    char *text;
    json_t *root, *rec;
    (void)state;
    r->fw.smbios.sys_serial[0] = 0; /* QEMU: an empty serial number, no UUID */
    r->fw.smbios.has_uuid = false;
    root = support_report_json(r, &text);
    rec = json_object_get(root, "redaction");
    assert_non_null(rec);
    assert_int_equal(json_array_size(json_object_get(rec, "fields")), 0);
    assert_string_equal(system_field(root, "serial"), "");
    assert_true(json_is_null(json_object_get(
        json_object_get(json_object_get(json_object_get(root, "firmware"), "smbios"), "system"),
        "uuid")));
    json_decref(root);
    free(text);
    mem_free(r);
}

/*
 * run.args is cut after the first name of redact_key, in any form (issue 35): a
 * key with a blank has a second part no rule tells from another argument.
 */
static void test_args_masking(void **state)
{
    static const struct {
        const char *args, *written;
    } cases[] = {
        { "redact_key=s3cret", "redact_key=*" },
        { "profile=quick redact_key=s3cret exit=shutdown", "profile=quick redact_key=*" },
        { "Redact_Kye=s3cret redact=on", "Redact_Kye=*" },
        { "redact_key=", "redact_key=*" },
        { "xredact_key=s3cret", "xredact_key=*" },
        { "redact=on\tredact_key=a#b", "redact=on\tredact_key=*" },
        { "redact_key=my s3cret phrase profile=quick", "redact_key=*" },
        { "redact_key =s3cret", "redact_key*" },
        { "redact_key:s3cret", "redact_key*" },
        { "redact_key s3cret", "redact_key*" },
        { "profile=quick REDACT-KEY=s3cret", "profile=quick REDACT-KEY=*" },
        { "redact key=s3cret", "redact key=*" },
        { "redact=on profile=quick", "redact=on profile=quick" }, /* nothing to cut */
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct run *r = dell_run(cases[i].args);
        char *text;
        json_t *root = support_report_json(r, &text);
        assert_string_equal(
            json_string_value(json_object_get(json_object_get(root, "run"), "args")),
            cases[i].written);
        assert_null(strstr(text, "s3cret"));
        json_decref(root);
        free(text);
        mem_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test(test_hmac_rfc4231),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_writer_full_by_default),
        cmocka_unit_test(test_writer_redacts_with_key),
        cmocka_unit_test(test_writer_random_tokens),
        cmocka_unit_test(test_writer_nothing_to_redact),
        cmocka_unit_test(test_args_masking),
    };
    host_init();
    return cmocka_run_group_tests_name("redact", tests, NULL, NULL);
}
