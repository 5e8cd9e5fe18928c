#include "core/run/config.h"
#include "core/machine/emulate.h"
#include "asm/fault.h"
#include "core/lib/json.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"
#include "core/run/upload.h"

/* K_SECRET: text that messages never repeat (redact_key) */
/* K_URL: an http:// or https:// URL (core/run/upload.h) of at most `max` characters */
enum key_type { K_ENUM, K_UINT, K_BOOL, K_CPULIST, K_NAMELIST, K_EMULATE, K_INJECT, K_SECRET,
                K_URL };

struct key_spec {
    const char *name;
    enum key_type type;
    uint32_t min, max;           /* K_UINT */
    const char *const *choices;  /* K_ENUM, NULL-terminated */
    size_t offset;               /* K_ENUM, K_UINT, K_BOOL */
    const char *default_text;
    const char *help;
};

static const char *const exit_choices[] = { "shell", "shutdown", "reset", NULL };
static const char *const mp_choices[] = { "auto", "firmware", "own", NULL };
static const char *const apic_choices[] = { "auto", "xapic", "x2apic", NULL };
static const char *const profile_choices[] = { "default", "quick", "full", NULL };
static const char *const target_wait_choices[] = { "auto", "spin", "halt", NULL };
static const char *const emulator_choices[] = { "none", "bochs", NULL };

#define OFF(field) offsetof(struct config, field)

/* Profile defaults for samples/warmup/budget live in config_finalize(). */
static const struct key_spec keys[] = {
    { "exit", K_ENUM, 0, 0, exit_choices, OFF(exit_mode), "shell",
      "after the run: return to the UEFI shell, power the machine off, or reset it; CPUs "
      "started by the tool's own INIT-SIPI cannot be handed back, so shell then resets" },
    { "mp", K_ENUM, 0, 0, mp_choices, OFF(mp_mode), "auto",
      "who starts the APs: firmware (MP services only), own (the tool's INIT-SIPI from the "
      "MADT), auto (MP services, then INIT-SIPI for the APs they did not deliver)" },
    { "target_wait", K_ENUM, 0, 0, target_wait_choices, OFF(target_wait), "auto",
      "how waiting CPUs wait: spin (busy, like CPUs running the mm), halt; auto = spin on "
      "hardware, halt under a hypervisor" },
    { "apic", K_ENUM, 0, 0, apic_choices, OFF(apic), "auto",
      "APIC mode for the measurements (auto: x2APIC when the CPU has it, as Linux; restored at exit)" },
    { "profile", K_ENUM, 0, 0, profile_choices, OFF(profile), "default",
      "sample counts and budgets: quick (tests), default, full" },
    { "samples", K_UINT, 10, 1000000, NULL, OFF(samples), "by profile (1000)",
      "samples per parameter point, after warm-up" },
    { "warmup", K_UINT, 0, 100000, NULL, OFF(warmup), "by profile (100)",
      "unrecorded iterations before each parameter point" },
    { "ceiling", K_UINT, 1, 4096, NULL, OFF(ceiling), "33",
      "pages flushed one by one before a full flush (Linux tlb_single_page_flush_ceiling)" },
    { "ipi_pairs", K_UINT, 1, 1000000, NULL, OFF(ipi_pairs), "by profile (256)",
      "IPI round-trip pairs measured exhaustively before sampling by topology class" },
    { "timeout_ms", K_UINT, 1, 600000, NULL, OFF(timeout_ms), "1000 (x5 under a hypervisor)",
      "deadline for one CPU to answer one request" },
    { "budget_s", K_UINT, 1, 86400, NULL, OFF(budget_s), "by profile (120)",
      "time budget of one experiment; it is aborted as ERROR when exceeded" },
    { "run_budget_s", K_UINT, 0, 86400, NULL, OFF(run_budget_s), "by profile (60; quick 30, full 1800)",
      "seconds of measuring for the whole run: each experiment times a few warm-up iterations "
      "and cuts samples (to 50 at least), then target or page counts, to fit its share; 0: no "
      "planning, every experiment as configured" },
    { "contention_window_ms", K_UINT, 1, 60000, NULL, OFF(contention_window_ms),
      "from the plan (100 unplanned)",
      "shootdown_contention's steady-state window: each initiator shoots down in a loop, with no "
      "check, for this long (will-it-scale tlb_flush2); by default the plan sets it from the "
      "experiment's share" },
    { "initiator", K_UINT, 0, 65535, NULL, OFF(initiator), "0",
      "dense CPU index that initiates shootdowns" },
    { "order_seed", K_UINT, 0, 4294967295u, NULL, OFF(order_seed), "the run's own (printed)",
      "seed of the random order in which each iteration runs its variants (seq/conc, INVLPG or "
      "full flush, INVLPGB or IPIs) and of the bootstrap intervals; give a report's "
      "method.order_seed to measure in the same order again" },
    { "progress", K_BOOL, 0, 0, NULL, OFF(progress), "on", "print progress while measuring" },
    { "console_json", K_BOOL, 0, 0, NULL, OFF(console_json), "off",
      "also print the JSON report on the console between markers" },
    { "global_pages", K_BOOL, 0, 0, NULL, OFF(global_pages), "off",
      "map the test pages global, as kernel mappings are without PTI (flush_tlb_kernel_range): "
      "INVLPG must drop global entries, full flushes are global; pti, lazy and INVLPGB "
      "experiments (user mappings) are skipped" },
    { "pti", K_BOOL, 0, 0, NULL, OFF(pti), "off",
      "invlpgb_range: invalidate the user PCID too, as Linux does under page-table isolation "
      "(needs PCID; pti_double_invalidation measures both anyway)" },
    { "redact", K_BOOL, 0, 0, NULL, OFF(redact), "off",
      "write the report with its identifying fields (system serial number, UUID) replaced by "
      "tokens, for sticks that travel; tokens are keyed by redact_key, else random per report" },
    { "redact_key", K_SECRET, 1, CONFIG_REDACT_KEY_MAX, NULL, OFF(redact_key), "none",
      "with redact=on: the HMAC-SHA-256 key of the tokens, so the same machine gets the same "
      "token in every report (as tlbscope-report redact --key); never written to the report" },
    { "upload", K_URL, 1, CONFIG_URL_MAX, NULL, OFF(upload), "none",
      "after the run, HTTP PUT the JSON and text reports to URL/<report name>.json and .txt with "
      "the firmware's HTTP protocol (a WebDAV server: reports/collector/); the reports still go to "
      "the boot volume and the console" },
    { "upload_attempts", K_UINT, 1, 20, NULL, OFF(upload_attempts), "5",
      "upload: attempts per file, waiting 1 s, 2 s, 4 s ... (at most 16 s) between them" },
    { "upload_deadline_s", K_UINT, 1, 3600, NULL, OFF(upload_deadline_s), "60",
      "upload: no attempt starts after this many seconds from the first" },
    { "cpus", K_CPULIST, 0, 0, NULL, 0, "all",
      "CPUs that take part, e.g. 0-7,16 (CPU 0, the BSP, always does)" },
    { "experiments", K_NAMELIST, 0, 0, NULL, 0, "all",
      "comma-separated experiment ids to run" },
    { "emulate", K_EMULATE, 0, 0, NULL, 0, "none",
      "TEST ONLY: emulate invlpgb,invpcid on #UD; results are labelled emulated" },
    { "emulator", K_ENUM, 0, 0, emulator_choices, OFF(emulator), "none",
      "the machine is this emulator (bochs), which CPUID does not show: the report records it "
      "and every output marks the run emulated (scripts/bochs-run.sh sets it)" },
    { "inject", K_INJECT, 0, 0, NULL, 0, "none",
      "TEST ONLY: hang:CPU, slow:CPU, late:CPU, absent:CPU, fault:CPU:VECTOR (CPU 0: the BSP, inside the first "
      "experiment with busy targets), no_mp, mp_fail, mp_partial:N" },
};

#define KEY_COUNT ARRAY_SIZE(keys)

static unsigned key_index(const char *name)
{
    unsigned i;
    for (i = 0; i < KEY_COUNT; i++)
        if (str_eq(keys[i].name, name))
            return i;
    return KEY_COUNT;
}

void config_defaults(struct config *cfg)
{
    mem_zero(cfg, sizeof(*cfg));
    cfg->exit_mode = EXIT_SHELL;
    cfg->apic = APIC_REQ_AUTO;
    cfg->profile = PROFILE_DEFAULT;
    cfg->ceiling = 33;
    cfg->timeout_ms = 1000;
    cfg->initiator = 0;
    cfg->progress = true;
    cfg->console_json = false;
    cfg->cpus.all = true;
    cfg->upload_attempts = 5;
    cfg->upload_deadline_s = 60;
    config_finalize(cfg);
}

void config_finalize(struct config *cfg)
{
    static const uint32_t samples[] = { 1000, 100, 10000 };
    static const uint32_t warmup[] = { 100, 10, 1000 };
    static const uint32_t pairs[] = { 256, 64, 4096 };
    static const uint32_t budget[] = { 120, 60, 1800 };
    /*
     * Every profile is planned (issue 20): quick in half the default's
     * time, full in half an hour. On a small machine each measures as
     * configured; on a big one or under an emulator it keeps within these
     * (run_budget_s=0: no planning, for exact grids).
     */
    static const uint32_t run_budget[] = { 60, 30, 1800 };
    unsigned p = (unsigned)cfg->profile;
    if (p > 2)
        p = 0;
    if (!(cfg->set_mask & (1ull << key_index("samples"))))
        cfg->samples = samples[p];
    if (!(cfg->set_mask & (1ull << key_index("warmup"))))
        cfg->warmup = warmup[p];
    if (!(cfg->set_mask & (1ull << key_index("ipi_pairs"))))
        cfg->ipi_pairs = pairs[p];
    if (!(cfg->set_mask & (1ull << key_index("budget_s"))))
        cfg->budget_s = budget[p];
    /* the mutant plans only the default profile, as before issue 20 */
    if (!(cfg->set_mask & (1ull << key_index("run_budget_s"))))
        cfg->run_budget_s = MUTANT(profiles_unplanned) && p != PROFILE_DEFAULT ? 0 : run_budget[p];
}

/* ---- value parsers: each returns false with a short expectation text ---- */

static bool parse_uint(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    unsigned base = 10;
    if (!*s)
        return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!*s)
            return false;
    }
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return false;
        if (v > (UINT64_MAX - d) / base)
            return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

static bool parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = { "on", "yes", "true", "1" };
    static const char *const no[] = { "off", "no", "false", "0" };
    unsigned i;
    for (i = 0; i < ARRAY_SIZE(yes); i++) {
        if (str_eq(s, yes[i])) {
            *out = true;
            return true;
        }
        if (str_eq(s, no[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

/* Splits `s` at commas into `parts` (modifies a private copy). */
static unsigned split_commas(char *s, char **parts, unsigned max, bool *overflow)
{
    unsigned n = 0;
    *overflow = false;
    for (;;) {
        char *comma = s;
        while (*comma && *comma != ',')
            comma++;
        if (n == max) {
            *overflow = true;
            return n;
        }
        parts[n++] = s;
        if (!*comma)
            return n;
        *comma = 0;
        s = comma + 1;
    }
}

static bool parse_cpulist(char *s, struct cpu_list *out, struct strbuf *why)
{
    char *parts[CONFIG_MAX_RANGES];
    bool overflow;
    unsigned n, i;
    struct cpu_list l;
    mem_zero(&l, sizeof(l));
    if (str_eq(s, "all")) {
        l.all = true;
        *out = l;
        return true;
    }
    n = split_commas(s, parts, CONFIG_MAX_RANGES, &overflow);
    if (overflow) {
        sb_printf(why, "at most %u ranges", CONFIG_MAX_RANGES);
        return false;
    }
    for (i = 0; i < n; i++) {
        char *dash = parts[i];
        uint64_t lo, hi;
        while (*dash && *dash != '-')
            dash++;
        if (*dash) {
            *dash = 0;
            if (!parse_uint(parts[i], &lo) || !parse_uint(dash + 1, &hi)) {
                sb_puts(why, "ranges look like 0-3");
                return false;
            }
        } else {
            if (!parse_uint(parts[i], &lo)) {
                sb_printf(why, "'%s' is not a CPU index", parts[i]);
                return false;
            }
            hi = lo;
        }
        if (hi > 0xffffffffull) {
            sb_printf(why, "%llu is beyond the largest CPU index 4294967295",
                      (unsigned long long)hi);
            return false;
        }
        if (lo > hi) {
            sb_puts(why, "a range must go from low to high");
            return false;
        }
        l.ranges[l.count].first = (uint32_t)lo;
        l.ranges[l.count].last = (uint32_t)hi;
        l.count++;
    }
    *out = l;
    return true;
}

static bool valid_name(const char *s)
{
    if (!*s || str_len(s) >= CONFIG_NAME_LEN)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

static bool parse_namelist(char *s, struct config *cfg, struct strbuf *why)
{
    char *parts[CONFIG_MAX_EXPERIMENTS];
    bool overflow;
    unsigned n, i;
    if (str_eq(s, "all")) {
        cfg->experiment_count = 0;
        return true;
    }
    n = split_commas(s, parts, CONFIG_MAX_EXPERIMENTS, &overflow);
    if (overflow) {
        sb_printf(why, "at most %u experiment ids", CONFIG_MAX_EXPERIMENTS);
        return false;
    }
    for (i = 0; i < n; i++) {
        if (!valid_name(parts[i])) {
            sb_printf(why, "'%s' is not an experiment id", parts[i]);
            return false;
        }
    }
    for (i = 0; i < n; i++)
        str_copy(cfg->experiments[i], CONFIG_NAME_LEN, parts[i]);
    cfg->experiment_count = n;
    return true;
}

static bool parse_emulate(char *s, uint32_t *out, struct strbuf *why)
{
    char *parts[4];
    bool overflow;
    unsigned n, i;
    uint32_t mask = 0;
    if (str_eq(s, "none")) {
        *out = 0;
        return true;
    }
    n = split_commas(s, parts, ARRAY_SIZE(parts), &overflow);
    for (i = 0; i < n && !overflow; i++) {
        if (str_eq(parts[i], "invlpgb"))
            mask |= EMULATE_INVLPGB;
        else if (str_eq(parts[i], "invpcid"))
            mask |= EMULATE_INVPCID;
        else {
            sb_printf(why, "'%s' cannot be emulated (invlpgb, invpcid)", parts[i]);
            return false;
        }
    }
    if (overflow) {
        sb_puts(why, "too many items");
        return false;
    }
    *out = mask;
    return true;
}

static bool parse_inject(char *s, struct config *cfg, struct strbuf *why)
{
    char *parts[CONFIG_MAX_INJECT];
    bool overflow;
    unsigned n, i;
    struct injection inj[CONFIG_MAX_INJECT];
    if (str_eq(s, "none")) {
        cfg->inject_count = 0;
        return true;
    }
    n = split_commas(s, parts, CONFIG_MAX_INJECT, &overflow);
    if (overflow) {
        sb_printf(why, "at most %u injections", CONFIG_MAX_INJECT);
        return false;
    }
    for (i = 0; i < n; i++) {
        char *field[4];
        unsigned nf = 0;
        char *p = parts[i];
        uint64_t cpu, vec = 0;
        field[nf++] = p;
        for (; *p; p++) {
            if (*p == ':') {
                *p = 0;
                if (nf == ARRAY_SIZE(field)) {
                    sb_puts(why, "too many ':' fields");
                    return false;
                }
                field[nf++] = p + 1;
            }
        }
        mem_zero(&inj[i], sizeof(inj[i]));
        if ((str_eq(field[0], "no_mp") || str_eq(field[0], "mp_fail")) && nf == 1) {
            inj[i].kind = str_eq(field[0], "no_mp") ? INJECT_NO_MP : INJECT_MP_FAIL;
            continue;
        }
        if (str_eq(field[0], "mp_partial") && nf == 2) {
            uint64_t aps;
            if (!parse_uint(field[1], &aps) || aps == 0 || aps >= 4096) {
                sb_printf(why, "'%s' is not a number of APs (1-4095)", field[1]);
                return false;
            }
            inj[i].kind = INJECT_MP_PARTIAL;
            inj[i].count = (uint32_t)aps;
            continue;
        }
        if (str_eq(field[0], "hang") && nf == 2)
            inj[i].kind = INJECT_HANG;
        else if (str_eq(field[0], "slow") && nf == 2)
            inj[i].kind = INJECT_SLOW;
        else if (str_eq(field[0], "late") && nf == 2)
            inj[i].kind = INJECT_LATE;
        else if (str_eq(field[0], "absent") && nf == 2)
            inj[i].kind = INJECT_ABSENT;
        else if (str_eq(field[0], "fault") && nf == 3)
            inj[i].kind = INJECT_FAULT;
        else {
            sb_printf(why, "'%s' is not hang:CPU, slow:CPU, late:CPU, absent:CPU, "
                           "fault:CPU:VECTOR, no_mp, mp_fail or mp_partial:N",
                      field[0]);
            return false;
        }
        if (!parse_uint(field[1], &cpu) || cpu > 0xffffffffull) {
            sb_printf(why, "'%s' is not a CPU index", field[1]);
            return false;
        }
        if (cpu == 0 && inj[i].kind != INJECT_FAULT) {
            sb_puts(why, "CPU 0 is the BSP, which runs the tool; inject into an AP (1 or more); "
                         "only fault:0:VECTOR may name the BSP");
            return false;
        }
        if (inj[i].kind == INJECT_FAULT) {
            if (!parse_uint(field[2], &vec) || vec > 31 || !arch_can_raise((uint32_t)vec)) {
                sb_printf(why, "'%s' is not a vector the tool can raise: 0-31 except NMI (2), "
                               "#MC (18) and vectors with an error code other than #GP (13) "
                               "and #PF (14)",
                          field[2]);
                return false;
            }
        }
        inj[i].cpu = (uint32_t)cpu;
        inj[i].vector = (uint32_t)vec;
    }
    mem_copy(cfg->inject, inj, n * sizeof(inj[0]));
    cfg->inject_count = n;
    return true;
}

/* Damerau-free Levenshtein distance, for "did you mean" on short key names. */
static unsigned edit_distance(const char *a, const char *b)
{
    unsigned row[CONFIG_NAME_LEN + 1];
    size_t la = str_len(a), lb = str_len(b), i, j;
    if (la > CONFIG_NAME_LEN || lb > CONFIG_NAME_LEN)
        return 99;
    for (j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
            unsigned best = MIN(row[j] + 1, row[j - 1] + 1);
            row[j] = MIN(best, diag + cost);
            diag = up;
        }
    }
    return row[lb];
}

static void describe_expected(const struct key_spec *k, struct strbuf *sb)
{
    unsigned i;
    switch (k->type) {
    case K_ENUM:
        for (i = 0; k->choices[i]; i++)
            sb_printf(sb, "%s%s", i ? "|" : "", k->choices[i]);
        break;
    case K_UINT:
        sb_printf(sb, "an integer %u..%u", k->min, k->max);
        break;
    case K_BOOL:
        sb_puts(sb, "on|off");
        break;
    default:
        break;
    }
}

static bool apply_value(struct config *cfg, const struct key_spec *k, const char *value,
                        struct strbuf *why)
{
    char copy[CONFIG_MAX_LINE];
    char *base = (char *)cfg;
    str_copy(copy, sizeof(copy), value);
    switch (k->type) {
    case K_ENUM: {
        unsigned i;
        for (i = 0; k->choices[i]; i++) {
            if (str_eq(value, k->choices[i])) {
                *(int *)(void *)(base + k->offset) = (int)i;
                return true;
            }
        }
        break;
    }
    case K_UINT: {
        uint64_t v;
        if (parse_uint(value, &v) && v >= k->min && v <= k->max) {
            *(uint32_t *)(void *)(base + k->offset) = (uint32_t)v;
            return true;
        }
        break;
    }
    case K_BOOL: {
        bool v;
        if (parse_bool(value, &v)) {
            *(bool *)(void *)(base + k->offset) = v;
            return true;
        }
        break;
    }
    case K_CPULIST:
        return parse_cpulist(copy, &cfg->cpus, why);
    case K_NAMELIST:
        return parse_namelist(copy, cfg, why);
    case K_EMULATE:
        return parse_emulate(copy, &cfg->emulate, why);
    case K_INJECT:
        return parse_inject(copy, cfg, why);
    case K_URL: {
        const char *bad = NULL;
        if (str_len(value) > k->max) {
            sb_printf(why, "longer than %u characters", k->max);
            return false;
        }
        if (!upload_url_valid(value, &bad)) {
            sb_puts(why, bad);
            return false;
        }
        str_copy(base + k->offset, k->max + 1, value);
        return true;
    }
    case K_SECRET: {
        size_t n = str_len(value);
        if (n >= k->min && n <= k->max) {
            str_copy(base + k->offset, k->max + 1, value);
            return true;
        }
        sb_printf(why, "%zu characters, expected %u..%u", n, k->min, k->max);
        return false;
    }
    }
    sb_puts(why, "expected ");
    describe_expected(k, why);
    return false;
}

struct parse_state {
    struct config *cfg;
    const char *source;
    struct msg_list *msgs;
    uint32_t first_line[KEY_COUNT];
};

static void handle_pair(struct parse_state *ps, uint32_t line, char *token)
{
    char where[MSG_WHERE];
    char why_buf[160];
    struct strbuf why;
    char *eq = token;
    unsigned idx, best = KEY_COUNT, best_dist = 3, i;
    const struct key_spec *k;

    fmt_into(where, sizeof(where), "%s:%u", ps->source, line);
    while (*eq && *eq != '=')
        eq++;
    if (!*eq) {
        msg_add(ps->msgs, where, "'%s' is not key=value; ignored", token);
        return;
    }
    *eq = 0;
    if (!*token) {
        msg_add(ps->msgs, where, "'=%s' has no key; ignored", eq + 1);
        return;
    }
    idx = key_index(token);
    if (idx == KEY_COUNT) {
        for (i = 0; i < KEY_COUNT; i++) {
            unsigned d = edit_distance(token, keys[i].name);
            if (d < best_dist) {
                best_dist = d;
                best = i;
            }
        }
        if (best < KEY_COUNT)
            msg_add(ps->msgs, where, "unknown key '%s' (did you mean '%s'?); ignored", token,
                    keys[best].name);
        else
            msg_add(ps->msgs, where, "unknown key '%s'; ignored", token);
        return;
    }
    k = &keys[idx];
    if (ps->first_line[idx]) {
        msg_add(ps->msgs, where, "duplicate key '%s' (first set on line %u); this value is ignored",
                token, ps->first_line[idx]);
        return;
    }
    ps->first_line[idx] = line;
    if (!eq[1]) {
        if (ps->cfg->set_mask & (1ull << idx))
            msg_add(ps->msgs, where, "key '%s' has an empty value; earlier value kept", token);
        else
            msg_add(ps->msgs, where, "key '%s' has an empty value; default %s used", token,
                    k->default_text);
        return;
    }
    sb_init_fixed(&why, why_buf, sizeof(why_buf));
    if (!apply_value(ps->cfg, k, eq + 1, &why)) {
        const char *kept = (ps->cfg->set_mask & (1ull << idx)) ? "earlier value kept"
                                                                : "default used";
        if (k->type == K_SECRET) /* messages go into the report: never the secret */
            msg_add(ps->msgs, where, "bad value for key '%s' (%s; the value is not repeated); %s",
                    token, why_buf, kept);
        else
            msg_add(ps->msgs, where, "bad value '%s' for key '%s' (%s); %s", eq + 1, token,
                    why_buf, kept);
        return;
    }
    ps->cfg->set_mask |= 1ull << idx;
}

static bool is_text_byte(unsigned char c) { return c == '\t' || (c >= 0x20 && c < 0x7f); }

static void parse_line(struct parse_state *ps, uint32_t line, char *s)
{
    char *p = s;
    /* cut the comment */
    for (; *p; p++) {
        if (*p == '#') {
            *p = 0;
            break;
        }
    }
    p = s;
    for (;;) {
        char *tok;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return;
        tok = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = 0;
        handle_pair(ps, line, tok);
    }
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
    unsigned i = key_index(key);
    return i < KEY_COUNT && (cfg->set_mask & (1ull << i));
}

const char *target_wait_name(enum target_wait w)
{
    return (unsigned)w < 3 ? target_wait_choices[w] : "auto";
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

const char *profile_name(enum profile p)
{
    return (unsigned)p < 3 ? profile_choices[p] : "default";
}

const char *exit_mode_name(enum exit_mode m) { return (unsigned)m < 3 ? exit_choices[m] : "shell"; }
const char *mp_mode_name(enum mp_mode m) { return (unsigned)m < 3 ? mp_choices[m] : "auto"; }

uint32_t config_mp_partial(const struct config *cfg)
{
    uint32_t i;
    for (i = 0; i < cfg->inject_count; i++)
        if (cfg->inject[i].kind == INJECT_MP_PARTIAL)
            return cfg->inject[i].count;
    return 0;
}

const char *apic_request_name(enum apic_request a)
{
    return (unsigned)a < 3 ? apic_choices[a] : "auto";
}

const char *emulator_name(enum emulator e)
{
    return (unsigned)e < 2 ? emulator_choices[e] : "none";
}

const char *inject_kind_name(enum inject_kind k)
{
    switch (k) {
    case INJECT_HANG:
        return "hang";
    case INJECT_FAULT:
        return "fault";
    case INJECT_SLOW:
        return "slow";
    case INJECT_LATE:
        return "late";
    case INJECT_ABSENT:
        return "absent";
    case INJECT_NO_MP:
        return "no_mp";
    case INJECT_MP_FAIL:
        return "mp_fail";
    case INJECT_MP_PARTIAL:
        return "mp_partial";
    default:
        return "none";
    }
}

void config_write_json(const struct config *cfg, struct json_writer *w)
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
    jw_key(w, "upload");
    if (cfg->upload[0])
        jw_str(w, cfg->upload);
    else
        jw_null(w);
    jw_kv_u64(w, "upload_attempts", cfg->upload_attempts);
    jw_kv_u64(w, "upload_deadline_s", cfg->upload_deadline_s);
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

/* The values a key takes, as `help` and the stick's tlbscope.cfg list them. */
static void describe_values(const struct key_spec *k, struct strbuf *sb)
{
    if (k->type == K_ENUM || k->type == K_UINT || k->type == K_BOOL)
        describe_expected(k, sb);
    else if (k->type == K_CPULIST)
        sb_puts(sb, "all | list of CPU ranges");
    else if (k->type == K_NAMELIST)
        sb_puts(sb, "all | list of experiment ids");
    else if (k->type == K_EMULATE)
        sb_puts(sb, "none | invlpgb,invpcid");
    else if (k->type == K_SECRET)
        sb_printf(sb, "text of %u..%u characters, no spaces", k->min, k->max);
    else if (k->type == K_URL)
        sb_printf(sb, "http://HOST[:PORT]/PATH (or https://), at most %u characters", k->max);
    else
        sb_puts(sb, "none | list of hang:CPU, slow:CPU, late:CPU, absent:CPU, fault:CPU:VECTOR, no_mp, "
                    "mp_fail, mp_partial:N (comma-separated)");
}

void config_write_help(struct strbuf *sb)
{
    unsigned i;
    for (i = 0; i < KEY_COUNT; i++) {
        sb_printf(sb, "  %-13s ", keys[i].name);
        describe_values(&keys[i], sb);
        sb_printf(sb, " (default %s)\n      %s\n", keys[i].default_text, keys[i].help);
    }
}

void config_write_file(struct strbuf *sb)
{
    unsigned i;
    sb_puts(sb, "# tlbscope configuration, read from \\tlbscope\\tlbscope.cfg on the stick.\n"
                "# One key=value per line, e.g. exit=shutdown; '#' starts a comment. Arguments\n"
                "# typed in the UEFI shell after the program name override these. Unknown keys\n"
                "# or bad values are reported and the default is used. Every key is listed\n"
                "# below, commented out: its values, its default, then what it does (generated\n"
                "# from the key table in core/run/config.c by `make image`; do not edit by hand).\n"
                "# Keys marked TEST ONLY are for the tool's own tests: leave them out on a\n"
                "# machine you measure.\n");
    for (i = 0; i < KEY_COUNT; i++) {
        struct strbuf head;
        char line[256];
        /* "key: values; default D", wrapped like the help when the values are many (inject) */
        sb_init_fixed(&head, line, sizeof(line));
        sb_printf(&head, "%s: ", keys[i].name);
        describe_values(&keys[i], &head);
        sb_puts(sb, "#\n");
        /* "default D" is never split across lines: past 80 columns it gets its own */
        if (head.len + sizeof("# ; default ") - 1 + str_len(keys[i].default_text) <= 80) {
            sb_printf(&head, "; default %s", keys[i].default_text);
            sb_put_wrapped(sb, "# ", "#   ", line, 80);
        } else {
            sb_puts(&head, ";");
            sb_put_wrapped(sb, "# ", "#   ", line, 80);
            sb_printf(sb, "#   default %s\n", keys[i].default_text);
        }
        sb_put_wrapped(sb, "#     ", "#     ", keys[i].help, 80);
    }
}
