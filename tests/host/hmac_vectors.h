/*
 * Published test vectors for core/lib/sha256.c, shared by the test of the app's
 * build (test_redact.c) and of tlbscope-report's (test_report_redact.c),
 * which compile the same file with different flags.
 *
 *   SHA-256: FIPS 180-2 appendix B ("abc", the 448-bit message, a million
 *            'a'), the empty message and the 896-bit message (NIST's
 *            example values).
 *   HMAC-SHA-256: RFC 4231 section 4, test cases 1 to 7 (case 5 compares
 *            the first 128 bits, as the RFC truncates it).
 *
 * Also the tokens of the dell-r820 fixture's serial number and UUID under
 * the key "lab-key-2026": both tests expect them, so the app's writer and
 * the tool's redact are held to the same bytes.
 */
#ifndef TLBSCOPE_TESTS_HMAC_VECTORS_H
#define TLBSCOPE_TESTS_HMAC_VECTORS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct sha_vector {
    const char *message; /* NULL: one million 'a' */
    const char *digest;
};

static const struct sha_vector sha256_vectors[] = {
    { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrl"
      "mnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
    { NULL, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

struct hmac_vector {
    uint8_t key[131];
    size_t key_len;
    const char *data;
    size_t data_len;
    const char *mac;  /* hex */
    size_t mac_bytes; /* compared */
};

#define REP20(b) b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b
#define REP131(b)                                                                                 \
    REP20(b), REP20(b), REP20(b), REP20(b), REP20(b), REP20(b), b, b, b, b, b, b, b, b, b, b, b

static const char hmac_dd50[] = "\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd"
                                "\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd"
                                "\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd"
                                "\xdd\xdd";
static const char hmac_cd50[] = "\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd"
                                "\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd"
                                "\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd\xcd"
                                "\xcd\xcd";
#define HMAC_DATA7                                                                                \
    "This is a test using a larger than block-size key and a larger than block-size data. The "  \
    "key needs to be hashed before being used by the HMAC algorithm."

static const struct hmac_vector rfc4231_vectors[] = {
    { { REP20(0x0b) }, 20, "Hi There", 8,
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", 32 },
    { { 'J', 'e', 'f', 'e' }, 4, "what do ya want for nothing?", 28,
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 32 },
    { { REP20(0xaa) }, 20, hmac_dd50, 50,
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", 32 },
    { { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25 },
      25, hmac_cd50, 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", 32 },
    { { REP20(0x0c) }, 20, "Test With Truncation", 20, "a3b6167473100ee06e0c796c2955552b", 16 },
    { { REP131(0xaa) }, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", 32 },
    { { REP131(0xaa) }, 131, HMAC_DATA7, sizeof(HMAC_DATA7) - 1,
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", 32 },
};

/* The dell-r820 fixture (tests/fixtures/reports/identity) under this key. */
#define FIXTURE_KEY "lab-key-2026"
#define DELL_SERIAL "7QZ4VK2"
#define DELL_UUID "4c4c4544-0051-5a10-8034-b7c04f564b32"
#define DELL_SERIAL_TOKEN "redacted:hmac:873da28e8cbae243"
#define DELL_UUID_TOKEN "redacted:hmac:800ba36f7ac394dd"

static inline void hex_of(const uint8_t *b, size_t n, char *out)
{
    size_t i;
    for (i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

#endif
