/*
 * One report's free text that quotes identifying values (issue 35), and what
 * redact=on redact_key=RT_KEY must make of it: the app's writer
 * (tests/host/test_redact_text.c) and tlbscope-report redact --key RT_KEY
 * (tests/host/test_report_redact_text.c) are both held to these strings, so
 * the two redactions of one report read alike. The expected texts are built
 * from core/run/redact.c's tokens, which both programs compute.
 */
#ifndef TLBSCOPE_TESTS_REDACT_TEXT_CASE_H
#define TLBSCOPE_TESTS_REDACT_TEXT_CASE_H

#include <stdio.h>
#include <string.h>

#include "core/run/redact.h"

#define RT_KEY "lab-key-2026"
#define RT_MAC "52:54:00:aa:bb:cc"
#define RT_IP "192.0.2.41"
#define RT_BOOT_HOST "192.0.2.7"
#define RT_BOOT_URL "http://" RT_BOOT_HOST ":8080/lab/BOOTX64.EFI"
#define RT_UPLOAD_HOST "198.51.100.9"
#define RT_UPLOAD "http://" RT_UPLOAD_HOST "/reports"
#define RT_NAME "20261201-150619-amd-f19m01-0000-0badc0de"
#define RT_UPLOAD_URL RT_UPLOAD "/" RT_NAME ".json"
#define RT_ARGS "upload=" RT_UPLOAD " profile=quick"

/* where, message: a failed fetch names the boot server's file; the rest quote the others */
#define RT_WARNINGS 3
static const char *const rt_warnings[RT_WARNINGS][2] = {
    { "tlbscope.cfg", "not read from the boot server: HTTP GET http://" RT_BOOT_HOST
                      ":8080/lab/tlbscope.cfg: status 500; defaults and load options used" },
    { "upload", "the text summary did not reach " RT_UPLOAD "/" RT_NAME ".txt: HTTP status 503" },
    /* a longer number and a longer name that contain the address are not the address */
    { "dhcp", "lease " RT_IP " renewed (" RT_IP "0 and x" RT_IP " are other words)" },
};
#define RT_NOTE "collector " RT_UPLOAD_HOST " answered slowly"

static inline const char *rt_token(const char *path, const char *value)
{
    static char tokens[8][REDACT_TOKEN_CAP];
    static unsigned next;
    char *t = tokens[next++ % 8];
    redact_token(RT_KEY, strlen(RT_KEY), true, path, value, strlen(value), t);
    return t;
}

/* The texts as redacted: run.args, the three warnings, the note. */
static inline void rt_expected(char args[256], char warnings[RT_WARNINGS][256], char note[256])
{
    snprintf(args, 256, "upload=%s profile=quick", rt_token(REDACT_FIELD_CFG_UPLOAD, RT_UPLOAD));
    snprintf(warnings[0], 256, "not read from the boot server: HTTP GET http://%s:8080/lab/"
             "tlbscope.cfg: status 500; defaults and load options used",
             rt_token(REDACT_HOST_PATH, RT_BOOT_HOST));
    snprintf(warnings[1], 256, "the text summary did not reach %s/" RT_NAME ".txt: HTTP status 503",
             rt_token(REDACT_FIELD_CFG_UPLOAD, RT_UPLOAD));
    snprintf(warnings[2], 256, "lease %s renewed (" RT_IP "0 and x" RT_IP " are other words)",
             rt_token(REDACT_FIELD_NET_IP, RT_IP));
    snprintf(note, 256, "collector %s answered slowly", rt_token(REDACT_HOST_PATH, RT_UPLOAD_HOST));
}

#endif
