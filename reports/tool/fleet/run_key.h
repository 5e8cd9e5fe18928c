/*
 * A run's key in the fleet database: the SHA-256 of its report's canonical
 * JSON, so the same report is one run however it was indented or its
 * numbers spelt.
 */
#ifndef TLBSCOPE_FLEET_RUN_KEY_H
#define TLBSCOPE_FLEET_RUN_KEY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reports/tool/fleet/split.h"

#define RUN_KEY_LEN 64 /* hex digits */

/* `split`: where root's points are (split.h), or NULL when root holds them; the key is the
 * same either way. `bytes` (the file as read) only serve the mutant fleet_key_from_bytes. */
bool run_key_of(const json_t *root, struct split_report *split, const char *bytes, size_t len,
                char key[RUN_KEY_LEN + 1]);
/* n bytes as 2n lower-case hex digits and a NUL. */
void run_key_hex(const uint8_t *d, size_t n, char *out);

#endif
