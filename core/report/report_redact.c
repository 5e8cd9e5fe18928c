/* redact=on in the writers: see report_redact.h. */
#include "core/report/report_redact.h"

#include "core/lib/mem.h"
#include "core/lib/sha256.h"
#include "core/mutant.h"

void redaction_format_uuid(const uint8_t *b, char u[40])
{
    fmt_into(u, 40, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[3],
             b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

const char *redaction_shown_upload_url(const struct config *cfg, const struct upload_outcome *upload,
                                       const struct redaction *red)
{
    if (!cfg->upload[0])
        return NULL;
    if (red->upload_url[0])
        return red->upload_url;
    return upload->url[0] ? upload->url : cfg->upload;
}

/* One identifying field: its token, its place in the record, its value in the pairs. */
static void tokenise(struct redaction *red, const void *key, size_t key_len, const char *path,
                     const char *value, char out[REDACT_TOKEN_CAP])
{
    if (!value[0])
        return;
    redact_token(key, key_len, red->keyed, path, value, str_len(value), out);
    red->fields[red->nfields++] = path;
    if (!MUTANT(free_text_unredacted))
        redact_pairs_add(&red->pairs, key, key_len, red->keyed, path, value, str_len(value));
}

void redaction_prepare_from(const struct redaction_input *in, struct redaction *red)
{
    const struct config *cfg = in->cfg;
    const void *key;
    size_t key_len;
    uint8_t derived[SHA256_DIGEST_LEN];
    mem_zero(red, sizeof(*red));
    if (!cfg->redact)
        return;
    red->on = true;
    red->keyed = cfg->redact_key[0] != 0;
    if (red->keyed) {
        key = cfg->redact_key;
        key_len = str_len(cfg->redact_key);
    } else if (in->random_key) {
        key = in->random_key;
        key_len = REDACT_RANDOM_KEY_LEN;
    } else {
        /* no platform randomness (host builds): the run's own clock readings stand in */
        sha256(in->fallback_seed, in->fallback_seed_len, derived);
        key = derived;
        key_len = sizeof(derived);
    }
    /* in redact_fields order: tlbscope-report redact builds its pairs in the same order */
    if (in->serial)
        tokenise(red, key, key_len, REDACT_FIELD_SYSTEM_SERIAL, in->serial, red->serial);
    if (in->uuid) {
        redaction_format_uuid(in->uuid, red->uuid_text);
        tokenise(red, key, key_len, REDACT_FIELD_SYSTEM_UUID, red->uuid_text, red->uuid);
    }
    if (!MUTANT(network_unredacted)) {
        if (in->mac)
            tokenise(red, key, key_len, REDACT_FIELD_NET_MAC, in->mac, red->mac);
        if (in->ip)
            tokenise(red, key, key_len, REDACT_FIELD_NET_IP, in->ip, red->ip);
        if (in->boot_url)
            tokenise(red, key, key_len, REDACT_FIELD_NET_BOOT_URL, in->boot_url, red->boot_url);
        if (cfg->upload[0] && in->upload_url)
            tokenise(red, key, key_len, REDACT_FIELD_NET_UPLOAD_URL, in->upload_url, red->upload_url);
        tokenise(red, key, key_len, REDACT_FIELD_CFG_UPLOAD, cfg->upload, red->cfg_upload);
    }
    mem_zero(derived, sizeof(derived));
}

void redaction_write_record(struct json_writer *w, const struct redaction *red)
{
    uint32_t i;
    if (!red->on)
        return; /* absent: the report is complete */
    jw_key(w, "redaction");
    jw_object_begin_inline(w);
    jw_kv_bool(w, "redacted", true);
    jw_kv_bool(w, "keyed", red->keyed);
    jw_kv_str(w, "by", "tlbscope");
    jw_key(w, "fields");
    jw_array_begin_inline(w);
    for (i = 0; i < red->nfields; i++)
        jw_str(w, red->fields[i]);
    jw_array_end(w);
    jw_object_end(w);
}

/* `text` with its quoted values as tokens, in a buffer to mem_free; NULL without memory. */
static char *scrubbed(const struct redaction *red, const char *text, size_t len)
{
    size_t need = redact_scrub(&red->pairs, text, len, NULL, 0);
    char *out = mem_alloc(need + 1);
    if (out)
        redact_scrub(&red->pairs, text, len, out, need + 1);
    return out;
}

void redaction_write_text(struct json_writer *w, const char *text, const void *ctx)
{
    const struct redaction *red = ctx;
    char *out;
    if (!text || !red || !red->pairs.n) {
        jw_str(w, text);
        return;
    }
    out = scrubbed(red, text, str_len(text));
    /* no memory to redact it: the text is left out rather than written as it is */
    jw_str(w, out ? out : "(left out: no memory to redact it)");
    mem_free(out);
}

void redaction_scrub_buffer(const struct redaction *red, struct strbuf *sb, size_t start)
{
    char *out;
    if (!red->pairs.n || start >= sb->len)
        return;
    out = scrubbed(red, sb->data + start, sb->len - start);
    sb->len = start;
    sb->data[start] = 0;
    sb_puts(sb, out ? out : "(the rest of this summary is left out: no memory to redact it)\n");
    mem_free(out);
}
