/*
 * Streaming JSON writer for the report.
 *
 * Output is pretty-printed (two-space indent) so a report read off a USB
 * stick is legible in any editor; containers opened "inline" put all their
 * members on one line, which keeps per-sample-point records compact. The
 * output is pure ASCII: bytes >= 0x80 in firmware strings (SMBIOS is not
 * guaranteed to be UTF-8) are written as \u00XX escapes.
 */
#ifndef TLBSCOPE_CORE_JSON_H
#define TLBSCOPE_CORE_JSON_H

#include "core/lib/strbuf.h"

#define JSON_MAX_DEPTH 24

struct json_writer {
    struct strbuf *sb;
    int depth;
    bool has_members[JSON_MAX_DEPTH];
    bool is_inline[JSON_MAX_DEPTH];
    bool after_key;
    bool error; /* nesting misuse; the output is then not valid JSON */
};

void jw_init(struct json_writer *w, struct strbuf *sb);
void jw_object_begin(struct json_writer *w);
void jw_object_begin_inline(struct json_writer *w);
void jw_object_end(struct json_writer *w);
void jw_array_begin(struct json_writer *w);
void jw_array_begin_inline(struct json_writer *w);
void jw_array_end(struct json_writer *w);

void jw_key(struct json_writer *w, const char *key);
void jw_str(struct json_writer *w, const char *s); /* NULL writes null */
void jw_strn(struct json_writer *w, const char *s, size_t n);
void jw_u64(struct json_writer *w, uint64_t v);
void jw_i64(struct json_writer *w, int64_t v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);
/* 64-bit identifiers go out as "0x..." strings: JSON numbers lose precision above 2^53. */
void jw_hex(struct json_writer *w, uint64_t v);
/* value / 10^decimals as a JSON number, e.g. ratios. */
void jw_fixed(struct json_writer *w, int64_t value, unsigned decimals);

void jw_kv_str(struct json_writer *w, const char *key, const char *s);
void jw_kv_u64(struct json_writer *w, const char *key, uint64_t v);
void jw_kv_i64(struct json_writer *w, const char *key, int64_t v);
void jw_kv_bool(struct json_writer *w, const char *key, bool v);
void jw_kv_null(struct json_writer *w, const char *key);
void jw_kv_hex(struct json_writer *w, const char *key, uint64_t v);
void jw_kv_fixed(struct json_writer *w, const char *key, int64_t value, unsigned decimals);

/* True when every container was closed and no misuse was seen. */
bool jw_finish(struct json_writer *w);

#endif
