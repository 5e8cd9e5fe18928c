/*
 * core/run/config.c: defaults, sources and precedence, every key's type and
 * range, and the malformed input a hand-edited tlbscope.cfg or a mistyped
 * shell line produces. Every message must name where it comes from
 * ("tlbscope.cfg:3") and the key it is about.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/run/config.h"
#include "core/machine/emulate.h"
#include "core/lib/json.h"
#include "core/lib/strbuf.h"
#include "tests/host/support_host.h"
#include "tests/host/support_msgs.h"

#define CFG "tlbscope.cfg"
#define CMDLINE "command line"

static void parse(struct config *c, const char *text, const char *src, struct msg_list *m)
{
    config_parse(c, text, strlen(text), src, m);
}

static void reset(struct config *c, struct msg_list *m)
{
    config_defaults(c);
    memset(m, 0, sizeof(*m));
}

/* Asserts a message containing `needle` located at `where`. */
static void expect_msg(const struct msg_list *l, const char *where, const char *needle)
{
    if (!msgs_find(l, where, needle)) {
        msgs_print(l);
        fail_msg("no message at %s containing \"%s\"", where, needle);
    }
}

static void expect_no_msgs(const struct msg_list *l)
{
    if (l->count) {
        msgs_print(l);
        fail_msg("%u unexpected message(s)", l->count);
    }
}

/* ---- defaults and precedence ---- */

static void test_defaults(void **state)
{
    struct config c;
    (void)state;
    memset(&c, 0xa5, sizeof(c)); /* defaults must set everything */
    config_defaults(&c);
    assert_int_equal(c.exit_mode, EXIT_SHELL);
    assert_int_equal(c.apic, APIC_REQ_AUTO);
    assert_int_equal(c.profile, PROFILE_DEFAULT);
    assert_int_equal(c.samples, 1000);
    assert_int_equal(c.warmup, 100);
    assert_int_equal(c.ceiling, 33);
    assert_int_equal(c.ipi_pairs, 256);
    assert_int_equal(c.timeout_ms, 1000);
    assert_int_equal(c.budget_s, 120);
    assert_int_equal(c.run_budget_s, 60); /* the default profile is planned */
    assert_int_equal(c.initiator, 0);
    assert_int_equal(c.emulate, 0);
    assert_int_equal(c.emulator, EMULATOR_NONE);
    assert_true(c.progress);
    assert_false(c.console_json);
    assert_false(c.redact);
    assert_string_equal(c.redact_key, "");
    assert_true(c.cpus.all);
    assert_int_equal(c.cpus.count, 0);
    assert_int_equal(c.experiment_count, 0);
    assert_int_equal(c.inject_count, 0);
    assert_int_equal(c.set_mask, 0);
    assert_true(config_experiment_selected(&c, "anything"));
    assert_true(cpu_list_contains(&c.cpus, 4095));
}

static void test_profiles(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "profile=quick", CMDLINE, &m);
    config_finalize(&c);
    assert_int_equal(c.samples, 100);
    assert_int_equal(c.warmup, 10);
    assert_int_equal(c.ipi_pairs, 64);
    assert_int_equal(c.budget_s, 60);
    assert_int_equal(c.run_budget_s, 30); /* every profile is planned; quick in half the time */
    reset(&c, &m);
    parse(&c, "profile=quick run_budget_s=0", CMDLINE, &m);
    config_finalize(&c);
    assert_int_equal(c.run_budget_s, 0); /* explicit: no planning, the exact grid */
    reset(&c, &m);
    parse(&c, "profile=full samples=50", CMDLINE, &m);
    config_finalize(&c);
    assert_int_equal(c.samples, 50); /* explicit beats the profile */
    assert_int_equal(c.warmup, 1000);
    assert_int_equal(c.ipi_pairs, 4096);
    assert_int_equal(c.budget_s, 1800);
    assert_int_equal(c.run_budget_s, 1800); /* full: half an hour of measuring at most */
    expect_no_msgs(&m);
    assert_string_equal(profile_name(c.profile), "full");
}

static void test_cfg_then_command_line(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "samples=500\nprofile=quick\nceiling=40\n", CFG, &m);
    parse(&c, "samples=700 exit=shutdown", CMDLINE, &m);
    config_finalize(&c);
    expect_no_msgs(&m);
    assert_int_equal(c.samples, 700);    /* the command line wins */
    assert_int_equal(c.ceiling, 40);     /* the file's value stays when not overridden */
    assert_int_equal(c.profile, PROFILE_QUICK);
    assert_int_equal(c.warmup, 10);      /* by the file's profile */
    assert_int_equal(c.exit_mode, EXIT_SHUTDOWN);

    /* a bad value on the command line keeps the file's value, and says so */
    reset(&c, &m);
    parse(&c, "samples=500\n", CFG, &m);
    parse(&c, "samples=5", CMDLINE, &m);
    assert_int_equal(c.samples, 500);
    expect_msg(&m, "command line:1", "bad value '5' for key 'samples' (expected an integer "
                                     "10..1000000); earlier value kept");
    /* an empty value too */
    memset(&m, 0, sizeof(m));
    parse(&c, "samples=", CMDLINE, &m);
    assert_int_equal(c.samples, 500);
    expect_msg(&m, "command line:1", "key 'samples' has an empty value; earlier value kept");
}

/* ---- every key: type and range ---- */

struct uint_key {
    const char *name;
    size_t offset;
    uint32_t min, max;
};

#define UK(n, f, lo, hi) { n, offsetof(struct config, f), lo, hi }
static const struct uint_key uint_keys[] = {
    UK("samples", samples, 10, 1000000),  UK("warmup", warmup, 0, 100000),
    UK("ceiling", ceiling, 1, 4096),      UK("ipi_pairs", ipi_pairs, 1, 1000000),
    UK("timeout_ms", timeout_ms, 1, 600000), UK("budget_s", budget_s, 1, 86400),
    UK("initiator", initiator, 0, 65535), UK("run_budget_s", run_budget_s, 0, 86400),
    UK("contention_window_ms", contention_window_ms, 1, 60000),
};

static uint32_t field_of(const struct config *c, size_t off)
{
    uint32_t v;
    memcpy(&v, (const char *)c + off, sizeof(v));
    return v;
}

static void test_uint_ranges(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(uint_keys) / sizeof(uint_keys[0]); i++) {
        const struct uint_key *k = &uint_keys[i];
        struct config c, d;
        struct msg_list m;
        char text[200], want[160];
        uint32_t def;
        config_defaults(&d);
        def = field_of(&d, k->offset);

        /* both bounds are accepted */
        reset(&c, &m);
        snprintf(text, sizeof(text), "%s=%u\n", k->name, k->min);
        parse(&c, text, CFG, &m);
        expect_no_msgs(&m);
        assert_int_equal(field_of(&c, k->offset), k->min);
        reset(&c, &m);
        snprintf(text, sizeof(text), "%s=%u", k->name, k->max);
        parse(&c, text, CFG, &m);
        expect_no_msgs(&m);
        assert_int_equal(field_of(&c, k->offset), k->max);
        /* hexadecimal, either case */
        reset(&c, &m);
        snprintf(text, sizeof(text), "%s=0X%X", k->name, k->max);
        parse(&c, text, CFG, &m);
        expect_no_msgs(&m);
        assert_int_equal(field_of(&c, k->offset), k->max);
        reset(&c, &m);
        snprintf(text, sizeof(text), "%s=0x%x", k->name, k->min);
        parse(&c, text, CFG, &m);
        assert_int_equal(field_of(&c, k->offset), k->min);

        /* one past either bound is refused, the default stays, the message says where */
        snprintf(want, sizeof(want), "for key '%s' (expected an integer %u..%u); default used",
                 k->name, k->min, k->max);
        reset(&c, &m);
        snprintf(text, sizeof(text), "# line 1\n\n%s=%u\n", k->name, k->max + 1);
        parse(&c, text, CFG, &m);
        expect_msg(&m, CFG ":3", want);
        assert_int_equal(field_of(&c, k->offset), def);
        if (k->min > 0) {
            reset(&c, &m);
            snprintf(text, sizeof(text), "%s=%u", k->name, k->min - 1);
            parse(&c, text, CFG, &m);
            expect_msg(&m, CFG ":1", want);
            assert_int_equal(field_of(&c, k->offset), def);
        }
        /* not a number at all, a negative one, an overflowing one, a bare 0x */
        static const char *const bad[] = { "ten", "-1", "1e3", "18446744073709551616", "0x",
                                           "0x1g", "+5", " " };
        for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
            reset(&c, &m);
            snprintf(text, sizeof(text), "%s=%s", k->name, bad[b]);
            parse(&c, text, CFG, &m);
            assert_int_equal(m.count, 1);
            assert_int_equal(field_of(&c, k->offset), def);
            assert_non_null(strstr(m.items[0].text, k->name));
        }
    }
}

static void test_enums_and_bools(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "exit=shutdown apic=x2apic profile=full", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.exit_mode, EXIT_SHUTDOWN);
    assert_int_equal(c.apic, APIC_REQ_X2APIC);
    assert_int_equal(c.profile, PROFILE_FULL);
    assert_string_equal(exit_mode_name(c.exit_mode), "shutdown");
    assert_string_equal(apic_request_name(c.apic), "x2apic");
    reset(&c, &m);
    parse(&c, "exit=shell apic=xapic profile=default", CMDLINE, &m);
    assert_int_equal(c.apic, APIC_REQ_XAPIC);
    assert_int_equal(c.exit_mode, EXIT_SHELL);
    reset(&c, &m);
    parse(&c, "exit=reboot\napic=X2APIC\nprofile=fast", CFG, &m);
    expect_msg(&m, CFG ":1", "bad value 'reboot' for key 'exit' (expected shell|shutdown|reset)");
    expect_msg(&m, CFG ":2", "bad value 'X2APIC' for key 'apic' (expected auto|xapic|x2apic)");
    expect_msg(&m, CFG ":3", "for key 'profile' (expected default|quick|full)");
    assert_int_equal(c.apic, APIC_REQ_AUTO);

    static const char *const yes[] = { "on", "yes", "true", "1" };
    static const char *const no[] = { "off", "no", "false", "0" };
    for (int i = 0; i < 4; i++) {
        char text[64];
        reset(&c, &m);
        snprintf(text, sizeof(text), "progress=%s console_json=%s", no[i], yes[i]);
        parse(&c, text, CMDLINE, &m);
        expect_no_msgs(&m);
        assert_false(c.progress);
        assert_true(c.console_json);
    }
    reset(&c, &m);
    parse(&c, "progress=maybe console_json=ON", CMDLINE, &m);
    expect_msg(&m, CMDLINE ":1", "bad value 'maybe' for key 'progress' (expected on|off)");
    expect_msg(&m, CMDLINE ":1", "bad value 'ON' for key 'console_json'");
    assert_true(c.progress);
}

/*
 * redact and redact_key: a key of 1 to 128 characters; no message ever
 * repeats it (messages go into the report), and run.config says only
 * whether one was given.
 */
static void test_redact_keys(void **state)
{
    struct config c;
    struct msg_list m;
    struct strbuf sb;
    struct json_writer w;
    char text[400], key[200];
    json_t *root;
    json_error_t err;
    (void)state;
    reset(&c, &m);
    parse(&c, "redact=on redact_key=lab-Key_2026!", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_true(c.redact);
    assert_string_equal(c.redact_key, "lab-Key_2026!");
    assert_true(config_is_set(&c, "redact_key"));

    /* the file's key, then the command line's */
    reset(&c, &m);
    parse(&c, "redact=on\nredact_key=from-the-file # a comment\n", CFG, &m);
    parse(&c, "redact_key=typed-at-the-shell", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_string_equal(c.redact_key, "typed-at-the-shell");

    /* 128 characters fit, 129 do not: the message names the key, never the value */
    memset(key, 'k', 128);
    key[128] = 0;
    reset(&c, &m);
    snprintf(text, sizeof(text), "redact_key=%s", key);
    parse(&c, text, CFG, &m);
    expect_no_msgs(&m);
    assert_int_equal(strlen(c.redact_key), 128);
    memset(key, 0, sizeof(key));
    memset(key, 'z', 129);
    reset(&c, &m);
    snprintf(text, sizeof(text), "redact=on redact_key=%s", key);
    parse(&c, text, CFG, &m);
    expect_msg(&m, CFG ":1", "bad value for key 'redact_key' (129 characters, expected 1..128; "
                             "the value is not repeated); default used");
    assert_null(msgs_find(&m, NULL, "zzzz"));
    assert_string_equal(c.redact_key, "");
    reset(&c, &m);
    parse(&c, "redact_key=", CMDLINE, &m);
    expect_msg(&m, CMDLINE ":1", "key 'redact_key' has an empty value; default none used");
    reset(&c, &m);
    parse(&c, "redact=maybe", CMDLINE, &m);
    expect_msg(&m, CMDLINE ":1", "bad value 'maybe' for key 'redact' (expected on|off)");
    /* a misspelt name is refused as the key (tests/host/test_config_secret.c), never echoed */
    reset(&c, &m);
    parse(&c, "redact_kye=secret-value", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_string_equal(c.secret_refused_at, CMDLINE ":1");

    /* run.config: booleans, the key nowhere */
    reset(&c, &m);
    parse(&c, "redact=on redact_key=do-not-write-me", CMDLINE, &m);
    assert_true(sb_init_dynamic(&sb, 64));
    jw_init(&w, &sb);
    config_write_json(&c, &w);
    assert_true(jw_finish(&w));
    assert_null(strstr(sb.data, "do-not-write-me"));
    root = json_loads(sb.data, 0, &err);
    assert_non_null(root);
    assert_true(json_is_true(json_object_get(root, "redact")));
    assert_true(json_is_true(json_object_get(root, "redact_key")));
    json_decref(root);
    sb_release(&sb);
    reset(&c, &m);
    assert_true(sb_init_dynamic(&sb, 64));
    jw_init(&w, &sb);
    config_write_json(&c, &w);
    assert_true(jw_finish(&w));
    root = json_loads(sb.data, 0, &err);
    assert_true(json_is_false(json_object_get(root, "redact")));
    assert_true(json_is_false(json_object_get(root, "redact_key")));
    json_decref(root);
    sb_release(&sb);
}

/* ---- malformed lines ---- */

static void test_unknown_key(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "sampels=20\ntimeout=5\nzzzzzzzz=1\nSAMPLES=3\n", CFG, &m);
    expect_msg(&m, CFG ":1", "unknown key 'sampels' (did you mean 'samples'?); ignored");
    expect_msg(&m, CFG ":2", "unknown key 'timeout'");
    expect_msg(&m, CFG ":3", "unknown key 'zzzzzzzz'; ignored");
    assert_null(msgs_find(&m, NULL, "'zzzzzzzz' (did you mean"));
    expect_msg(&m, CFG ":4", "unknown key 'SAMPLES'");
    assert_int_equal(c.samples, 1000);
    /* a very long key gets no suggestion and no trouble */
    reset(&c, &m);
    parse(&c, "samplessamplessamplessamplessamplessamples=1", CFG, &m);
    assert_int_equal(m.count, 1);
}

static void test_duplicates(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "samples=20\nwarmup=1 samples=30\n", CFG, &m);
    assert_int_equal(c.samples, 20);
    assert_int_equal(c.warmup, 1);
    expect_msg(&m, CFG ":2", "duplicate key 'samples' (first set on line 1); this value is ignored");
    /* the same key in two sources is not a duplicate */
    memset(&m, 0, sizeof(m));
    parse(&c, "samples=40", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.samples, 40);
}

static void test_line_limits(void **state)
{
    struct config c;
    struct msg_list m;
    char text[600];
    (void)state;
    /* exactly CONFIG_MAX_LINE characters: accepted (a long comment after a pair) */
    reset(&c, &m);
    memset(text, 0, sizeof(text));
    strcpy(text, "samples=77 #");
    memset(text + strlen(text), 'x', CONFIG_MAX_LINE - strlen(text));
    assert_int_equal(strlen(text), CONFIG_MAX_LINE);
    parse(&c, text, CFG, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.samples, 77);
    /* one more: refused whole, with the line number */
    reset(&c, &m);
    snprintf(text, sizeof(text), "warmup=5\n");
    memset(text + 9, 'y', CONFIG_MAX_LINE + 1);
    text[9 + CONFIG_MAX_LINE + 1] = 0;
    memcpy(text + 9, "samples=88 #", 12);
    strcat(text, "\nceiling=9\n");
    parse(&c, text, CFG, &m);
    expect_msg(&m, CFG ":2", "line too long (257 characters, at most 256); line ignored");
    assert_int_equal(c.samples, 1000);
    assert_int_equal(c.warmup, 5);
    assert_int_equal(c.ceiling, 9); /* the line after it is read */
    assert_int_equal(m.count, 1);
    /* the same at the very end of the text, without a newline */
    reset(&c, &m);
    memset(text, 'z', 400);
    text[400] = 0;
    parse(&c, text, CMDLINE, &m);
    expect_msg(&m, CMDLINE ":1", "line too long (400 characters");
}

static void test_binary_garbage(void **state)
{
    static const char bin[] = "samples=20\n\x01\x02\x03samples=30\nwarmup=7\xff\n\x7f\nceiling=5\n"
                              "budget_s=9\0 ipi_pairs=3\n";
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    config_parse(&c, bin, sizeof(bin) - 1, CFG, &m);
    expect_msg(&m, CFG ":2", "line contains non-text bytes; line ignored");
    expect_msg(&m, CFG ":3", "non-text bytes");
    expect_msg(&m, CFG ":4", "non-text bytes");
    expect_msg(&m, CFG ":6", "non-text bytes"); /* a NUL in the line */
    assert_int_equal(m.count, 4);
    assert_int_equal(c.samples, 20);
    assert_int_equal(c.warmup, 100);
    assert_int_equal(c.ceiling, 5);
    assert_int_equal(c.budget_s, 120);
    assert_int_equal(c.ipi_pairs, 256);
    /* random bytes of every value: never a crash, values stay in range */
    for (unsigned seed = 1; seed < 200; seed++) {
        char buf[512];
        unsigned x = seed;
        for (size_t i = 0; i < sizeof(buf); i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (char)(x >> 16);
        }
        reset(&c, &m);
        config_parse(&c, buf, sizeof(buf), CFG, &m);
        config_finalize(&c);
        assert_true(c.samples >= 10 && c.samples <= 1000000);
    }
}

static void test_pair_shapes(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "samples\n=20\nwarmup=\nceiling = 9\n", CFG, &m);
    expect_msg(&m, CFG ":1", "'samples' is not key=value; ignored");
    expect_msg(&m, CFG ":2", "'=20' has no key; ignored");
    expect_msg(&m, CFG ":3", "key 'warmup' has an empty value; default by profile (100) used");
    expect_msg(&m, CFG ":4", "'ceiling' is not key=value");
    expect_msg(&m, CFG ":4", "'=' has no key");
    expect_msg(&m, CFG ":4", "'9' is not key=value");
    assert_int_equal(c.samples, 1000);
    assert_int_equal(c.warmup, 100);
    assert_int_equal(c.ceiling, 33);
    /* '=' inside the value belongs to the value */
    reset(&c, &m);
    parse(&c, "experiments=a=b", CMDLINE, &m);
    expect_msg(&m, CMDLINE ":1", "bad value 'a=b' for key 'experiments' ('a=b' is not an "
                                 "experiment id)");
    /* several pairs per line, tabs and spaces */
    reset(&c, &m);
    parse(&c, "  samples=20\twarmup=5   ceiling=10  ", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.samples + c.warmup + c.ceiling, 35);
}

static void test_crlf_bom_comments(void **state)
{
    static const char text[] = "\xef\xbb\xbf# tlbscope.cfg written on Windows\r\n"
                               "samples=20\r\n"
                               "\r\n"
                               "   # indented comment\r\n"
                               "warmup=5 # trailing comment\r\n"
                               "ceiling=10#glued comment\r\n"
                               "# caf\xc3\xa9: UTF-8 in a comment is fine\r\n"
                               "exit=shutdown";
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, text, CFG, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.samples, 20);
    assert_int_equal(c.warmup, 5);
    assert_int_equal(c.ceiling, 10);
    assert_int_equal(c.exit_mode, EXIT_SHUTDOWN);
    /* a BOM not at the start is garbage */
    reset(&c, &m);
    parse(&c, "samples=20\n\xef\xbb\xbfwarmup=5\n", CFG, &m);
    expect_msg(&m, CFG ":2", "non-text bytes");
    /* UTF-8 in a value is not */
    reset(&c, &m);
    parse(&c, "experiments=caf\xc3\xa9\n", CFG, &m);
    expect_msg(&m, CFG ":1", "non-text bytes");
    /* empty text, only newlines, only a BOM */
    reset(&c, &m);
    config_parse(&c, "", 0, CFG, &m);
    parse(&c, "\n\n\r\n", CFG, &m);
    parse(&c, "\xef\xbb\xbf", CFG, &m);
    expect_no_msgs(&m);
}

/* ---- list-valued keys ---- */

static void test_cpus(void **state)
{
    struct config c;
    struct msg_list m;
    char text[300];
    (void)state;
    reset(&c, &m);
    parse(&c, "cpus=0-3,8,0x10-0x11", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_false(c.cpus.all);
    assert_int_equal(c.cpus.count, 3);
    assert_true(cpu_list_contains(&c.cpus, 0));
    assert_true(cpu_list_contains(&c.cpus, 3));
    assert_false(cpu_list_contains(&c.cpus, 4));
    assert_true(cpu_list_contains(&c.cpus, 8));
    assert_true(cpu_list_contains(&c.cpus, 17));
    assert_false(cpu_list_contains(&c.cpus, 18));
    /* exactly CONFIG_MAX_RANGES ranges, then one more */
    reset(&c, &m);
    strcpy(text, "cpus=");
    for (int i = 0; i < CONFIG_MAX_RANGES; i++)
        sprintf(text + strlen(text), "%s%d", i ? "," : "", i * 2);
    parse(&c, text, CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.cpus.count, CONFIG_MAX_RANGES);
    reset(&c, &m);
    strcat(text, ",99");
    parse(&c, text, CFG, &m);
    expect_msg(&m, CFG ":1", "for key 'cpus' (at most 16 ranges); default used");
    assert_true(c.cpus.all);
    /* reversed, malformed, too large */
    reset(&c, &m);
    parse(&c, "cpus=5-3\n", CFG, &m);
    expect_msg(&m, CFG ":1", "bad value '5-3' for key 'cpus' (a range must go from low to high)");
    assert_true(c.cpus.all);
    reset(&c, &m);
    parse(&c, "cpus=1-2-3\ncpus=x\n", CFG, &m);
    expect_msg(&m, CFG ":1", "(ranges look like 0-3)");
    reset(&c, &m);
    parse(&c, "cpus=-4", CFG, &m);
    expect_msg(&m, CFG ":1", "(ranges look like 0-3)");
    reset(&c, &m);
    parse(&c, "cpus=0,,3", CFG, &m);
    expect_msg(&m, CFG ":1", "('' is not a CPU index)");
    reset(&c, &m);
    parse(&c, "cpus=4294967296", CFG, &m);
    expect_msg(&m, CFG ":1", "(4294967296 is beyond the largest CPU index 4294967295)");
    reset(&c, &m);
    parse(&c, "cpus=0-4294967295", CFG, &m);
    expect_no_msgs(&m);
    assert_true(cpu_list_contains(&c.cpus, 0xffffffffu));
    /* "all" after a list, in a later source */
    parse(&c, "cpus=all", CMDLINE, &m);
    assert_true(c.cpus.all);
}

static void test_experiments(void **state)
{
    struct config c;
    struct msg_list m;
    char text[400];
    (void)state;
    reset(&c, &m);
    parse(&c, "experiments=ipi_roundtrip,shootdown_seq_vs_conc", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.experiment_count, 2);
    assert_true(config_experiment_selected(&c, "ipi_roundtrip"));
    assert_true(config_experiment_selected(&c, "shootdown_seq_vs_conc"));
    assert_false(config_experiment_selected(&c, "invlpgb_range"));
    reset(&c, &m);
    parse(&c, "experiments=Bad-Name", CFG, &m);
    expect_msg(&m, CFG ":1", "('Bad-Name' is not an experiment id)");
    assert_int_equal(c.experiment_count, 0);
    /* 31 characters fit CONFIG_NAME_LEN, 32 do not */
    reset(&c, &m);
    parse(&c, "experiments=abcdefghijklmnopqrstuvwxyz01234", CFG, &m);
    expect_no_msgs(&m);
    reset(&c, &m);
    parse(&c, "experiments=abcdefghijklmnopqrstuvwxyz012345", CFG, &m);
    assert_int_equal(m.count, 1);
    reset(&c, &m);
    strcpy(text, "experiments=");
    for (int i = 0; i < CONFIG_MAX_EXPERIMENTS + 1; i++)
        sprintf(text + strlen(text), "%se%d", i ? "," : "", i);
    parse(&c, text, CFG, &m);
    expect_msg(&m, CFG ":1", "(at most 16 experiment ids)");
    reset(&c, &m);
    parse(&c, "experiments=a,,b", CFG, &m);
    expect_msg(&m, CFG ":1", "('' is not an experiment id)");
    reset(&c, &m);
    parse(&c, "experiments=a\n", CFG, &m);
    parse(&c, "experiments=all", CMDLINE, &m);
    assert_int_equal(c.experiment_count, 0);
}

static void test_emulate(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "emulate=invlpgb", CMDLINE, &m);
    assert_int_equal(c.emulate, EMULATE_INVLPGB);
    parse(&c, "emulate=invpcid,invlpgb", CFG, &m);
    assert_int_equal(c.emulate, EMULATE_INVLPGB | EMULATE_INVPCID);
    parse(&c, "emulate=none", "x", &m);
    assert_int_equal(c.emulate, 0);
    expect_no_msgs(&m);
    parse(&c, "emulate=pcid", CFG, &m);
    expect_msg(&m, CFG ":1", "('pcid' cannot be emulated (invlpgb, invpcid))");
    parse(&c, "emulate=invlpgb,invlpgb,invlpgb,invlpgb,invlpgb", CMDLINE, &m);
    expect_msg(&m, CMDLINE ":1", "for key 'emulate' (too many items)");
    assert_int_equal(c.emulate, 0);
}

/* emulator=: the harness names the emulator CPUID does not show; anything else is refused */
static void test_emulator(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "emulator=bochs", CFG, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.emulator, EMULATOR_BOCHS);
    assert_string_equal(emulator_name(c.emulator), "bochs");
    parse(&c, "emulator=none", CMDLINE, &m);
    assert_int_equal(c.emulator, EMULATOR_NONE);
    assert_string_equal(emulator_name(c.emulator), "none");
    parse(&c, "emulator=qemu", CMDLINE, &m);
    expect_msg(&m, CMDLINE ":1", "emulator");
    expect_msg(&m, CMDLINE ":1", "none|bochs");
    assert_int_equal(c.emulator, EMULATOR_NONE);
}

static void test_inject(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "inject=hang:1,slow:0x2,fault:3:14,fault:4:0", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.inject_count, 4);
    assert_int_equal(c.inject[0].kind, INJECT_HANG);
    assert_int_equal(c.inject[0].cpu, 1);
    assert_int_equal(c.inject[1].kind, INJECT_SLOW);
    assert_int_equal(c.inject[1].cpu, 2);
    assert_int_equal(c.inject[2].kind, INJECT_FAULT);
    assert_int_equal(c.inject[2].vector, 14);
    assert_int_equal(c.inject[3].vector, 0);
    assert_string_equal(inject_kind_name(c.inject[2].kind), "fault");

    /* the BSP may fault (inside an experiment), but not hang or be slow: it runs the tool */
    reset(&c, &m);
    parse(&c, "inject=fault:0:13", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.inject_count, 1);
    assert_int_equal(c.inject[0].kind, INJECT_FAULT);
    assert_int_equal(c.inject[0].cpu, 0);

    /* firmware faults: machine-wide, no CPU */
    reset(&c, &m);
    parse(&c, "inject=no_mp,mp_fail,absent:3", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.inject_count, 3);
    assert_true(config_injects(&c, INJECT_NO_MP));
    assert_true(config_injects(&c, INJECT_MP_FAIL));
    assert_int_equal(c.inject[2].kind, INJECT_ABSENT);
    assert_int_equal(c.inject[2].cpu, 3);
    assert_false(config_injects(&c, INJECT_HANG));

    /* issue 25: MP services that leave the last N APs out; who starts the APs */
    reset(&c, &m);
    parse(&c, "inject=mp_partial:2,absent:3 mp=own exit=reset", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.inject_count, 2);
    assert_int_equal(c.inject[0].kind, INJECT_MP_PARTIAL);
    assert_int_equal(c.inject[0].cpu, 0);
    assert_int_equal(config_mp_partial(&c), 2);
    assert_string_equal(inject_kind_name(c.inject[0].kind), "mp_partial");
    assert_int_equal(c.mp_mode, MP_OWN);
    assert_string_equal(mp_mode_name(c.mp_mode), "own");
    assert_int_equal(c.exit_mode, EXIT_RESET);
    assert_string_equal(exit_mode_name(c.exit_mode), "reset");
    reset(&c, &m);
    parse(&c, "mp=firmware", CMDLINE, &m);
    assert_int_equal(c.mp_mode, MP_FIRMWARE);
    assert_int_equal(config_mp_partial(&c), 0);

    /* a CPU that answers late a few times, then on time (a descheduled vCPU) */
    reset(&c, &m);
    parse(&c, "inject=late:2", CMDLINE, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.inject[0].kind, INJECT_LATE);
    assert_int_equal(c.inject[0].cpu, 2);
    assert_string_equal(inject_kind_name(c.inject[0].kind), "late");

    static const struct {
        const char *value, *why;
    } bad[] = {
        { "hang:0", "CPU 0 is the BSP" },
        { "absent:0", "only fault:0:VECTOR may name the BSP" },
        { "slow:0x0", "CPU 0 is the BSP" },
        { "fault:1:2", "'2' is not a vector the tool can raise" },
        { "fault:1:18", "'18' is not a vector the tool can raise" },
        { "fault:1:8", "'8' is not a vector the tool can raise" }, /* #DF: error code */
        { "fault:1:32", "'32' is not a vector the tool can raise" },
        { "fault:1:x", "'x' is not a vector the tool can raise" },
        { "fault:1", "'fault' is not hang:CPU, slow:CPU, late:CPU, absent:CPU, fault:CPU:VECTOR, no_mp, mp_fail or mp_partial:N" },
        { "mp_partial", "'mp_partial' is not hang:CPU" },
        { "mp_partial:0", "'0' is not a number of APs" },
        { "mp_partial:x", "'x' is not a number of APs" },
        { "no_mp:1", "'no_mp' is not hang:CPU" }, /* machine-wide: no CPU field */
        { "hang:1:2", "'hang' is not hang:CPU" },
        { "hang", "'hang' is not hang:CPU" },
        { "boom:1", "'boom' is not hang:CPU" },
        { "hang:1:2:3:4", "too many ':' fields" },
        { "hang:y", "'y' is not a CPU index" },
        { "hang:4294967296", "'4294967296' is not a CPU index" },
        { "hang:1,slow:2,hang:3,hang:4,hang:5", "at most 4 injections" },
        { "hang:1,", "'' is not hang:CPU" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char text[100];
        reset(&c, &m);
        parse(&c, "inject=slow:7\n", CFG, &m);
        snprintf(text, sizeof(text), "inject=%s", bad[i].value);
        parse(&c, text, CMDLINE, &m);
        expect_msg(&m, CMDLINE ":1", bad[i].why);
        assert_non_null(msgs_find(&m, NULL, "for key 'inject'"));
        /* nothing half-applied: the file's injection stays */
        assert_int_equal(c.inject_count, 1);
        assert_int_equal(c.inject[0].cpu, 7);
    }
    reset(&c, &m);
    parse(&c, "inject=hang:1\n", CFG, &m);
    parse(&c, "inject=none", CMDLINE, &m);
    assert_int_equal(c.inject_count, 0);
}

/* ---- against the real CPU count ---- */

static void test_check_cpus(void **state)
{
    struct config c;
    struct msg_list m;
    (void)state;
    reset(&c, &m);
    parse(&c, "initiator=9 cpus=2-5,6-20,30-40 inject=hang:3,slow:8,fault:12:6", CMDLINE, &m);
    expect_no_msgs(&m);
    config_check_cpus(&c, 8, &m);
    expect_msg(&m, "config", "initiator=9 but this machine has CPUs 0-7; using 0");
    expect_msg(&m, "config", "cpus: range 6-20 cut at the last CPU (7)");
    expect_msg(&m, "config", "cpus: range 30-40 is beyond the last CPU (7); ignored");
    expect_msg(&m, "config", "inject=slow:8: no CPU 8 on this machine (CPUs 0-7); ignored");
    expect_msg(&m, "config", "inject=fault:12: no CPU 12");
    assert_int_equal(c.initiator, 0);
    assert_int_equal(c.cpus.count, 2);
    assert_int_equal(c.cpus.ranges[1].last, 7);
    assert_int_equal(c.inject_count, 1);
    assert_int_equal(c.inject[0].cpu, 3);

    /* no listed CPU exists: all of them */
    reset(&c, &m);
    parse(&c, "cpus=10-12", CMDLINE, &m);
    config_check_cpus(&c, 8, &m);
    expect_msg(&m, "config", "cpus: no listed CPU exists; using all");
    assert_true(c.cpus.all);

    /* an initiator outside cpus */
    reset(&c, &m);
    parse(&c, "cpus=0-3 initiator=5", CMDLINE, &m);
    config_check_cpus(&c, 8, &m);
    expect_msg(&m, "config", "initiator=5 is not in cpus; using 0");
    assert_int_equal(c.initiator, 0);

    /* everything fits: nothing said */
    reset(&c, &m);
    parse(&c, "cpus=0-7 initiator=7 inject=hang:7", CMDLINE, &m);
    config_check_cpus(&c, 8, &m);
    expect_no_msgs(&m);
    assert_int_equal(c.initiator, 7);
    assert_int_equal(c.inject_count, 1);

    /* a single-CPU machine, and a CPU count of 0 (no crash, no wrap-around in messages) */
    reset(&c, &m);
    parse(&c, "initiator=1 inject=hang:1", CMDLINE, &m);
    config_check_cpus(&c, 1, &m);
    expect_msg(&m, "config", "initiator=1 but this machine has CPUs 0-0; using 0");
    reset(&c, &m);
    parse(&c, "initiator=1 cpus=0-3 inject=hang:1", CMDLINE, &m);
    config_check_cpus(&c, 0, &m);
    assert_null(msgs_find(&m, NULL, "4294967295"));
    assert_int_equal(c.initiator, 0);
    assert_int_equal(c.inject_count, 0);
}

/* ---- output ---- */

static void test_json_and_help(void **state)
{
    struct config c;
    struct msg_list m;
    struct strbuf sb;
    struct json_writer w;
    json_t *root;
    json_error_t err;
    (void)state;
    reset(&c, &m);
    parse(&c, "cpus=0-3,4294967295 experiments=a,b emulate=invlpgb,invpcid "
              "inject=hang:1,fault:2:13 exit=shutdown emulator=bochs",
          CMDLINE, &m);
    expect_no_msgs(&m);
    assert_true(sb_init_dynamic(&sb, 64));
    jw_init(&w, &sb);
    config_write_json(&c, &w);
    assert_true(jw_finish(&w));
    root = json_loads(sb.data, 0, &err);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "cpus")), "0-3,4294967295");
    assert_string_equal(json_string_value(json_object_get(root, "exit")), "shutdown");
    assert_int_equal(json_array_size(json_object_get(root, "experiments")), 2);
    assert_int_equal(json_array_size(json_object_get(root, "emulate")), 2);
    assert_string_equal(json_string_value(json_object_get(root, "emulator")), "bochs");
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(json_object_get(root, "inject"), 1), "vector")),
                     13);
    json_decref(root);
    sb_release(&sb);

    /* 16 ranges of the largest numbers still come out whole */
    memset(&c.cpus, 0, sizeof(c.cpus));
    c.cpus.count = CONFIG_MAX_RANGES;
    for (int i = 0; i < CONFIG_MAX_RANGES; i++) {
        c.cpus.ranges[i].first = 4000000000u + (uint32_t)i;
        c.cpus.ranges[i].last = 4100000000u + (uint32_t)i;
    }
    assert_true(sb_init_dynamic(&sb, 64));
    jw_init(&w, &sb);
    config_write_json(&c, &w);
    assert_true(jw_finish(&w));
    root = json_loads(sb.data, 0, &err);
    assert_non_null(root);
    assert_non_null(strstr(json_string_value(json_object_get(root, "cpus")),
                           ",4000000015-4100000015"));
    json_decref(root);
    sb_release(&sb);

    assert_true(sb_init_dynamic(&sb, 64));
    config_write_help(&sb);
    static const char *const keys[] = { "exit",      "apic",     "profile",   "samples",
                                        "warmup",    "ceiling",  "ipi_pairs", "timeout_ms",
                                        "budget_s",  "initiator", "progress", "console_json",
                                        "cpus",      "experiments", "emulate", "inject",
                                        "redact",    "redact_key", "emulator" };
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        char want[40];
        snprintf(want, sizeof(want), "  %s ", keys[i]);
        assert_non_null(strstr(sb.data, want));
    }
    assert_non_null(strstr(sb.data, "  redact_key    text of 1..128 characters, no spaces (default "
                                    "none)"));
    sb_release(&sb);
}

/* More problems than the message list holds: counted, not lost silently, no overflow. */
static void test_many_messages(void **state)
{
    struct config c;
    struct msg_list m;
    char text[4096] = "";
    (void)state;
    reset(&c, &m);
    for (int i = 0; i < MSG_MAX + 10; i++)
        strcat(text, "bogus=1\n");
    parse(&c, text, CFG, &m);
    assert_int_equal(m.count, MSG_MAX);
    assert_int_equal(m.dropped, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_cfg_then_command_line),
        cmocka_unit_test(test_uint_ranges),
        cmocka_unit_test(test_enums_and_bools),
        cmocka_unit_test(test_redact_keys),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_line_limits),
        cmocka_unit_test(test_binary_garbage),
        cmocka_unit_test(test_pair_shapes),
        cmocka_unit_test(test_crlf_bom_comments),
        cmocka_unit_test(test_cpus),
        cmocka_unit_test(test_experiments),
        cmocka_unit_test(test_emulate),
        cmocka_unit_test(test_emulator),
        cmocka_unit_test(test_inject),
        cmocka_unit_test(test_check_cpus),
        cmocka_unit_test(test_json_and_help),
        cmocka_unit_test(test_many_messages),
    };
    host_init();
    return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
