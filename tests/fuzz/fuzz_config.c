/*
 * libFuzzer target for the configuration parser (core/run/config.c).
 *
 * Input: the text of tlbscope.cfg, optionally followed by the separator
 * "\n%%\n" and a command line. The CPU count given to config_check_cpus()
 * is the input size modulo 300 (0 included). Whatever the bytes, parsing,
 * finalising, checking against the CPU count and writing the JSON must not
 * crash or read out of bounds (ASan/UBSan), and the result must respect the
 * documented ranges. Each source is copied into a buffer of exactly its
 * length so that a read past it is caught.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/run/config.h"
#include "core/machine/emulate.h"
#include "core/lib/json.h"
#include "core/lib/strbuf.h"
#include "tests/host/support_host.h"

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond))                                                                           \
            __builtin_trap();                                                                  \
    } while (0)

static void parse_copy(struct config *cfg, const uint8_t *p, size_t n, const char *source,
                       struct msg_list *msgs)
{
    char *copy = malloc(n ? n : 1);
    memcpy(copy, p, n);
    config_parse(cfg, copy, n, source, msgs);
    free(copy);
}

static void check_invariants(const struct config *c, uint32_t cpu_count)
{
    uint32_t i, cpus = cpu_count ? cpu_count : 1;
    CHECK((unsigned)c->exit_mode <= EXIT_SHUTDOWN);
    CHECK((unsigned)c->apic <= APIC_REQ_X2APIC);
    CHECK((unsigned)c->profile <= PROFILE_FULL);
    CHECK(c->samples >= 10 && c->samples <= 1000000);
    CHECK(c->warmup <= 100000);
    CHECK(c->ceiling >= 1 && c->ceiling <= 4096);
    CHECK(c->ipi_pairs >= 1 && c->ipi_pairs <= 1000000);
    CHECK(c->timeout_ms >= 1 && c->timeout_ms <= 600000);
    CHECK(c->budget_s >= 1 && c->budget_s <= 86400);
    CHECK(c->initiator < cpus);
    CHECK((c->emulate & ~(EMULATE_INVLPGB | EMULATE_INVPCID)) == 0);
    CHECK(c->cpus.count <= CONFIG_MAX_RANGES);
    CHECK(c->cpus.all || c->cpus.count > 0);
    for (i = 0; !c->cpus.all && i < c->cpus.count; i++)
        CHECK(c->cpus.ranges[i].first <= c->cpus.ranges[i].last &&
              c->cpus.ranges[i].last < cpus);
    CHECK(c->experiment_count <= CONFIG_MAX_EXPERIMENTS);
    for (i = 0; i < c->experiment_count; i++)
        CHECK(memchr(c->experiments[i], 0, CONFIG_NAME_LEN) != NULL && c->experiments[i][0]);
    CHECK(c->inject_count <= CONFIG_MAX_INJECT);
    for (i = 0; i < c->inject_count; i++) {
        /* the BSP (CPU 0) may only be named by fault: (it faults inside an experiment) */
        CHECK(c->inject[i].cpu < cpus);
        CHECK(c->inject[i].cpu > 0 || c->inject[i].kind == INJECT_FAULT ||
              c->inject[i].kind == INJECT_NO_MP || c->inject[i].kind == INJECT_MP_FAIL);
        CHECK(c->inject[i].kind != INJECT_NONE);
        CHECK(c->inject[i].vector < 32 && c->inject[i].vector != 2 && c->inject[i].vector != 18);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool initialised;
    static const char sep[] = "\n%%\n";
    static struct msg_list msgs; /* 16 KB: keep it off the stack */
    struct config cfg;
    struct strbuf sb;
    struct json_writer w;
    const uint8_t *split = NULL;
    uint32_t cpu_count = (uint32_t)(size % 300), i;
    json_t *root;

    if (!initialised) {
        host_init();
        initialised = true;
    }
    for (i = 0; size >= 4 && i + 4 <= size && !split; i++)
        if (memcmp(data + i, sep, 4) == 0)
            split = data + i;

    memset(&msgs, 0, sizeof(msgs));
    config_defaults(&cfg);
    if (split) {
        parse_copy(&cfg, data, (size_t)(split - data), "tlbscope.cfg", &msgs);
        parse_copy(&cfg, split + 4, size - (size_t)(split - data) - 4, "command line", &msgs);
    } else {
        parse_copy(&cfg, data, size, "tlbscope.cfg", &msgs);
    }
    config_finalize(&cfg);
    config_check_cpus(&cfg, cpu_count, &msgs);
    check_invariants(&cfg, cpu_count);

    /* every message is a terminated string */
    CHECK(msgs.count <= MSG_MAX);
    for (i = 0; i < msgs.count; i++) {
        CHECK(memchr(msgs.items[i].where, 0, MSG_WHERE) != NULL);
        CHECK(memchr(msgs.items[i].text, 0, MSG_TEXT) != NULL);
    }

    /* the JSON is complete, ASCII, and parses back */
    CHECK(sb_init_dynamic(&sb, 256));
    jw_init(&w, &sb);
    config_write_json(&cfg, &w);
    CHECK(jw_finish(&w));
    CHECK(!sb.truncated);
    for (i = 0; i < sb.len; i++)
        CHECK((unsigned char)sb.data[i] < 0x80);
    root = json_loads(sb.data, 0, NULL);
    CHECK(root != NULL);
    CHECK(json_is_object(root));
    json_decref(root);
    sb_release(&sb);
    return 0;
}
