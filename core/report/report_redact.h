/*
 * What redact=on replaces in the report and its summary (core/run/redact.h,
 * reports/SCHEMA.md "Identifying fields"): each identifying value's token,
 * computed once per writer, and the same tokens wherever free text (run.args,
 * the run's messages, an experiment's reason and notes, the whole .txt)
 * quotes a value or a URL's host (issue 35).
 */
#ifndef TLBSCOPE_CORE_REPORT_REDACT_H
#define TLBSCOPE_CORE_REPORT_REDACT_H

#include "core/lib/json.h"
#include "core/lib/msglist.h"
#include "core/lib/strbuf.h"
#include "core/run/config.h"
#include "core/run/netinfo.h"
#include "core/run/redact.h"

struct redaction {
    bool on, keyed;
    uint32_t nfields;
    const char *fields[REDACT_WRITTEN_FIELDS];
    char serial[REDACT_TOKEN_CAP], uuid[REDACT_TOKEN_CAP];
    char mac[REDACT_TOKEN_CAP], ip[REDACT_TOKEN_CAP], boot_url[REDACT_TOKEN_CAP];
    char upload_url[REDACT_TOKEN_CAP], cfg_upload[REDACT_TOKEN_CAP];
    char uuid_text[40];         /* the UUID as written: a value the pairs point at */
    struct redact_pairs pairs;  /* every value above and the URLs' hosts, with their tokens */
};

/*
 * What a run has that identifies the machine or its site, for any architecture: each
 * value "" (or NULL) when the run has none. `random_key` is the report's random key
 * (redact=on without redact_key; NULL: none was drawn), `fallback_seed` what stands in
 * for it without one (the run's own clock readings, on the host).
 */
struct redaction_input {
    const struct config *cfg;            /* redact, redact_key, upload */
    const uint8_t *random_key;           /* REDACT_RANDOM_KEY_LEN bytes, or NULL */
    const void *fallback_seed;
    size_t fallback_seed_len;
    const char *serial;                  /* SMBIOS system serial */
    const uint8_t *uuid;                 /* SMBIOS system UUID (16 bytes), or NULL */
    const char *mac, *ip, *boot_url;     /* run.network */
    const char *upload_url;              /* run.network.upload_url (NULL: no network section) */
};

/* SMBIOS 2.6+: the first three fields of the UUID are little-endian. */
void redaction_format_uuid(const uint8_t *b, char u[40]);
/* The tokens of a run's identifying values (nothing when redact is off). `red` must not move
 * while in use. */
void redaction_prepare_from(const struct redaction_input *in, struct redaction *red);
/* The top-level "redaction" record; nothing when redact is off. */
void redaction_write_record(struct json_writer *w, const struct redaction *red);
/* A free-text string of the report, as it is shown: quoted values as their tokens. */
void redaction_write_text(struct json_writer *w, const char *text, const void *red);
/* The text written to `sb` since `start`, quoted values as their tokens (the .txt). */
void redaction_scrub_buffer(const struct redaction *red, struct strbuf *sb, size_t start);

/* The JSON URL the upload was sent to (or will be), as the report shows it; NULL without upload=. */
const char *redaction_shown_upload_url(const struct config *cfg, const struct upload_outcome *upload,
                                       const struct redaction *red);

/* x86's run (core/report/report_redact_run.c): its values, as redaction_prepare_from() takes them */
struct run;
void redaction_prepare(const struct run *r, struct redaction *red);

#endif
