#include "core/run/config_keys.h"
#include "core/machine/emulate_mask.h"
#include "asm/fault.h"
#include "core/lib/json.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"
#include "core/run/upload.h"

struct parse_state {
    struct config *cfg;
    const char *source;
    enum config_origin origin;
    struct msg_list *msgs;
    uint32_t first_line[CONFIG_MAX_KEYS];
    bool quiet;     /* the line names redact_key: no message repeats its text */
    bool malformed; /* ... and something on it was not key=value of a known key */
};

/* The unknown key's message: the closest name of the table, if any is close. */
static void unknown_key(struct parse_state *ps, const char *where, const char *token)
{
    unsigned best = config_key_count, best_dist = 3, i;
    for (i = 0; i < config_key_count; i++) {
        unsigned d = config_edit_distance(token, config_keys[i].name);
        if (d < best_dist) {
            best_dist = d;
            best = i;
        }
    }
    if (best < config_key_count)
        msg_add(ps->msgs, where, "unknown key '%s' (did you mean '%s'?); ignored", token,
                config_keys[best].name);
    else
        msg_add(ps->msgs, where, "unknown key '%s'; ignored", token);
}

static void handle_pair(struct parse_state *ps, uint32_t line, char *token)
{
    char where[MSG_WHERE];
    char why_buf[160];
    struct strbuf why;
    char *eq = token;
    unsigned idx;
    const struct key_spec *k;

    fmt_into(where, sizeof(where), "%s:%u", ps->source, line);
    while (*eq && *eq != '=')
        eq++;
    if (!*eq) {
        if (ps->quiet) /* on redact_key's line: the key is refused, nothing is repeated */
            ps->malformed = true;
        else
            msg_add(ps->msgs, where, "'%s' is not key=value; ignored", token);
        return;
    }
    *eq = 0;
    idx = config_key_index(token);
    if (ps->quiet && idx == config_key_count) {
        ps->malformed = true;
        return;
    }
    if (!*token) {
        msg_add(ps->msgs, where, "'=%s' has no key; ignored", eq + 1);
        return;
    }
    if (idx == config_key_count) {
        unknown_key(ps, where, token);
        return;
    }
    k = &config_keys[idx];
    if (ps->first_line[idx]) {
        msg_add(ps->msgs, where, "duplicate key '%s' (first set on line %u); this value is ignored",
                k->name, ps->first_line[idx]);
        return;
    }
    ps->first_line[idx] = line;
    if (!eq[1]) {
        if (ps->cfg->set_mask & (1ull << idx))
            msg_add(ps->msgs, where, "key '%s' has an empty value; earlier value kept", k->name);
        else
            msg_add(ps->msgs, where, "key '%s' has an empty value; default %s used", k->name,
                    k->default_text);
        return;
    }
    sb_init_fixed(&why, why_buf, sizeof(why_buf));
    if (!config_apply_value(ps->cfg, k, eq + 1, &why)) {
        const char *kept = (ps->cfg->set_mask & (1ull << idx)) ? "earlier value kept"
                                                                : "default used";
        /* a pin that cannot be read must not leave the boot server's file unchecked */
        if (k->type == K_SHA256)
            ps->cfg->config_sha256_bad = true;
        if (k->type == K_SECRET) /* messages go into the report: never the secret */
            msg_add(ps->msgs, where, "bad value for key '%s' (%s; the value is not repeated); %s",
                    k->name, why_buf, kept);
        else if (ps->quiet) /* the reason may quote the value: none of this line is repeated */
            msg_add(ps->msgs, where, "bad value for key '%s' (not repeated: the line names "
                    "redact_key); %s", k->name, kept);
        else
            msg_add(ps->msgs, where, "bad value '%s' for key '%s' (%s); %s", eq + 1, k->name,
                    why_buf, kept);
        return;
    }
    ps->cfg->set_mask |= 1ull << idx;
    ps->cfg->key_origin[idx] = (uint8_t)ps->origin;
    if (k->type == K_SHA256)
        ps->cfg->config_sha256_bad = false;
}

static bool is_text_byte(unsigned char c) { return c == '\t' || (c >= 0x20 && c < 0x7f); }

static void parse_line(struct parse_state *ps, uint32_t line, char *s)
{
    char *p = s;
    size_t start, end;
    /* cut the comment */
    for (; *p; p++) {
        if (*p == '#') {
            *p = 0;
            break;
        }
    }
    ps->quiet = config_find_secret(s, str_len(s), &start, &end);
    ps->malformed = false;
    p = s;
    for (;;) {
        char *tok;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        tok = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = 0;
        handle_pair(ps, line, tok);
    }
    if (ps->malformed && !MUTANT(secret_key_kept)) {
        unsigned idx = config_key_index("redact_key");
        /* whatever part of it was taken, and whatever an earlier source gave: not this key */
        mem_zero(ps->cfg->redact_key, sizeof(ps->cfg->redact_key));
        ps->cfg->set_mask &= ~(1ull << idx);
        ps->cfg->key_origin[idx] = CFG_ORIGIN_NONE;
        fmt_into(ps->cfg->secret_refused_at, sizeof(ps->cfg->secret_refused_at), "%s:%u",
                 ps->source, line);
    }
}

void config_take_errors(const struct config *cfg, struct msg_list *errors)
{
    if (cfg->secret_refused_at[0])
        msg_add(errors, cfg->secret_refused_at,
                "redact_key refused: the line names it but is not key=value pairs of known "
                "keys (a key with a blank, a mistyped '=' or name); its text is not repeated. "
                "Write redact_key=KEY");
}

void config_parse(struct config *cfg, const char *text, size_t len, const char *source,
                  struct msg_list *msgs)
{
    struct parse_state ps;
    size_t pos = 0;
    uint32_t line = 0;
    mem_zero(&ps, sizeof(ps));
    ps.cfg = cfg;
    ps.source = source;
    ps.msgs = msgs;
    ps.origin = str_eq(source, CONFIG_SOURCE_STICK)         ? CFG_ORIGIN_STICK
                : str_eq(source, CONFIG_SOURCE_BOOT_SERVER)  ? CFG_ORIGIN_BOOT_SERVER
                : str_eq(source, CONFIG_SOURCE_LOAD_OPTIONS) ? CFG_ORIGIN_LOAD_OPTIONS
                                                             : CFG_ORIGIN_OTHER;

    /* a UTF-8 byte order mark, as Windows editors write it, is not garbage */
    if (len >= 3 && (unsigned char)text[0] == 0xef && (unsigned char)text[1] == 0xbb &&
        (unsigned char)text[2] == 0xbf)
        pos = 3;

    while (pos < len) {
        char buf[CONFIG_MAX_LINE + 1];
        size_t start = pos, n;
        bool binary = false;
        char where[MSG_WHERE];
        line++;
        while (pos < len && text[pos] != '\n')
            pos++;
        n = pos - start;
        if (pos < len)
            pos++; /* the newline */
        if (n && text[start + n - 1] == '\r')
            n--;
        fmt_into(where, sizeof(where), "%s:%u", source, line);
        if (n > CONFIG_MAX_LINE) {
            msg_add(msgs, where, "line too long (%zu characters, at most %u); line ignored", n,
                    CONFIG_MAX_LINE);
            continue;
        }
        /* after '#' anything but NUL goes (a UTF-8 comment is no reason to complain) */
        for (size_t i = 0; i < n && !binary; i++) {
            unsigned char c = (unsigned char)text[start + i];
            if (c == '#') {
                while (++i < n && !binary)
                    binary = text[start + i] == 0;
                break;
            }
            binary = !is_text_byte(c);
        }
        if (binary) {
            msg_add(msgs, where, "line contains non-text bytes; line ignored");
            continue;
        }
        mem_copy(buf, text + start, n);
        buf[n] = 0;
        parse_line(&ps, line, buf);
    }
}

bool config_injects(const struct config *cfg, enum inject_kind kind)
{
    uint32_t i;
    for (i = 0; i < cfg->inject_count; i++)
        if (cfg->inject[i].kind == kind)
            return true;
    return false;
}

bool config_is_set(const struct config *cfg, const char *key)
{
    unsigned i = config_key_index(key);
    return i < config_key_count && (cfg->set_mask & (1ull << i));
}

bool cpu_list_contains(const struct cpu_list *l, uint32_t cpu)
{
    uint32_t i;
    if (l->all)
        return true;
    for (i = 0; i < l->count; i++)
        if (cpu >= l->ranges[i].first && cpu <= l->ranges[i].last)
            return true;
    return false;
}

void config_check_cpus(struct config *cfg, uint32_t cpu_count, struct msg_list *msgs)
{
    uint32_t i, kept = 0;
    /* the BSP always exists: a count of 0 means the caller knows nothing yet */
    if (cpu_count == 0)
        cpu_count = 1;
    if (cfg->initiator >= cpu_count) {
        msg_add(msgs, "config", "initiator=%u but this machine has CPUs 0-%u; using 0",
                cfg->initiator, cpu_count - 1);
        cfg->initiator = 0;
    }
    if (!cfg->cpus.all) {
        for (i = 0; i < cfg->cpus.count; i++) {
            if (cfg->cpus.ranges[i].first >= cpu_count) {
                msg_add(msgs, "config", "cpus: range %u-%u is beyond the last CPU (%u); ignored",
                        cfg->cpus.ranges[i].first, cfg->cpus.ranges[i].last, cpu_count - 1);
                continue;
            }
            if (cfg->cpus.ranges[i].last >= cpu_count) {
                msg_add(msgs, "config", "cpus: range %u-%u cut at the last CPU (%u)",
                        cfg->cpus.ranges[i].first, cfg->cpus.ranges[i].last, cpu_count - 1);
                cfg->cpus.ranges[i].last = cpu_count - 1;
            }
            cfg->cpus.ranges[kept++] = cfg->cpus.ranges[i];
        }
        cfg->cpus.count = kept;
        if (kept == 0) {
            msg_add(msgs, "config", "cpus: no listed CPU exists; using all");
            cfg->cpus.all = true;
        }
    }
    if (!cpu_list_contains(&cfg->cpus, cfg->initiator)) {
        msg_add(msgs, "config", "initiator=%u is not in cpus; using 0", cfg->initiator);
        cfg->initiator = 0;
    }
    kept = 0;
    for (i = 0; i < cfg->inject_count; i++) {
        if (cfg->inject[i].cpu >= cpu_count) {
            msg_add(msgs, "config", "inject=%s:%u: no CPU %u on this machine (CPUs 0-%u); ignored",
                    inject_kind_name(cfg->inject[i].kind), cfg->inject[i].cpu, cfg->inject[i].cpu,
                    cpu_count - 1);
            continue;
        }
        cfg->inject[kept++] = cfg->inject[i];
    }
    cfg->inject_count = kept;
}

bool config_experiment_selected(const struct config *cfg, const char *id)
{
    uint32_t i;
    if (cfg->experiment_count == 0)
        return true;
    for (i = 0; i < cfg->experiment_count; i++)
        if (str_eq(cfg->experiments[i], id))
            return true;
    return false;
}

uint32_t config_mp_partial(const struct config *cfg)
{
    uint32_t i;
    for (i = 0; i < cfg->inject_count; i++)
        if (cfg->inject[i].kind == INJECT_MP_PARTIAL)
            return cfg->inject[i].count;
    return 0;
}

void config_write_json(const struct config *cfg, struct json_writer *w)
{
    config_write_json_shown(cfg, w, cfg->upload);
}

void config_write_json_shown(const struct config *cfg, struct json_writer *w, const char *upload)
{
    uint32_t i;
    jw_object_begin(w);
    jw_kv_str(w, "exit", exit_mode_name(cfg->exit_mode));
    jw_kv_str(w, "apic", apic_request_name(cfg->apic));
    jw_kv_str(w, "mp", mp_mode_name(cfg->mp_mode));
    jw_kv_str(w, "target_wait", target_wait_name(cfg->target_wait));
    jw_kv_str(w, "profile", profile_name(cfg->profile));
    jw_kv_u64(w, "samples", cfg->samples);
    jw_kv_u64(w, "warmup", cfg->warmup);
    jw_kv_u64(w, "ceiling", cfg->ceiling);
    jw_kv_u64(w, "ipi_pairs", cfg->ipi_pairs);
    jw_kv_u64(w, "timeout_ms", cfg->timeout_ms);
    jw_kv_u64(w, "budget_s", cfg->budget_s);
    jw_kv_u64(w, "run_budget_s", cfg->run_budget_s);
    jw_kv_u64(w, "initiator", cfg->initiator);
    jw_key(w, "order_seed"); /* as given; the seed used is method.order_seed */
    if (config_is_set(cfg, "order_seed"))
        jw_u64(w, cfg->order_seed);
    else
        jw_null(w);
    jw_kv_u64(w, "contention_window_ms", cfg->contention_window_ms);
    jw_kv_bool(w, "progress", cfg->progress);
    jw_kv_bool(w, "console_json", cfg->console_json);
    jw_kv_bool(w, "global_pages", cfg->global_pages);
    jw_kv_bool(w, "pti", cfg->pti);
    jw_kv_bool(w, "redact", cfg->redact);
    jw_kv_bool(w, "redact_key", cfg->redact_key[0] != 0);
    jw_kv_bool(w, "keep_samples", cfg->keep_samples);
    jw_kv_str(w, "upload", upload && upload[0] ? upload : NULL);
    jw_kv_u64(w, "upload_attempts", cfg->upload_attempts);
    jw_kv_u64(w, "upload_deadline_s", cfg->upload_deadline_s);
    jw_kv_str(w, "config_sha256", cfg->config_sha256[0] ? cfg->config_sha256 : NULL);
    jw_key(w, "cpus");
    if (cfg->cpus.all) {
        jw_str(w, "all");
    } else {
        /* "4294967295-4294967295," is 22 characters; a line limit does not bound a list that
         * config_check_cpus() or a caller built */
        char buf[CONFIG_MAX_RANGES * 22 + 1];
        struct strbuf sb;
        sb_init_fixed(&sb, buf, sizeof(buf));
        for (i = 0; i < cfg->cpus.count && i < CONFIG_MAX_RANGES; i++) {
            if (i)
                sb_putc(&sb, ',');
            if (cfg->cpus.ranges[i].first == cfg->cpus.ranges[i].last)
                sb_printf(&sb, "%u", cfg->cpus.ranges[i].first);
            else
                sb_printf(&sb, "%u-%u", cfg->cpus.ranges[i].first, cfg->cpus.ranges[i].last);
        }
        jw_str(w, buf);
    }
    jw_key(w, "experiments");
    jw_array_begin_inline(w);
    for (i = 0; i < cfg->experiment_count; i++)
        jw_str(w, cfg->experiments[i]);
    jw_array_end(w);
    jw_key(w, "emulate");
    jw_array_begin_inline(w);
    if (cfg->emulate & EMULATE_INVLPGB)
        jw_str(w, "invlpgb");
    if (cfg->emulate & EMULATE_INVPCID)
        jw_str(w, "invpcid");
    jw_array_end(w);
    /* the only mark of a run on an emulator CPUID does not show: every view reads it here */
    jw_kv_str(w, "emulator",
              emulator_name(MUTANT(emulator_unrecorded) ? EMULATOR_NONE : cfg->emulator));
    jw_key(w, "inject");
    jw_array_begin_inline(w);
    for (i = 0; i < cfg->inject_count; i++) {
        jw_object_begin_inline(w);
        jw_kv_str(w, "kind", inject_kind_name(cfg->inject[i].kind));
        jw_kv_u64(w, "cpu", cfg->inject[i].cpu);
        if (cfg->inject[i].kind == INJECT_FAULT)
            jw_kv_u64(w, "vector", cfg->inject[i].vector);
        if (cfg->inject[i].kind == INJECT_MP_PARTIAL)
            jw_kv_u64(w, "count", cfg->inject[i].count);
        jw_object_end(w);
    }
    jw_array_end(w);
    jw_object_end(w);
}

const char *config_origin_name(enum config_origin o)
{
    switch (o) {
    case CFG_ORIGIN_STICK:
        return "stick";
    case CFG_ORIGIN_BOOT_SERVER:
        return "boot_server";
    case CFG_ORIGIN_LOAD_OPTIONS:
        return "load_options";
    case CFG_ORIGIN_OTHER:
        return "other";
    case CFG_ORIGIN_NONE:
        break;
    }
    return "default";
}

enum config_origin config_key_origin(const struct config *cfg, const char *key)
{
    unsigned i = config_key_index(key);
    if (i >= config_key_count || !(cfg->set_mask & (1ull << i)))
        return CFG_ORIGIN_NONE;
    return (enum config_origin)cfg->key_origin[i];
}

void config_write_origins(const struct config *cfg, struct json_writer *w)
{
    unsigned i;
    jw_object_begin_inline(w);
    for (i = 0; i < config_key_count; i++)
        if (cfg->set_mask & (1ull << i))
            jw_kv_str(w, config_keys[i].name,
                      config_origin_name((enum config_origin)cfg->key_origin[i]));
    jw_object_end(w);
}
