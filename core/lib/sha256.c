/* SHA-256 (FIPS 180-4, section 6.2) and HMAC-SHA-256 (RFC 2104). No C library. */
#include "core/lib/sha256.h"

static const uint32_t k256[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u,
};

static uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t s[8], const uint8_t *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
    unsigned i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (i = 0; i < 64; i++) {
        t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k256[i] + w[i];
        t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    s[0] += a, s[1] += b, s[2] += c, s[3] += d, s[4] += e, s[5] += f, s[6] += g, s[7] += h;
}

void sha256_init(struct sha256_ctx *c)
{
    static const uint32_t iv[8] = { 0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u };
    unsigned i;
    for (i = 0; i < 8; i++)
        c->state[i] = iv[i];
    c->total = 0;
    c->used = 0;
}

void sha256_update(struct sha256_ctx *c, const void *data, size_t len)
{
    const uint8_t *p = data;
    c->total += len;
    while (len) {
        if (c->used == 0 && len >= SHA256_BLOCK_LEN) {
            compress(c->state, p);
            p += SHA256_BLOCK_LEN;
            len -= SHA256_BLOCK_LEN;
            continue;
        }
        c->block[c->used++] = *p++;
        len--;
        if (c->used == SHA256_BLOCK_LEN) {
            compress(c->state, c->block);
            c->used = 0;
        }
    }
}

void sha256_final(struct sha256_ctx *c, uint8_t out[SHA256_DIGEST_LEN])
{
    uint64_t bits = c->total * 8;
    unsigned i;
    /* 0x80, zeros up to 56 bytes into a block, the length in bits, big-endian */
    c->block[c->used++] = 0x80;
    if (c->used > SHA256_BLOCK_LEN - 8) {
        while (c->used < SHA256_BLOCK_LEN)
            c->block[c->used++] = 0;
        compress(c->state, c->block);
        c->used = 0;
    }
    while (c->used < SHA256_BLOCK_LEN - 8)
        c->block[c->used++] = 0;
    for (i = 0; i < 8; i++)
        c->block[SHA256_BLOCK_LEN - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(c->state, c->block);
    for (i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->state[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->state[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->state[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->state[i];
    }
    /* nothing of the message stays behind in the context */
    for (i = 0; i < SHA256_BLOCK_LEN; i++)
        ((volatile uint8_t *)c->block)[i] = 0;
}

void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_LEN])
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, data, len);
    sha256_final(&c, out);
}

void hmac_sha256_init(struct hmac_sha256_ctx *c, const void *key, size_t key_len)
{
    uint8_t k[SHA256_BLOCK_LEN], pad[SHA256_BLOCK_LEN];
    const uint8_t *kp = key;
    unsigned i;
    for (i = 0; i < SHA256_BLOCK_LEN; i++)
        k[i] = 0;
    if (key_len > SHA256_BLOCK_LEN) {
        sha256(key, key_len, k);
    } else {
        for (i = 0; i < key_len; i++)
            k[i] = kp[i];
    }
    for (i = 0; i < SHA256_BLOCK_LEN; i++)
        pad[i] = k[i] ^ 0x36;
    sha256_init(&c->inner);
    sha256_update(&c->inner, pad, SHA256_BLOCK_LEN);
    for (i = 0; i < SHA256_BLOCK_LEN; i++)
        pad[i] = k[i] ^ 0x5c;
    sha256_init(&c->outer);
    sha256_update(&c->outer, pad, SHA256_BLOCK_LEN);
    for (i = 0; i < SHA256_BLOCK_LEN; i++) {
        ((volatile uint8_t *)k)[i] = 0;
        ((volatile uint8_t *)pad)[i] = 0;
    }
}

void hmac_sha256_update(struct hmac_sha256_ctx *c, const void *data, size_t len)
{
    sha256_update(&c->inner, data, len);
}

void hmac_sha256_final(struct hmac_sha256_ctx *c, uint8_t out[SHA256_DIGEST_LEN])
{
    uint8_t inner[SHA256_DIGEST_LEN];
    sha256_final(&c->inner, inner);
    sha256_update(&c->outer, inner, SHA256_DIGEST_LEN);
    sha256_final(&c->outer, out);
}

void hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
                 uint8_t out[SHA256_DIGEST_LEN])
{
    struct hmac_sha256_ctx c;
    hmac_sha256_init(&c, key, key_len);
    hmac_sha256_update(&c, data, len);
    hmac_sha256_final(&c, out);
}
