/* Redaction tokens: HMAC-SHA-256 of an identifying value, shared by the app and tlbscope-report. */
#include "core/run/redact.h"
#include "core/lib/sha256.h"

const char *const redact_fields[] = {
    REDACT_FIELD_SYSTEM_SERIAL,
    REDACT_FIELD_SYSTEM_UUID,
    REDACT_FIELD_NET_MAC,
    REDACT_FIELD_NET_IP,
    REDACT_FIELD_NET_BOOT_URL,
    REDACT_FIELD_NET_UPLOAD_URL,
    REDACT_FIELD_CFG_UPLOAD,
    /* reserved: not written by core/report/report_json.c */
    "firmware.smbios.board.serial",
    "firmware.smbios.board.asset_tag",
    "firmware.smbios.chassis.serial",
    "firmware.smbios.chassis.asset_tag",
    NULL,
};

static size_t text_len(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

static bool text_eq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

const char *const redact_text_fields[] = {
    "run.args",
    "run.warnings.[].message",
    "run.errors.[].message",
    "experiments.[].reason",
    "experiments.[].notes.[]",
    NULL,
};

static bool starts_with(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return false;
    return true;
}

bool redact_field_is_address(const char *path)
{
    return starts_with(path, "run.network.") || text_eq(path, REDACT_FIELD_CFG_UPLOAD);
}

bool redact_field_is_url(const char *path)
{
    return text_eq(path, REDACT_FIELD_NET_BOOT_URL) || text_eq(path, REDACT_FIELD_NET_UPLOAD_URL) ||
           text_eq(path, REDACT_FIELD_CFG_UPLOAD);
}

bool redact_url_host(const char *url, size_t len, size_t *start, size_t *host_len)
{
    size_t i = 0, s, e;
    while (i + 2 < len && !(url[i] == ':' && url[i + 1] == '/' && url[i + 2] == '/'))
        i++;
    if (i + 2 >= len)
        return false;
    s = i + 3;
    for (e = s; e < len && url[e] != '/'; e++)
        if (url[e] == '@') /* user information comes before the host */
            s = e + 1;
    if (s < len && url[s] == '[') { /* an IPv6 literal, brackets and all */
        for (e = s; e < len && url[e] != ']' && url[e] != '/'; e++)
            ;
        e += e < len && url[e] == ']';
    } else {
        for (e = s; e < len && url[e] != ':' && url[e] != '/' && url[e] != '?' && url[e] != '#'; e++)
            ;
    }
    *start = s;
    *host_len = e - s;
    return e > s;
}

static bool same_bytes(const char *a, const char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static void pair_add(struct redact_pairs *p, const void *key, size_t key_len, bool keyed,
                     const char *path, const char *value, size_t len)
{
    size_t i;
    for (i = 0; i < p->n; i++)
        if (p->item[i].len == len && same_bytes(p->item[i].value, value, len))
            return; /* the first field with this value gives its token */
    if (p->n >= REDACT_MAX_PAIRS || !len)
        return;
    p->item[p->n].value = value;
    p->item[p->n].len = len;
    redact_token(key, key_len, keyed, path, value, len, p->item[p->n].token);
    p->n++;
}

void redact_pairs_add(struct redact_pairs *p, const void *key, size_t key_len, bool keyed,
                      const char *path, const char *value, size_t value_len)
{
    size_t start, host_len;
    pair_add(p, key, key_len, keyed, path, value, value_len);
    if (redact_field_is_url(path) && redact_url_host(value, value_len, &start, &host_len))
        pair_add(p, key, key_len, keyed, REDACT_HOST_PATH, value + start, host_len);
}

static bool is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_word(char c) { return is_alnum(c) || c == '_' || c == '-'; }

/* The value at text[at] (n bytes) is not a piece of a longer name: "10.0.2.2" in "10.0.2.25". */
static bool stands_alone(const char *text, size_t len, size_t at, size_t n)
{
    size_t end = at + n;
    if (at > 0 && (is_word(text[at - 1]) ||
                   (text[at - 1] == '.' && at > 1 && is_alnum(text[at - 2]))))
        return false;
    if (end < len && (is_word(text[end]) ||
                      (text[end] == '.' && end + 1 < len && is_alnum(text[end + 1]))))
        return false;
    return true;
}

size_t redact_scrub(const struct redact_pairs *p, const char *text, size_t len, char *out,
                    size_t cap)
{
    size_t order[REDACT_MAX_PAIRS], n = 0, i, j, pos = 0, used = 0;
    /* longest first, then in the order added: the same choice on both sides */
    for (i = 0; i < p->n; i++) {
        if (p->item[i].len < 4)
            continue;
        for (j = n; j > 0 && p->item[order[j - 1]].len < p->item[i].len; j--)
            order[j] = order[j - 1];
        order[j] = i;
        n++;
    }
    while (pos < len) {
        const char *put = text + pos;
        size_t put_len = 1, skip = 1;
        for (i = 0; i < n; i++) {
            size_t vl = p->item[order[i]].len;
            if (vl <= len - pos && same_bytes(text + pos, p->item[order[i]].value, vl) &&
                stands_alone(text, len, pos, vl)) {
                put = p->item[order[i]].token;
                put_len = text_len(put);
                skip = vl;
                break;
            }
        }
        for (j = 0; j < put_len; j++, used++)
            if (used + 1 < cap)
                out[used] = put[j];
        pos += skip;
    }
    if (cap)
        out[used < cap ? used : cap - 1] = 0;
    return used;
}

int redact_field_index(const char *path)
{
    int i;
    for (i = 0; path && redact_fields[i]; i++)
        if (text_eq(redact_fields[i], path))
            return i;
    return -1;
}

void redact_token(const void *key, size_t key_len, bool keyed, const char *path,
                  const char *value, size_t value_len, char out[REDACT_TOKEN_CAP])
{
    static const char hex[] = "0123456789abcdef";
    const char *prefix = keyed ? REDACT_HMAC_PREFIX : REDACT_RANDOM_PREFIX;
    struct hmac_sha256_ctx c;
    uint8_t mac[SHA256_DIGEST_LEN];
    const uint8_t nul = 0;
    size_t n = 0, i;
    hmac_sha256_init(&c, key, key_len);
    hmac_sha256_update(&c, REDACT_CONTEXT, sizeof(REDACT_CONTEXT) - 1);
    hmac_sha256_update(&c, &nul, 1);
    hmac_sha256_update(&c, path, text_len(path));
    hmac_sha256_update(&c, &nul, 1);
    hmac_sha256_update(&c, value, value_len);
    hmac_sha256_final(&c, mac);
    while (*prefix)
        out[n++] = *prefix++;
    for (i = 0; i < REDACT_TOKEN_DIGITS / 2; i++) {
        out[n++] = hex[mac[i] >> 4];
        out[n++] = hex[mac[i] & 15];
    }
    out[n] = 0;
}

static bool has_prefix(const char *s, const char *prefix, const char **rest)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return false;
    *rest = s;
    return true;
}

enum redact_kind redact_token_kind(const char *s)
{
    enum redact_kind kind;
    const char *digits;
    size_t i;
    if (!s)
        return REDACT_NOT_TOKEN;
    if (has_prefix(s, REDACT_HMAC_PREFIX, &digits))
        kind = REDACT_TOKEN_HMAC;
    else if (has_prefix(s, REDACT_RANDOM_PREFIX, &digits))
        kind = REDACT_TOKEN_RANDOM;
    else
        return REDACT_NOT_TOKEN;
    for (i = 0; i < REDACT_TOKEN_DIGITS; i++)
        if (!((digits[i] >= '0' && digits[i] <= '9') || (digits[i] >= 'a' && digits[i] <= 'f')))
            return REDACT_NOT_TOKEN;
    return digits[REDACT_TOKEN_DIGITS] ? REDACT_NOT_TOKEN : kind;
}
