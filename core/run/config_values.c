/*
 * One configuration value into its field (core/run/config_keys.h): a parser
 * per key type, each returning false with a short expectation text.
 */
#include "core/run/config_keys.h"
#include "core/machine/emulate_mask.h"
#include "asm/fault.h"
#include "core/lib/mem.h"
#include "core/run/upload.h"

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
unsigned config_edit_distance(const char *a, const char *b)
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

void config_describe_expected(const struct key_spec *k, struct strbuf *sb)
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

bool config_apply_value(struct config *cfg, const struct key_spec *k, const char *value,
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
    case K_SHA256: {
        size_t n = str_len(value), i;
        char *out = base + k->offset;
        for (i = 0; i < n && n == k->max; i++) {
            char c = value[i];
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
                break;
        }
        if (n != k->max || i != n) {
            sb_printf(why, "expected %u hexadecimal digits (sha256sum tlbscope.cfg)", k->max);
            return false;
        }
        for (i = 0; i < n; i++)
            out[i] = value[i] >= 'A' && value[i] <= 'F' ? (char)(value[i] + ('a' - 'A')) : value[i];
        out[n] = 0;
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
    config_describe_expected(k, why);
    return false;
}
