/*
 * `redact`: a copy of a report without the values that identify one
 * physical machine (reports/SCHEMA.md, "Identifying fields"), so it can be
 * attached to a bug, mailed to a list or put on a comparison page.
 *
 * Each identifying field that holds a value is replaced by a token
 * (core/run/redact.h: HMAC-SHA-256, the same code the app runs with redact=on):
 * keyed tokens are the same for one machine in every report redacted with
 * the same key, so runs can still be grouped; without a key the tokens are
 * random and differ in every file. A top-level "redaction" record says that
 * the report was redacted, how, and which fields.
 *
 * The copy is the input's bytes with only those values and the record
 * changed, so `diff` shows exactly what went. Tokens are recognised: a
 * report that is already redacted comes out byte for byte the same.
 */
#ifndef TLBSCOPE_REPORT_REDACT_H
#define TLBSCOPE_REPORT_REDACT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/run/redact.h"

#define REDACT_KEY_FILE_MAX 4096 /* bytes: a key file is a line of text, not a document */
#define REDACT_MAX_FIELDS 14     /* entries of redact_fields, with room */
#define REDACT_MAX_LEFTOVERS 8

struct redact_key {
    unsigned char *bytes;
    size_t len;
    bool keyed; /* false: random bytes for one report */
};

/* The key is the text's bytes. False (with the reason) for an empty text or no memory. */
bool redact_key_from_text(const char *text, struct redact_key *k, char *why, size_t cap);
/* The file's bytes, one trailing "\n" or "\r\n" dropped; empty or unreadable: false. */
bool redact_key_from_file(const char *path, struct redact_key *k, char *why, size_t cap);
/* 32 bytes from the system's random source (getrandom, else /dev/urandom). */
bool redact_key_random(struct redact_key *k, char *why, size_t cap);
void redact_key_free(struct redact_key *k);

/* An original value still found in the copy, outside the identifying fields. */
struct redact_leftover {
    const char *field; /* the identifying field it was taken from */
    size_t line;       /* 1-based line of the copy where it appears */
};

struct redact_result {
    char *text; /* the redacted report, malloc'd (not NUL-terminated) */
    size_t len;
    bool changed;       /* text differs from the input */
    size_t replaced;    /* values replaced by this call */
    size_t quotes;      /* free-text strings that quoted one of them, now with its token */
    const char *fields[REDACT_MAX_FIELDS]; /* the record's fields (entries of redact_fields) */
    size_t nfields;
    bool keyed;         /* the record's "keyed" */
    struct redact_leftover leftovers[REDACT_MAX_LEFTOVERS];
    size_t nleftovers;
    char message[256];  /* why redact_report failed */
};

/*
 * Redacts the report `data` (`len` bytes; a UTF-8 byte order mark is kept)
 * whose parsed document, as load_buffer() accepted it, is `root`. False,
 * with out->message, only when the text and the document do not agree or
 * memory runs out.
 */
bool redact_report(const char *data, size_t len, const json_t *root, const struct redact_key *key,
                   struct redact_result *out);
void redact_result_free(struct redact_result *r);

#endif
