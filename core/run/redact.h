/*
 * Redaction of the identifying fields of a report: the values that name one
 * physical machine (serial numbers, the system UUID) are replaced by tokens,
 * so a report can be shared without them (reports/SCHEMA.md, "Identifying
 * fields" and "redaction").
 *
 *   keyed:   "redacted:hmac:" + 16 hex digits of
 *            HMAC-SHA-256(key, "tlbscope-redact-v1" NUL path NUL value)
 *            The same machine gives the same token under the same key, in
 *            every report, whether the app wrote it (redact=on redact_key=K)
 *            or `tlbscope-report redact --key K` redacted a full report later.
 *   random:  "redacted:random:" + 16 hex digits, the same HMAC under a key
 *            of 32 random bytes drawn for one report and then forgotten.
 *
 * This file and core/lib/sha256.c are shared with tlbscope-report
 * (reports/tool/tool.mk): both sides compute tokens with the same code.
 * Self-contained: no C library and no other core/ file.
 */
#ifndef TLBSCOPE_CORE_REDACT_H
#define TLBSCOPE_CORE_REDACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REDACT_HMAC_PREFIX "redacted:hmac:"
#define REDACT_RANDOM_PREFIX "redacted:random:"
#define REDACT_TOKEN_DIGITS 16 /* hex digits: the first 64 bits of the HMAC */
#define REDACT_TOKEN_CAP 40    /* the longest token (32 characters) and its NUL, rounded up */
#define REDACT_RANDOM_KEY_LEN 32
/* Domain separation: a token is never an HMAC that something else computes. */
#define REDACT_CONTEXT "tlbscope-redact-v1"

enum redact_kind { REDACT_NOT_TOKEN = 0, REDACT_TOKEN_HMAC, REDACT_TOKEN_RANDOM };

/*
 * The identifying fields, as JSON paths through objects (NULL-terminated).
 * The first ones are what core/report/report_json.c writes; the others are names
 * reserved for identifiers SMBIOS has (board and chassis serial numbers,
 * asset tags) should a later writer add them: redaction replaces them
 * wherever they appear. REDACT_WRITTEN_FIELDS counts the first group.
 */
extern const char *const redact_fields[];
#define REDACT_FIELD_SYSTEM_SERIAL "firmware.smbios.system.serial"
#define REDACT_FIELD_SYSTEM_UUID "firmware.smbios.system.uuid"
#define REDACT_FIELD_NET_MAC "run.network.mac"
#define REDACT_FIELD_NET_IP "run.network.ip"
#define REDACT_FIELD_NET_BOOT_URL "run.network.boot_url"
/* issue 35: where the reports went names the lab's collector (and with it the lab) */
#define REDACT_FIELD_NET_UPLOAD_URL "run.network.upload_url"
#define REDACT_FIELD_CFG_UPLOAD "run.config.upload"
#define REDACT_WRITTEN_FIELDS 7
/*
 * The host part of a URL field, wherever free text quotes it (a failed fetch's
 * warning names the boot server's URL of tlbscope.cfg, not the boot URL): one
 * token per host, whichever URL it came from.
 */
#define REDACT_HOST_PATH "url.host"

/*
 * Whether `path` is one of the network addresses or URLs: identifying, so
 * redacted, but not the machine's identity (a DHCP lease changes, the machine
 * does not): tlbscope-report groups runs by the other fields alone.
 */
bool redact_field_is_address(const char *path);
/* Whether `path` holds a URL (boot, upload): its host gets a token of its own, too. */
bool redact_field_is_url(const char *path);
/* The host of `url` (len bytes): after "scheme://" and any "user@", up to ':', '/' or the end. */
bool redact_url_host(const char *url, size_t len, size_t *start, size_t *host_len);

/*
 * The free-text fields ("[]": every element of an array) that may quote an
 * identifying value: where a value the report tokenised in its own field
 * stands, its token replaces it too (the app and tlbscope-report redact alike).
 */
extern const char *const redact_text_fields[];

/* An identifying value and its token, for redact_scrub(). */
#define REDACT_MAX_PAIRS 24
struct redact_pairs {
    size_t n;
    struct {
        const char *value; /* not copied: it must outlive the pairs */
        size_t len;
        char token[REDACT_TOKEN_CAP];
    } item[REDACT_MAX_PAIRS];
};

/*
 * Adds the value of identifying field `path` with its token and, for a URL
 * field, its host with the host's token (a value already there is not added
 * again). Called in redact_fields order, it gives both sides the same pairs.
 */
void redact_pairs_add(struct redact_pairs *p, const void *key, size_t key_len, bool keyed,
                      const char *path, const char *value, size_t value_len);

/*
 * `text` (len bytes) into out (cap bytes, NUL-terminated, cut when too
 * small), each value of `p` that stands alone (not inside a longer name of
 * letters, digits, '_', '-' or dotted parts) replaced by its token: longer
 * values first, values under 4 characters never (they stand in many words).
 * Returns the length of the whole result, which may exceed cap - 1.
 */
size_t redact_scrub(const struct redact_pairs *p, const char *text, size_t len, char *out,
                    size_t cap);

/* The position of `path` in redact_fields, or -1. */
int redact_field_index(const char *path);

/*
 * The token for `value` (value_len bytes) of field `path`, in `out`
 * (NUL-terminated). `keyed` only picks the prefix: a random token is the
 * HMAC under a random key.
 */
void redact_token(const void *key, size_t key_len, bool keyed, const char *path,
                  const char *value, size_t value_len, char out[REDACT_TOKEN_CAP]);

/* Whether `s` is a token: one of the prefixes, then exactly 16 lower-case hex digits. */
enum redact_kind redact_token_kind(const char *s);

#endif
