/*
 * Inside the configuration (core/run/config*.c only): the key table's
 * entries and the calls between its three files. config_keys.c holds the
 * table (names, types, ranges, defaults, help) and what is generated from it
 * (defaults, help, the stick's tlbscope.cfg); config_values.c turns one
 * value into a field or a message; config.c reads text line by line,
 * validates against the machine and writes the configuration to the report.
 */
#ifndef TLBSCOPE_CORE_RUN_CONFIG_KEYS_H
#define TLBSCOPE_CORE_RUN_CONFIG_KEYS_H

#include "core/run/config.h"
#include "core/lib/strbuf.h"

/* K_SECRET: text that messages never repeat (redact_key) */
/* K_URL: an http:// or https:// URL (core/run/upload.h) of at most `max` characters */
/* K_SHA256: 64 hexadecimal digits, stored in lower case */
enum key_type { K_ENUM, K_UINT, K_BOOL, K_CPULIST, K_NAMELIST, K_EMULATE, K_INJECT, K_SECRET,
                K_URL, K_SHA256 };

struct key_spec {
    const char *name;
    enum key_type type;
    uint32_t min, max;           /* K_UINT */
    const char *const *choices;  /* K_ENUM, NULL-terminated */
    size_t offset;               /* K_ENUM, K_UINT, K_BOOL */
    const char *default_text;
    const char *help;
};


extern const struct key_spec config_keys[];
extern const unsigned config_key_count;

/* The key's index in config_keys, or config_key_count when there is none. */
unsigned config_key_index(const char *name);
/* Levenshtein distance of two short names ("did you mean"); 99 past CONFIG_NAME_LEN. */
unsigned config_edit_distance(const char *a, const char *b);
/* "a|b|c", "an integer MIN..MAX", "on|off" for the keys that have a short form. */
void config_describe_expected(const struct key_spec *k, struct strbuf *sb);
/* Stores `value` into cfg's field for key k; false with `why` written when it is not valid. */
bool config_apply_value(struct config *cfg, const struct key_spec *k, const char *value,
                        struct strbuf *why);

#endif
