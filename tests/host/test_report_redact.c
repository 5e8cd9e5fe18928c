/*
 * tlbscope-report redact, and what the other outputs leave out, on the
 * reports of three real servers (tests/fixtures/reports/identity: their
 * SMBIOS decodes, with invented serial numbers and UUIDs) and every other
 * fixture:
 *   - every identifying value is gone from a redacted copy, and from compare
 *     (text, Markdown, CSV) and html output, full or redacted; show prints it;
 *   - the same key gives the same token (for one machine in two runs, and
 *     the app's own tokens: hmac_vectors.h), another key or none another;
 *   - a second redaction changes no byte; only the values and the record
 *     change in the first;
 *   - the copy validates, and validate catches a record that lies;
 *   - compare groups redacted reports by token;
 *   - cmd_redact: output name, never overwriting, key files, errors.
 * Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/run/redact.h"
#include "core/lib/sha256.h"
#include "reports/tool/cli/commands.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/validate/diag.h"
#include "reports/tool/html/html.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/model/load.h"
#include "reports/tool/model/model.h"
#include "reports/tool/redact/redact.h"
#include "reports/tool/show/show.h"
#include "reports/tool/validate/validate.h"
#include "tests/host/hmac_vectors.h"
#include "tests/host/report_fixture.h"

#define IDENTITY FIXTURES "identity/"
#define DELL1 IDENTITY "dell-r820-run1.json"
#define DELL2 IDENTITY "dell-r820-run2.json"
#define X10 IDENTITY "supermicro-x10dai.json"
#define ROME IDENTITY "asrockrack-rome2d16-2t.json"
#define EPYC FIXTURES "synthetic-epyc7763-2s-hw.json"
#define QEMU FIXTURES "qemu-tcg-smp2-all.json"

/* ---- helpers ---- */

struct doc {
    char *bytes;
    size_t len;
    json_t *root;
};

static struct doc doc_of_bytes(const char *bytes, size_t len)
{
    struct load_result lr;
    struct doc d;
    load_buffer(bytes, len, &lr);
    if (lr.status != LOAD_OK)
        fail_msg("does not load: %s", lr.message);
    d.bytes = malloc(len ? len : 1);
    assert_non_null(d.bytes);
    memcpy(d.bytes, bytes, len);
    d.len = len;
    d.root = lr.root;
    return d;
}

static struct doc doc_of_file(const char *path)
{
    struct load_result lr;
    struct doc d;
    load_file_bytes(path, &lr, &d.bytes, &d.len);
    if (lr.status != LOAD_OK)
        fail_msg("%s: %s", path, lr.message);
    d.root = lr.root;
    return d;
}

static void doc_free(struct doc *d)
{
    free(d->bytes);
    json_decref(d->root);
}

static struct redact_key key_of(const char *text)
{
    struct redact_key k;
    char why[128];
    if (text)
        assert_true(redact_key_from_text(text, &k, why, sizeof(why)));
    else
        assert_true(redact_key_random(&k, why, sizeof(why)));
    return k;
}

/* The redacted copy of `d`, as a document (its bytes in .bytes). */
static struct doc redacted(const struct doc *d, const char *key_text, struct redact_result *res)
{
    struct redact_key k = key_of(key_text);
    struct redact_result local;
    struct doc out;
    if (!res)
        res = &local;
    if (!redact_report(d->bytes, d->len, d->root, &k, res))
        fail_msg("redact_report: %s", res->message);
    out = doc_of_bytes(res->text, res->len);
    redact_result_free(res);
    redact_key_free(&k);
    return out;
}

static const char *field(const json_t *root, const char *path)
{
    return json_string_value(jget_path(root, path));
}

static bool contains(const char *text, size_t len, const char *needle)
{
    size_t n = strlen(needle), i;
    for (i = 0; n && i + n <= len; i++)
        if (memcmp(text + i, needle, n) == 0)
            return true;
    return false;
}

static size_t errors_of(const json_t *root, struct diag_list *d)
{
    diag_init(d);
    return validate_report(root, d);
}

static void assert_valid(const json_t *root)
{
    struct diag_list d;
    if (errors_of(root, &d)) {
        diag_print(&d, "redacted", stderr);
        fail_msg("the redacted report does not validate");
    }
    diag_free(&d);
}

/* Every *.json in the fixture directories a report can be given from. */
struct file_list {
    char *paths[64];
    size_t n;
};

static void add_dir(struct file_list *l, const char *dir)
{
    DIR *dp = opendir(dir);
    struct dirent *e;
    assert_non_null(dp);
    while ((e = readdir(dp)) && l->n < 64) {
        size_t n = strlen(e->d_name);
        char path[512];
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        snprintf(path, sizeof(path), "%s%s", dir, e->d_name);
        l->paths[l->n++] = strdup(path);
    }
    closedir(dp);
}

static void files_free(struct file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
}

/* The identifying values of every fixture report (duplicates included). */
struct values {
    char *v[128];
    const char *field[128];
    size_t n;
};

static void collect_values(const json_t *root, struct values *out)
{
    for (size_t i = 0; redact_fields[i]; i++) {
        const char *v = field(root, redact_fields[i]);
        if (v && *v && out->n < 128) {
            out->field[out->n] = redact_fields[i];
            out->v[out->n++] = strdup(v);
        }
    }
}

static char *memstream_of(void (*fn)(FILE *, void *), void *arg, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    fn(f, arg);
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

struct print_args {
    struct cmp_model *m;
    enum table_format fmt;
    struct m_report **reports;
    size_t n;
};

static void print_compare(FILE *f, void *a)
{
    struct print_args *p = a;
    compare_print(p->m, f, p->fmt);
}

static void print_html(FILE *f, void *a)
{
    struct print_args *p = a;
    assert_true(html_render(f, p->reports, p->n));
}

static void print_show(FILE *f, void *a)
{
    show_wide = true; /* the 100-column layout these expectations were written for */
    show_report(a, f);
}

static struct m_report *model_of_doc(json_t *root, const char *path, size_t label)
{
    struct m_report *r = model_build(root, path);
    assert_non_null(r);
    snprintf(r->label, sizeof(r->label), "%c", (char)('A' + label));
    return r;
}

/* ---- the HMAC of the tool's build ---- */

/* core/lib/sha256.c as tool.mk compiles it for tlbscope-report (other flags than the app's). */
static void test_tool_hmac_rfc4231(void **state)
{
    char hex[65];
    uint8_t mac[SHA256_DIGEST_LEN];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(rfc4231_vectors) / sizeof(rfc4231_vectors[0]); i++) {
        const struct hmac_vector *v = &rfc4231_vectors[i];
        hmac_sha256(v->key, v->key_len, v->data, v->data_len, mac);
        hex_of(mac, v->mac_bytes, hex);
        assert_string_equal(hex, v->mac);
    }
    for (i = 0; i < sizeof(sha256_vectors) / sizeof(sha256_vectors[0]); i++) {
        if (!sha256_vectors[i].message)
            continue;
        sha256(sha256_vectors[i].message, strlen(sha256_vectors[i].message), mac);
        hex_of(mac, sizeof(mac), hex);
        assert_string_equal(hex, sha256_vectors[i].digest);
    }
}

/* ---- redaction ---- */

static void test_identifying_values_gone(void **state)
{
    static const char *const files[] = { DELL1, DELL2, X10, ROME, EPYC };
    static const char *const keys[] = { FIXTURE_KEY, NULL };
    size_t f, k, i, checked = 0;
    (void)state;
    for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        struct doc d = doc_of_file(files[f]);
        struct values vals = { 0 };
        collect_values(d.root, &vals);
        assert_int_equal(vals.n, 2); /* serial number and UUID, both recorded */
        for (k = 0; k < 2; k++) {
            struct redact_result res;
            struct doc out = redacted(&d, keys[k], &res);
            const json_t *rec = json_object_get(out.root, "redaction");
            for (i = 0; i < vals.n; i++) {
                if (contains(out.bytes, out.len, vals.v[i]))
                    fail_msg("%s: %s still in the copy", files[f], vals.v[i]);
                assert_int_equal(redact_token_kind(field(out.root, vals.field[i])),
                                 keys[k] ? REDACT_TOKEN_HMAC : REDACT_TOKEN_RANDOM);
                checked++;
            }
            assert_int_equal(res.replaced, 2);
            assert_int_equal(res.nleftovers, 0);
            assert_true(json_is_true(json_object_get(rec, "redacted")));
            assert_true(json_is_boolean(json_object_get(rec, "keyed")) &&
                        json_is_true(json_object_get(rec, "keyed")) == (keys[k] != NULL));
            assert_string_equal(json_string_value(json_object_get(rec, "by")), "tlbscope-report");
            assert_int_equal(json_array_size(json_object_get(rec, "fields")), 2);
            /* what the comparison is about stays */
            assert_string_equal(field(out.root, "firmware.smbios.system.product"),
                                field(d.root, "firmware.smbios.system.product"));
            assert_string_equal(field(out.root, "firmware.smbios.bios.version"),
                                field(d.root, "firmware.smbios.bios.version"));
            assert_string_equal(field(out.root, "cpu.brand"), field(d.root, "cpu.brand"));
            assert_string_equal(field(out.root, "cpu.microcode.revision"),
                                field(d.root, "cpu.microcode.revision"));
            assert_valid(out.root);
            doc_free(&out);
        }
        for (i = 0; i < vals.n; i++)
            free(vals.v[i]);
        doc_free(&d);
    }
    assert_int_equal(checked, 20);
}

static void test_same_key_same_token(void **state)
{
    struct doc d1 = doc_of_file(DELL1), d2 = doc_of_file(DELL2), x = doc_of_file(X10);
    struct doc a = redacted(&d1, FIXTURE_KEY, NULL), b = redacted(&d2, FIXTURE_KEY, NULL);
    struct doc c = redacted(&x, FIXTURE_KEY, NULL), other = redacted(&d1, "another key", NULL);
    struct doc r1 = redacted(&d1, NULL, NULL), r2 = redacted(&d1, NULL, NULL);
    (void)state;
    /* the app's tokens for these values under this key (test_redact.c): the same */
    assert_string_equal(field(a.root, REDACT_FIELD_SYSTEM_SERIAL), DELL_SERIAL_TOKEN);
    assert_string_equal(field(a.root, REDACT_FIELD_SYSTEM_UUID), DELL_UUID_TOKEN);
    /* one machine, two runs, one key: one token */
    assert_string_equal(field(b.root, REDACT_FIELD_SYSTEM_SERIAL), DELL_SERIAL_TOKEN);
    assert_string_equal(field(b.root, REDACT_FIELD_SYSTEM_UUID), DELL_UUID_TOKEN);
    /* another machine, another key, no key: other tokens */
    assert_string_not_equal(field(c.root, REDACT_FIELD_SYSTEM_SERIAL), DELL_SERIAL_TOKEN);
    assert_string_not_equal(field(other.root, REDACT_FIELD_SYSTEM_SERIAL), DELL_SERIAL_TOKEN);
    assert_string_not_equal(field(other.root, REDACT_FIELD_SYSTEM_UUID), DELL_UUID_TOKEN);
    assert_string_not_equal(field(r1.root, REDACT_FIELD_SYSTEM_SERIAL),
                            field(r2.root, REDACT_FIELD_SYSTEM_SERIAL));
    assert_string_not_equal(field(r1.root, REDACT_FIELD_SYSTEM_SERIAL) +
                                strlen(REDACT_RANDOM_PREFIX),
                            DELL_SERIAL_TOKEN + strlen(REDACT_HMAC_PREFIX));
    doc_free(&d1), doc_free(&d2), doc_free(&x), doc_free(&a), doc_free(&b), doc_free(&c);
    doc_free(&other), doc_free(&r1), doc_free(&r2);
}

/* The copy is the input but for the values and the record line: put them back, get the input. */
static void test_only_the_values_change(void **state)
{
    struct doc d = doc_of_file(DELL1);
    struct redact_result res;
    struct doc out = redacted(&d, FIXTURE_KEY, &res);
    char *text = malloc(out.len + 1), *p;
    const char *rec_start, *rec_end;
    (void)state;
    memcpy(text, out.bytes, out.len);
    text[out.len] = 0;
    /* one line added, before "run", after "simulation" */
    rec_start = strstr(text, "  \"redaction\": ");
    assert_non_null(rec_start);
    assert_true(strstr(text, "\"simulation\": null,\n  \"redaction\"") != NULL);
    rec_end = strchr(rec_start, '\n') + 1;
    assert_true(strncmp(rec_end, "  \"run\": {", 10) == 0);
    memmove((char *)rec_start, rec_end, strlen(rec_end) + 1);
    /* the tokens back to the values */
    p = strstr(text, DELL_SERIAL_TOKEN);
    assert_non_null(p);
    memmove(p + strlen(DELL_SERIAL), p + strlen(DELL_SERIAL_TOKEN),
            strlen(p + strlen(DELL_SERIAL_TOKEN)) + 1);
    memcpy(p, DELL_SERIAL, strlen(DELL_SERIAL));
    p = strstr(text, DELL_UUID_TOKEN);
    assert_non_null(p);
    memmove(p + strlen(DELL_UUID), p + strlen(DELL_UUID_TOKEN),
            strlen(p + strlen(DELL_UUID_TOKEN)) + 1);
    memcpy(p, DELL_UUID, strlen(DELL_UUID));
    assert_int_equal(strlen(text), d.len);
    assert_memory_equal(text, d.bytes, d.len);
    free(text);
    doc_free(&out);
    doc_free(&d);
}

/* Tokens are recognised: a redacted report comes out byte for byte the same. */
static void test_second_redaction_is_a_no_op(void **state)
{
    static const char *const files[] = { DELL1, ROME, EPYC, QEMU };
    static const char *const keys[] = { FIXTURE_KEY, NULL };
    (void)state;
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        struct doc d = doc_of_file(files[f]);
        for (size_t k = 0; k < 2; k++) {
            struct doc once = redacted(&d, keys[k], NULL);
            /* again with the same key, another key, and no key */
            for (size_t k2 = 0; k2 < 3; k2++) {
                static const char *const again[] = { FIXTURE_KEY, "another key", NULL };
                struct redact_result res;
                struct doc twice = redacted(&once, again[k2], &res);
                assert_false(res.changed);
                assert_int_equal(res.replaced, 0);
                assert_int_equal(twice.len, once.len);
                assert_memory_equal(twice.bytes, once.bytes, once.len);
                doc_free(&twice);
            }
            doc_free(&once);
        }
        doc_free(&d);
    }
}

/* QEMU records an empty serial number and no UUID: nothing replaced, the record says so. */
static void test_nothing_to_replace(void **state)
{
    struct doc d = doc_of_file(QEMU);
    struct redact_result res;
    struct doc out = redacted(&d, FIXTURE_KEY, &res);
    const json_t *rec = json_object_get(out.root, "redaction");
    (void)state;
    assert_true(res.changed);
    assert_int_equal(res.replaced, 0);
    assert_int_equal(json_array_size(json_object_get(rec, "fields")), 0);
    assert_string_equal(field(out.root, REDACT_FIELD_SYSTEM_SERIAL), "");
    assert_true(json_is_null(jget_path(out.root, REDACT_FIELD_SYSTEM_UUID)));
    assert_valid(out.root);
    doc_free(&out);
    doc_free(&d);
}

/* What the app writes with redact=on ("by": "tlbscope") is left as it is. */
static void test_app_redacted_report_kept(void **state)
{
    struct doc d = doc_of_file(DELL1), once = redacted(&d, FIXTURE_KEY, NULL), app, again;
    struct redact_result res;
    char *t = malloc(once.len + 1), *by;
    (void)state;
    /* the record as core/report/report_json.c writes it: by "tlbscope" */
    memcpy(t, once.bytes, once.len);
    t[once.len] = 0;
    by = strstr(t, "\"by\": \"tlbscope-report\"");
    assert_non_null(by);
    memmove(by + 15, by + 22, strlen(by + 22) + 1); /* drop "-report" */
    app = doc_of_bytes(t, strlen(t));
    free(t);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(app.root, "redaction"), "by")),
        "tlbscope");
    assert_valid(app.root);
    again = redacted(&app, FIXTURE_KEY, &res);
    assert_false(res.changed);
    assert_int_equal(again.len, app.len);
    assert_memory_equal(again.bytes, app.bytes, app.len);
    doc_free(&again);
    doc_free(&app);
    doc_free(&once);
    doc_free(&d);
}

/* Board and chassis serials and asset tags, should a writer add them, go too. */
static void test_reserved_fields(void **state)
{
    static const char extra[] =
        "\"board\": { \"manufacturer\": \"Dell Inc.\", \"serial\": \"CN7016349K00AB\", "
        "\"asset_tag\": \"LAB-ASSET-4711\", ";
    static const char chassis[] =
        "\"chassis\": { \"serial\": \"CHS-9QX2231\", \"asset_tag\": \"RACK7-U12\" },\n      ";
    static const char *const values[] = { "CN7016349K00AB", "LAB-ASSET-4711", "CHS-9QX2231",
                                          "RACK7-U12", DELL_SERIAL, DELL_UUID };
    struct doc d = doc_of_file(DELL1), grown, out;
    struct redact_result res;
    char *t = malloc(d.len + 400), *board;
    (void)state;
    memcpy(t, d.bytes, d.len);
    t[d.len] = 0;
    static const char was[] = "\"board\": { \"manufacturer\": \"Dell Inc.\", ";
    board = strstr(t, was);
    assert_non_null(board);
    memmove(board + strlen(chassis) + strlen(extra), board + strlen(was),
            strlen(board + strlen(was)) + 1);
    memcpy(board, chassis, strlen(chassis));
    memcpy(board + strlen(chassis), extra, strlen(extra));
    grown = doc_of_bytes(t, strlen(t));
    free(t);
    assert_string_equal(field(grown.root, "firmware.smbios.chassis.asset_tag"), "RACK7-U12");
    out = redacted(&grown, FIXTURE_KEY, &res);
    assert_int_equal(res.replaced, 6);
    assert_int_equal(json_array_size(json_object_get(json_object_get(out.root, "redaction"),
                                                     "fields")),
                     6);
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
        assert_false(contains(out.bytes, out.len, values[i]));
    assert_string_equal(field(out.root, "firmware.smbios.board.product"), "066N7P");
    assert_valid(out.root);
    doc_free(&out);
    doc_free(&grown);
    doc_free(&d);
}

/* Keys written with escapes, and identifying values of the wrong type, do not slip through. */
static void test_escaped_keys_and_odd_values(void **state)
{
    static const char text[] =
        "{\"schema\": \"tlbscope-report\", \"schema_version\": 1, \"run\": {},\n"
        " \"firmware\": {\"smbios\": {\"system\": {\"ser\\u0069al\": \"ESC-SERIAL-77\", "
        "\"uuid\": 123456789}}}}\n";
    struct doc d = doc_of_bytes(text, sizeof(text) - 1), out;
    struct redact_result res;
    (void)state;
    out = redacted(&d, FIXTURE_KEY, &res);
    assert_int_equal(res.replaced, 2);
    assert_false(contains(out.bytes, out.len, "ESC-SERIAL-77"));
    assert_false(contains(out.bytes, out.len, "123456789"));
    assert_int_equal(redact_token_kind(field(out.root, REDACT_FIELD_SYSTEM_SERIAL)),
                     REDACT_TOKEN_HMAC);
    assert_int_equal(redact_token_kind(field(out.root, REDACT_FIELD_SYSTEM_UUID)),
                     REDACT_TOKEN_HMAC);
    /* the record goes before "run", with the whitespace that stood there */
    assert_true(contains(out.bytes, out.len,
                         "\"schema_version\": 1, \"redaction\": { \"redacted\": true"));
    doc_free(&out);
    doc_free(&d);
}

/* A value the firmware repeats elsewhere is left there, and reported with its line. */
static void test_leftover_reported(void **state)
{
    struct doc d = doc_of_file(DELL1), twin, out;
    struct redact_result res;
    char *t = malloc(d.len + 64), *v;
    (void)state;
    memcpy(t, d.bytes, d.len);
    t[d.len] = 0;
    v = strstr(t, "\"version\": \"\", \"serial\"");
    assert_non_null(v);
    memmove(v + 12 + strlen(DELL_SERIAL), v + 12, strlen(v + 12) + 1);
    memcpy(v + 12, DELL_SERIAL, strlen(DELL_SERIAL));
    twin = doc_of_bytes(t, strlen(t));
    free(t);
    assert_string_equal(field(twin.root, "firmware.smbios.system.version"), DELL_SERIAL);
    {
        struct redact_key k = key_of(FIXTURE_KEY);
        assert_true(redact_report(twin.bytes, twin.len, twin.root, &k, &res));
        assert_int_equal(res.nleftovers, 1);
        assert_string_equal(res.leftovers[0].field, REDACT_FIELD_SYSTEM_SERIAL);
        assert_int_equal(res.leftovers[0].line, 53); /* line 52 of the input, the record added */
        redact_result_free(&res);
        redact_key_free(&k);
    }
    out = redacted(&twin, FIXTURE_KEY, NULL);
    assert_string_equal(field(out.root, REDACT_FIELD_SYSTEM_SERIAL), DELL_SERIAL_TOKEN);
    doc_free(&out);
    doc_free(&twin);
    doc_free(&d);
}

/* ---- validate ---- */

static json_t *copy_of(const json_t *root) { return json_deep_copy(root); }

static void expect_error(json_t *root, const char *path, const char *needle)
{
    struct diag_list d;
    assert_true(errors_of(root, &d) > 0);
    if (!diag_has(&d, path, needle)) {
        diag_print(&d, "mutated", stderr);
        fail_msg("no error at %s containing \"%s\"", path, needle);
    }
    /* messages name fields, never their values */
    for (size_t i = 0; i < d.count; i++) {
        assert_null(strstr(d.items[i].text, DELL_SERIAL));
        assert_null(strstr(d.items[i].text, DELL_UUID));
    }
    diag_free(&d);
    json_decref(root);
}

static void test_validate_redaction(void **state)
{
    struct doc d = doc_of_file(DELL1), out = redacted(&d, FIXTURE_KEY, NULL);
    json_t *r, *rec, *sys;
    struct diag_list dl;
    (void)state;
    assert_valid(out.root);
    /* a value left in a report that says it is redacted */
    r = copy_of(out.root);
    sys = (json_t *)jget_path(r, "firmware.smbios.system");
    json_object_set_new(sys, "serial", json_string(DELL_SERIAL));
    expect_error(r, "firmware.smbios.system.serial", "identifies the machine, but the report says "
                                                     "it is redacted");
    /* a token the record does not list */
    r = copy_of(out.root);
    rec = json_object_get(r, "redaction");
    json_array_remove(json_object_get(rec, "fields"), 1);
    expect_error(r, "firmware.smbios.system.uuid", "redaction.fields does not list it");
    /* tokens without a record */
    r = copy_of(out.root);
    json_object_del(r, "redaction");
    expect_error(r, "firmware.smbios.system.serial", "the report has no redaction record");
    /* keyed, but a random token */
    r = copy_of(out.root);
    sys = (json_t *)jget_path(r, "firmware.smbios.system");
    json_object_set_new(sys, "uuid", json_string("redacted:random:0123456789abcdef"));
    expect_error(r, "redaction.fields[1]", "holds a random token, but keyed is true");
    /* listed twice, not a string, redacted false, keyed missing */
    r = copy_of(out.root);
    json_array_append_new(json_object_get(json_object_get(r, "redaction"), "fields"),
                          json_string(REDACT_FIELD_SYSTEM_SERIAL));
    expect_error(r, "redaction.fields[2]", "listed twice");
    r = copy_of(out.root);
    json_array_append_new(json_object_get(json_object_get(r, "redaction"), "fields"),
                          json_integer(3));
    expect_error(r, "redaction.fields[2]", "expected a string");
    r = copy_of(out.root);
    json_object_set_new(json_object_get(r, "redaction"), "redacted", json_false());
    expect_error(r, "redaction.redacted", "is false");
    r = copy_of(out.root);
    json_object_del(json_object_get(r, "redaction"), "keyed");
    expect_error(r, "redaction.keyed", "missing required key");
    /* a field that is not a token, listed */
    r = copy_of(out.root);
    sys = (json_t *)jget_path(r, "firmware.smbios.system");
    json_object_set_new(sys, "serial", json_string("redacted:hmac:XYZ"));
    expect_error(r, "redaction.fields[0]", "does not hold a redaction token");
    /* an unknown path is a warning only */
    r = copy_of(out.root);
    json_array_append_new(json_object_get(json_object_get(r, "redaction"), "fields"),
                          json_string("firmware.smbios.system.mac"));
    assert_int_equal(errors_of(r, &dl), 0);
    assert_true(diag_has(&dl, "redaction.fields[2]", "not an identifying field this tool knows"));
    diag_free(&dl);
    json_decref(r);
    /* the uuid of a full report is still a UUID */
    r = copy_of(d.root);
    json_object_set_new((json_t *)jget_path(r, "firmware.smbios.system"), "uuid",
                        json_string("not-a-uuid"));
    {
        struct diag_list d2;
        assert_true(errors_of(r, &d2) > 0);
        assert_true(diag_has(&d2, "firmware.smbios.system.uuid", "is not a UUID"));
        diag_free(&d2);
        json_decref(r);
    }
    /* run.config's new keys are booleans when present */
    r = copy_of(d.root);
    json_object_set_new((json_t *)jget_path(r, "run.config"), "redact_key",
                        json_string("secret"));
    expect_error(r, "run.config.redact_key", "expected a boolean");
    doc_free(&out);
    doc_free(&d);
}

/* ---- what the outputs leave out ---- */

/*
 * For every identifying value of every fixture: compare (text, Markdown,
 * CSV) and html never print it, whether the reports are full or redacted.
 * New fixtures are picked up from the directories.
 */
static void test_outputs_leave_identifying_fields_out(void **state)
{
    struct file_list files = { 0 }, sims = { 0 };
    struct values vals = { 0 };
    struct m_report *reports[64], *redacted_reports[64];
    size_t n = 0, i, j, v;
    (void)state;
    add_dir(&files, FIXTURES);
    add_dir(&files, IDENTITY);
    add_dir(&sims, FIXTURES "sim/");
    for (i = 0; i < sims.n; i++) {
        json_t *root = fixture_document(sims.paths[i] + strlen(FIXTURES));
        collect_values(root, &vals);
        json_decref(root);
    }
    for (i = 0; i < files.n; i++) {
        struct doc d = doc_of_file(files.paths[i]), red = redacted(&d, FIXTURE_KEY, NULL);
        collect_values(d.root, &vals);
        reports[n] = model_of_doc(json_incref(d.root), files.paths[i], n);
        redacted_reports[n] = model_of_doc(json_incref(red.root), files.paths[i], n);
        n++;
        doc_free(&red);
        doc_free(&d);
    }
    assert_true(n >= 9);
    assert_true(vals.n >= 10); /* 4 machines' serial numbers and UUIDs, one twice */
    for (j = 0; j < 2; j++) {
        struct m_report **set = j ? redacted_reports : reports;
        struct cmp_model m;
        struct print_args pa = { &m, TABLE_TEXT, set, n };
        char *out[4];
        size_t len[4];
        assert_true(compare_build(set, n, &m));
        out[0] = memstream_of(print_compare, &pa, &len[0]);
        pa.fmt = TABLE_MARKDOWN;
        out[1] = memstream_of(print_compare, &pa, &len[1]);
        pa.fmt = TABLE_CSV;
        out[2] = memstream_of(print_compare, &pa, &len[2]);
        out[3] = memstream_of(print_html, &pa, &len[3]);
        for (v = 0; v < vals.n; v++)
            for (i = 0; i < 4; i++)
                if (contains(out[i], len[i], vals.v[v]))
                    fail_msg("%s output (%s reports) prints %s", (const char *[]){ "compare",
                             "compare --markdown", "compare --csv", "html" }[i],
                             j ? "redacted" : "full", vals.v[v]);
        /* and no token either: they are for grouping, not for printing */
        for (i = 0; i < 4; i++)
            assert_false(contains(out[i], len[i], "redacted:hmac:"));
        for (i = 0; i < 4; i++)
            free(out[i]);
        compare_free(&m);
    }
    /* show, on a local terminal, prints them, with the hint */
    for (i = 0; i < n; i++) {
        size_t len;
        char *text = memstream_of(print_show, reports[i], &len);
        if (reports[i]->serial) {
            assert_true(contains(text, len, reports[i]->serial));
            assert_true(contains(text, len, "`tlbscope-report redact` writes a copy without them"));
        }
        if (reports[i]->uuid)
            assert_true(contains(text, len, reports[i]->uuid));
        free(text);
        text = memstream_of(print_show, redacted_reports[i], &len);
        assert_true(contains(text, len, "Identity  redacted: "));
        for (v = 0; v < vals.n; v++)
            assert_false(contains(text, len, vals.v[v]));
        free(text);
    }
    for (i = 0; i < n; i++) {
        model_free(reports[i]);
        model_free(redacted_reports[i]);
    }
    for (v = 0; v < vals.n; v++)
        free(vals.v[v]);
    files_free(&files);
    files_free(&sims);
}

/* ---- compare groups by token ---- */

static void test_compare_groups_by_token(void **state)
{
    struct doc d1 = doc_of_file(DELL1), d2 = doc_of_file(DELL2), x = doc_of_file(X10);
    struct doc rome = doc_of_file(ROME), q = doc_of_file(QEMU);
    struct doc r1 = redacted(&d1, FIXTURE_KEY, NULL), r2 = redacted(&d2, FIXTURE_KEY, NULL);
    struct doc rx = redacted(&x, FIXTURE_KEY, NULL), rr = redacted(&rome, NULL, NULL);
    struct doc r2other = redacted(&d2, "another key", NULL);
    struct m_report *set[5];
    struct cmp_model m;
    struct print_args pa = { &m, TABLE_TEXT, set, 5 };
    char label[8], same[64], *text;
    size_t len;
    (void)state;
    set[0] = model_of_doc(json_incref(r1.root), "dell-1.json", 0);
    set[1] = model_of_doc(json_incref(rx.root), "x10.json", 1);
    set[2] = model_of_doc(json_incref(r2.root), "dell-2.json", 2);
    set[3] = model_of_doc(json_incref(rr.root), "rome.json", 3);
    set[4] = model_of_doc(json_incref(q.root), "qemu.json", 4);
    assert_true(compare_build(set, 5, &m));
    assert_true(m.machine_repeats);
    assert_string_equal(compare_machine_label(&m, 0, label, sizeof(label)), "M1");
    assert_string_equal(compare_machine_label(&m, 1, label, sizeof(label)), "M2");
    assert_string_equal(compare_machine_label(&m, 2, label, sizeof(label)), "M1");
    assert_string_equal(compare_machine_label(&m, 3, label, sizeof(label)), "M3");
    assert_string_equal(compare_machine_label(&m, 4, label, sizeof(label)), "-");
    assert_string_equal(compare_same_machine(&m, 0, same, sizeof(same)), "A, C");
    assert_string_equal(compare_same_machine(&m, 2, same, sizeof(same)), "");
    assert_string_equal(compare_same_machine(&m, 1, same, sizeof(same)), "");
    text = memstream_of(print_compare, &pa, &len);
    assert_true(contains(text, len, "\nSame machine: A, C (same serial number and UUID, or tokens)\n"));
    free(text);
    pa.fmt = TABLE_MARKDOWN;
    text = memstream_of(print_compare, &pa, &len);
    assert_true(contains(text, len, "| A | dell-1.json | M1 |"));
    assert_true(contains(text, len, "| C | dell-2.json | M1 |"));
    assert_true(contains(text, len, "| E | qemu.json | - |"));
    free(text);
    pa.fmt = TABLE_TEXT;
    text = memstream_of(print_html, &pa, &len);
    assert_true(contains(text, len, "<td>M1 (redacted)</td>"));
    free(text);
    compare_free(&m);
    model_free(set[2]);
    /* another key: no longer the same machine as far as anyone can tell */
    set[2] = model_of_doc(json_incref(r2other.root), "dell-2.json", 2);
    assert_true(compare_build(set, 3, &m));
    assert_false(m.machine_repeats);
    assert_string_equal(compare_machine_label(&m, 2, label, sizeof(label)), "M3");
    compare_free(&m);
    for (size_t i = 0; i < 5; i++)
        model_free(set[i]);
    /* full reports of one machine group by their values (never printed) */
    set[0] = model_of_doc(json_incref(d1.root), "dell-1.json", 0);
    set[1] = model_of_doc(json_incref(d2.root), "dell-2.json", 1);
    assert_true(compare_build(set, 2, &m));
    assert_string_equal(compare_same_machine(&m, 0, same, sizeof(same)), "A, B");
    compare_free(&m);
    model_free(set[0]);
    model_free(set[1]);
    doc_free(&d1), doc_free(&d2), doc_free(&x), doc_free(&rome), doc_free(&q);
    doc_free(&r1), doc_free(&r2), doc_free(&rx), doc_free(&rr), doc_free(&r2other);
}

/* ---- the command ---- */

static char tmpdir[64];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/tlbscope-redact-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void put_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static char *read_all(const char *path, size_t *len)
{
    struct load_result lr;
    char *bytes;
    load_file_bytes(path, &lr, &bytes, len);
    if (lr.status != LOAD_OK)
        fail_msg("%s: %s", path, lr.message);
    load_release(&lr);
    return bytes;
}

static int run_redact(const char *in, const char *out_path, const char *key, const char *key_file,
                      char **err_text)
{
    char *outbuf = NULL, *errbuf = NULL;
    size_t outlen = 0, errlen = 0;
    FILE *out = open_memstream(&outbuf, &outlen), *err = open_memstream(&errbuf, &errlen);
    int rc = cmd_redact(in, out_path, key, key_file, out, err);
    fclose(out);
    fclose(err);
    free(outbuf);
    if (err_text)
        *err_text = errbuf;
    else
        free(errbuf);
    return rc;
}

static void test_redacted_name(void **state)
{
    static const char *const cases[][2] = {
        { "a/b/20261203-091500.json", "a/b/20261203-091500.redacted.json" },
        { "report", "report.redacted.json" },
        { "x.redacted.json", "x.redacted.redacted.json" },
        { ".json", ".json.redacted.json" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *n = commands_redacted_name(cases[i][0]);
        assert_string_equal(n, cases[i][1]);
        free(n);
    }
}

static void test_cmd_redact(void **state)
{
    char in[128], out[128], keyfile[128], *err, *a, *b;
    size_t alen, blen, inlen;
    char *orig = read_all(DELL1, &inlen);
    struct doc d;
    (void)state;
    snprintf(in, sizeof(in), "%s/run.json", tmpdir);
    put_file(in, orig, inlen);

    /* the default name, next to the input; the summary names the fields */
    assert_int_equal(run_redact(in, NULL, FIXTURE_KEY, NULL, NULL), EXIT_VALID);
    snprintf(out, sizeof(out), "%s/run.redacted.json", tmpdir);
    a = read_all(out, &alen);
    d = doc_of_bytes(a, alen);
    assert_string_equal(field(d.root, REDACT_FIELD_SYSTEM_SERIAL), DELL_SERIAL_TOKEN);
    doc_free(&d);
    /* never over an existing file: exit 1, the file as it was */
    assert_int_equal(run_redact(in, NULL, "another key", NULL, &err), EXIT_INVALID);
    assert_non_null(strstr(err, "run.redacted.json: exists; not overwritten"));
    free(err);
    b = read_all(out, &blen);
    assert_int_equal(alen, blen);
    assert_memory_equal(a, b, alen);
    free(b);
    /* never over the input, whatever the path says */
    snprintf(out, sizeof(out), "%s/./run.json", tmpdir);
    assert_int_equal(run_redact(in, out, FIXTURE_KEY, NULL, &err), EXIT_INVALID);
    assert_non_null(strstr(err, "is the input report; redact never overwrites it"));
    free(err);
    b = read_all(in, &blen);
    assert_int_equal(blen, inlen);
    assert_memory_equal(b, orig, inlen);
    free(b);

    /* a key file with its final line end gives what --key gives */
    snprintf(keyfile, sizeof(keyfile), "%s/lab.key", tmpdir);
    put_file(keyfile, FIXTURE_KEY "\r\n", strlen(FIXTURE_KEY) + 2);
    snprintf(out, sizeof(out), "%s/from-key-file.json", tmpdir);
    assert_int_equal(run_redact(in, out, NULL, keyfile, NULL), EXIT_VALID);
    b = read_all(out, &blen);
    assert_int_equal(alen, blen);
    assert_memory_equal(a, b, alen);
    free(b);
    free(a);
    /* unreadable, empty, a directory: exit 1, the key file named */
    snprintf(out, sizeof(out), "%s/never.json", tmpdir);
    assert_int_equal(run_redact(in, out, NULL, "/nonexistent/lab.key", &err), EXIT_INVALID);
    assert_non_null(strstr(err, "/nonexistent/lab.key: cannot read the key file"));
    free(err);
    put_file(keyfile, "\n", 1);
    assert_int_equal(run_redact(in, out, NULL, keyfile, &err), EXIT_INVALID);
    assert_non_null(strstr(err, "lab.key: the key file is empty"));
    free(err);
    assert_int_equal(run_redact(in, out, NULL, tmpdir, &err), EXIT_INVALID);
    assert_non_null(strstr(err, "is a directory, not a key file"));
    free(err);
    assert_int_equal(access(out, F_OK), -1);
    /* an input that is not a report: exit 1, nothing written */
    assert_int_equal(run_redact(FIXTURES "broken/truncated.json", out, FIXTURE_KEY, NULL, &err),
                     EXIT_INVALID);
    assert_non_null(strstr(err, "truncated.json: truncated JSON"));
    free(err);
    assert_int_equal(run_redact(FIXTURES "no-such.json", out, FIXTURE_KEY, NULL, &err),
                     EXIT_INVALID);
    assert_non_null(strstr(err, "no-such.json: cannot read"));
    free(err);
    assert_int_equal(access(out, F_OK), -1);
    /* an invalid report is redacted all the same, with a warning */
    assert_int_equal(run_redact(FIXTURES "broken/p50-below-min.json", out, FIXTURE_KEY, NULL, &err),
                     EXIT_VALID);
    assert_non_null(strstr(err, "warning: tests/fixtures/reports/broken/p50-below-min.json: not a "
                                "valid report (1 error); redacting it all the same"));
    free(err);
    /* an unwritable place: exit 1 */
    assert_int_equal(run_redact(in, "/nonexistent/dir/x.json", FIXTURE_KEY, NULL, &err),
                     EXIT_INVALID);
    assert_non_null(strstr(err, "/nonexistent/dir/x.json: cannot write"));
    free(err);
    free(orig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tool_hmac_rfc4231),
        cmocka_unit_test(test_identifying_values_gone),
        cmocka_unit_test(test_same_key_same_token),
        cmocka_unit_test(test_only_the_values_change),
        cmocka_unit_test(test_second_redaction_is_a_no_op),
        cmocka_unit_test(test_nothing_to_replace),
        cmocka_unit_test(test_app_redacted_report_kept),
        cmocka_unit_test(test_reserved_fields),
        cmocka_unit_test(test_escaped_keys_and_odd_values),
        cmocka_unit_test(test_leftover_reported),
        cmocka_unit_test(test_validate_redaction),
        cmocka_unit_test(test_outputs_leave_identifying_fields_out),
        cmocka_unit_test(test_compare_groups_by_token),
        cmocka_unit_test(test_redacted_name),
        cmocka_unit_test(test_cmd_redact),
    };
    return cmocka_run_group_tests_name("report_redact", tests, make_tmpdir, remove_tmpdir);
}
