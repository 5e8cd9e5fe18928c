/* Redaction tokens: HMAC-SHA-256 of an identifying value, shared by the app and tlbscope-report. */
#include "core/run/redact.h"
#include "core/lib/sha256.h"

const char *const redact_fields[] = {
    REDACT_FIELD_SYSTEM_SERIAL,
    REDACT_FIELD_SYSTEM_UUID,
    REDACT_FIELD_NET_MAC,
    REDACT_FIELD_NET_IP,
    REDACT_FIELD_NET_BOOT_URL,
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

bool redact_field_is_address(const char *path)
{
    static const char prefix[] = "run.network.";
    size_t i;
    for (i = 0; prefix[i]; i++)
        if (path[i] != prefix[i])
            return false;
    return true;
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
