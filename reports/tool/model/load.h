/*
 * Reading one report: bytes -> jansson document -> "is this a tlbscope
 * report of a schema version this tool understands?". Everything after that
 * (the schema proper) is validate.c's job. Each failure gets one clear
 * message; nothing here trusts the input.
 */
#ifndef TLBSCOPE_REPORT_LOAD_H
#define TLBSCOPE_REPORT_LOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A report is a few MiB even on a 768-CPU machine; anything far larger is not one. */
#define LOAD_MAX_BYTES (256u << 20)

enum load_status {
    LOAD_OK = 0,
    LOAD_IO_ERROR,     /* cannot open or read, is a directory, too large */
    LOAD_EMPTY,        /* 0 bytes or whitespace only */
    LOAD_TRUNCATED,    /* valid JSON so far, then the input ends */
    LOAD_NOT_JSON,     /* a syntax error (also binary data) */
    LOAD_NOT_REPORT,   /* JSON, but not a tlbscope report (schema key) */
    LOAD_BAD_VERSION,  /* schema_version missing, not an integer, or < 1 */
    LOAD_NEWER_SCHEMA, /* schema_version > TOOL_SCHEMA_VERSION */
};

struct load_result {
    enum load_status status;
    json_t *root;            /* owned; NULL unless status == LOAD_OK */
    long long schema_version;
    bool no_controls;        /* no string or key holds a control character: sanitize_json
                                would change nothing (known when the fast path read it) */
    char message[640];       /* why not LOAD_OK, without the file name */
};

void load_buffer(const void *data, size_t len, struct load_result *out);
void load_file(const char *path, struct load_result *out);
/* load_file, also handing back the file's bytes (malloc'd; NULL unless status is LOAD_OK). */
void load_file_bytes(const char *path, struct load_result *out, char **bytes, size_t *len);
/*
 * The checks on the file and its bytes (NUL-terminated, malloc'd) alone, unparsed: status
 * LOAD_OK with no root, or why it cannot be read. For a reader that parses the bytes its own
 * way (import's, fleet/split.h).
 */
void load_file_raw(const char *path, struct load_result *out, char **bytes, size_t *len);
/* Drops the document (safe on a result that failed). */
void load_release(struct load_result *r);

#endif
