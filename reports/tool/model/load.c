#include "reports/tool/model/load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/model/json_arena.h"
#include "reports/tool/model/json_fast.h"
#include "reports/tool/model/vocab.h"

static bool only_whitespace(const unsigned char *p, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            return false;
    return true;
}

/* Text has no NUL bytes and few control characters; a report is pure ASCII. */
static bool looks_binary(const unsigned char *p, size_t len)
{
    size_t i, n = len < 4096 ? len : 4096, odd = 0;
    for (i = 0; i < n; i++) {
        if (p[i] == 0)
            return true;
        if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r' && p[i] != '\f')
            odd++;
    }
    return odd * 20 > n;
}

static void fail(struct load_result *out, enum load_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct load_result *out, enum load_status st, const char *fmt, ...)
{
    va_list ap;
    out->status = st;
    char *c;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof(out->message), fmt, ap);
    va_end(ap);
    /* jansson quotes the offending bytes: keep binary junk off the terminal */
    for (c = out->message; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    json_decref(out->root);
    out->root = NULL;
}

/* The top-level identity: only then is the rest worth a schema check. */
static void check_identity(struct load_result *out)
{
    const json_t *schema, *version;
    if (!json_is_object(out->root)) {
        fail(out, LOAD_NOT_REPORT, "not a tlbscope report: the top level is %s, not an object",
             jget_type_word(out->root));
        return;
    }
    schema = json_object_get(out->root, "schema");
    if (!schema) {
        fail(out, LOAD_NOT_REPORT, "not a tlbscope report: no \"schema\" key");
        return;
    }
    if (!json_is_string(schema)) {
        fail(out, LOAD_NOT_REPORT, "not a tlbscope report: \"schema\" is %s, expected \"%s\"",
             jget_type_word(schema), TOOL_SCHEMA_NAME);
        return;
    }
    if (strcmp(json_string_value(schema), TOOL_SCHEMA_NAME) != 0) {
        fail(out, LOAD_NOT_REPORT, "not a tlbscope report: schema is \"%.80s\", expected \"%s\"",
             json_string_value(schema), TOOL_SCHEMA_NAME);
        return;
    }
    version = json_object_get(out->root, "schema_version");
    if (!version) {
        fail(out, LOAD_BAD_VERSION, "schema_version: missing key (this tool reads version %d)",
             TOOL_SCHEMA_VERSION);
        return;
    }
    if (!json_is_integer(version)) {
        fail(out, LOAD_BAD_VERSION, "schema_version: expected an integer, found %s",
             jget_type_word(version));
        return;
    }
    out->schema_version = json_integer_value(version);
    if (out->schema_version > TOOL_SCHEMA_VERSION) {
        fail(out, LOAD_NEWER_SCHEMA,
             "schema_version %lld is newer than this tool understands (%d); update tlbscope-report",
             out->schema_version, TOOL_SCHEMA_VERSION);
        return;
    }
    if (out->schema_version < 1)
        fail(out, LOAD_BAD_VERSION, "schema_version %lld is not a valid version (this tool reads %d)",
             out->schema_version, TOOL_SCHEMA_VERSION);
}

void load_buffer(const void *data, size_t len, struct load_result *out)
{
    const unsigned char *p = data;
    json_error_t err;
    bool controls;
    memset(out, 0, sizeof(*out));
    if (len == 0) {
        fail(out, LOAD_EMPTY, "empty file (0 bytes), not a report");
        return;
    }
    if (only_whitespace(p, len)) {
        fail(out, LOAD_EMPTY, "empty file (%zu bytes of whitespace), not a report", len);
        return;
    }
    /* an editor may have added a UTF-8 byte order mark; jansson rejects it */
    if (len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
        p += 3;
        len -= 3;
    }
    /* the fast path reads what tlbscope writes; anything else, and every error, is jansson's */
    out->root = json_fast_parse((const char *)p, len, &controls);
    out->no_controls = out->root && !controls;
    if (!out->root)
        out->root = json_loadb((const char *)p, len, JSON_REJECT_DUPLICATES, &err);
    if (!out->root) {
        if (json_error_code(&err) == json_error_premature_end_of_input && !looks_binary(p, len))
            fail(out, LOAD_TRUNCATED,
                 "truncated JSON: input ends at line %d column %d (byte %zu) inside an unfinished "
                 "value (%s); was the run cut short?",
                 err.line, err.column, len, err.text);
        else if (json_error_code(&err) == json_error_stack_overflow)
            fail(out, LOAD_NOT_JSON, "not a report: nesting deeper than %d levels at line %d "
                 "column %d (%s)", JSON_PARSER_MAX_DEPTH, err.line, err.column, err.text);
        else if (looks_binary(p, len))
            fail(out, LOAD_NOT_JSON, "not JSON (binary data): line %d column %d: %s", err.line,
                 err.column, err.text);
        else
            fail(out, LOAD_NOT_JSON, "not JSON: line %d column %d: %s", err.line, err.column,
                 err.text);
        return;
    }
    check_identity(out);
}

void load_file(const char *path, struct load_result *out)
{
    load_file_bytes(path, out, NULL, NULL);
}

void load_file_bytes(const char *path, struct load_result *out, char **bytes, size_t *bytes_len)
{
    char *buf = NULL;
    size_t len = 0;
    if (bytes) {
        *bytes = NULL;
        *bytes_len = 0;
    }
    load_file_raw(path, out, &buf, &len);
    if (out->status == LOAD_OK)
        load_buffer(buf, len, out);
    if (bytes && out->status == LOAD_OK) {
        *bytes = buf;
        *bytes_len = len;
        return;
    }
    free(buf);
}

void load_file_raw(const char *path, struct load_result *out, char **bytes, size_t *bytes_len)
{
    struct stat st;
    FILE *f;
    unsigned char *buf;
    size_t cap, len = 0;
    memset(out, 0, sizeof(*out));
    *bytes = NULL;
    *bytes_len = 0;
    if (stat(path, &st) != 0) {
        fail(out, LOAD_IO_ERROR, "cannot read: %s", strerror(errno));
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        fail(out, LOAD_IO_ERROR, "is a directory");
        return;
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > LOAD_MAX_BYTES) {
        fail(out, LOAD_IO_ERROR, "%lld bytes: too large for a report (limit %u MiB)",
             (long long)st.st_size, LOAD_MAX_BYTES >> 20);
        return;
    }
    /*
     * Only regular files: opening a FIFO without a writer blocks forever, and
     * a device never ends. O_NONBLOCK makes the open itself return; fstat on
     * the descriptor then decides (the path may have changed since stat).
     */
    if (!S_ISREG(st.st_mode)) {
        fail(out, LOAD_IO_ERROR, "not a regular file (a FIFO, device or socket): give the "
             "report file itself");
        return;
    }
    {
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            fail(out, LOAD_IO_ERROR, "cannot open: %s", strerror(errno));
            return;
        }
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            fail(out, LOAD_IO_ERROR, "not a regular file (a FIFO, device or socket): give the "
                 "report file itself");
            return;
        }
        f = fdopen(fd, "rb");
        if (!f) {
            close(fd);
            fail(out, LOAD_IO_ERROR, "cannot open: %s", strerror(errno));
            return;
        }
    }
    /* read in growing chunks: st_size is 0 for pipes and /proc files */
    cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
    buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0 || len > LOAD_MAX_BYTES)
            break;
        if (len == cap) {
            unsigned char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    if (!buf) {
        fclose(f);
        fail(out, LOAD_IO_ERROR, "out of memory reading it");
        return;
    }
    if (ferror(f))
        fail(out, LOAD_IO_ERROR, "read error: %s", strerror(errno));
    else if (len > LOAD_MAX_BYTES)
        fail(out, LOAD_IO_ERROR, "too large for a report (limit %u MiB)", LOAD_MAX_BYTES >> 20);
    fclose(f);
    if (out->status == LOAD_OK) {
        /* the loop above always leaves a byte free: the bytes read as a C string too */
        buf[len] = '\0';
        *bytes = (char *)buf;
        *bytes_len = len;
        return;
    }
    free(buf);
}

void load_release(struct load_result *r)
{
    /* under the arena a decref would walk every value to free none (json_arena.h) */
    if (!json_arena_installed())
        json_decref(r->root);
    r->root = NULL;
}
