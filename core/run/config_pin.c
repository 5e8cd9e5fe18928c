/*
 * config_sha256=: the boot server's tlbscope.cfg pinned by its SHA-256
 * (config.h). The file comes over TFTP or plain HTTP from whoever answers
 * the boot: without a pin it can send the reports elsewhere (upload=) or
 * turn redaction off.
 */
#include "core/run/config.h"
#include "core/lib/mem.h"
#include "core/lib/sha256.h"
#include "core/mutant.h"

enum config_pin config_pin_verify(const struct config *pins, const void *data, size_t len,
                                  char sha_hex[CONFIG_SHA256_HEX + 1])
{
    static const char hex[] = "0123456789abcdef";
    uint8_t digest[SHA256_DIGEST_LEN];
    size_t i;
    sha256(data, len, digest);
    for (i = 0; i < SHA256_DIGEST_LEN; i++) {
        sha_hex[2 * i] = hex[digest[i] >> 4];
        sha_hex[2 * i + 1] = hex[digest[i] & 15];
    }
    sha_hex[CONFIG_SHA256_HEX] = 0;
    if (pins->config_sha256_bad)
        return PIN_UNREADABLE;
    if (!pins->config_sha256[0])
        return PIN_NONE;
    for (i = 0; i < CONFIG_SHA256_HEX; i++)
        if (pins->config_sha256[i] != sha_hex[i])
            return PIN_MISMATCH;
    return PIN_MATCH;
}

bool config_pin_accept(const struct config *pins, const void *data, size_t len,
                       char sha_hex[CONFIG_SHA256_HEX + 1], struct msg_list *errors)
{
    switch (config_pin_verify(pins, data, len, sha_hex)) {
    case PIN_NONE:
    case PIN_MATCH:
        return true;
    case PIN_MISMATCH:
        if (MUTANT(pin_mismatch_used))
            return true;
        msg_add(errors, "tlbscope.cfg", "the boot server's file has SHA-256 %.16s..., "
                "config_sha256= in the load options says %.16s...: not used; defaults and load "
                "options used", sha_hex, pins->config_sha256);
        return false;
    case PIN_UNREADABLE:
        break;
    }
    msg_add(errors, "tlbscope.cfg", "config_sha256= in the load options is not 64 hex digits: "
            "the boot server's file is not used; defaults and load options used");
    return false;
}

bool config_pin_read(const char *args, struct config *pins)
{
    /* their messages come when the load options are parsed for the run */
    static struct msg_list unused;
    config_defaults(pins);
    mem_zero(&unused, sizeof(unused));
    config_parse(pins, args, str_len(args), CONFIG_SOURCE_LOAD_OPTIONS, &unused);
    return pins->config_sha256[0] || pins->config_sha256_bad;
}
