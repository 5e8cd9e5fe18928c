/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for the tokens that
 * replace identifying fields in redacted reports (core/run/redact.h).
 *
 * Self-contained (no C library, no other core/ file): the UEFI app, the host
 * tests and tlbscope-report (reports/tool/tool.mk) compile this same file, so
 * a token computed at boot and one computed afterwards by the host tool are
 * the same bytes. Checked against the FIPS 180-2 examples and RFC 4231
 * (tests/host/test_redact.c, tests/host/test_report_redact.c).
 */
#ifndef TLBSCOPE_CORE_SHA256_H
#define TLBSCOPE_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32
#define SHA256_BLOCK_LEN 64

struct sha256_ctx {
    uint32_t state[8];
    uint64_t total;               /* bytes hashed so far */
    uint8_t block[SHA256_BLOCK_LEN];
    uint32_t used;                /* bytes waiting in block */
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, uint8_t out[SHA256_DIGEST_LEN]);
void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_LEN]);

/* HMAC-SHA-256: a key longer than a block is hashed first (RFC 2104). */
struct hmac_sha256_ctx {
    struct sha256_ctx inner, outer;
};

void hmac_sha256_init(struct hmac_sha256_ctx *c, const void *key, size_t key_len);
void hmac_sha256_update(struct hmac_sha256_ctx *c, const void *data, size_t len);
void hmac_sha256_final(struct hmac_sha256_ctx *c, uint8_t out[SHA256_DIGEST_LEN]);
void hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
                 uint8_t out[SHA256_DIGEST_LEN]);

#endif
