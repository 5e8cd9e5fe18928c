/*
 * Diagnostics: what `validate` found wrong with one report, each message
 * tied to the JSON path it is about ("experiments[2].results[5].metrics.latency.p50").
 * Errors make a report invalid; warnings are remarks that leave it valid.
 */
#ifndef TLBSCOPE_REPORT_DIAG_H
#define TLBSCOPE_REPORT_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A corrupt report can hold thousands of bad points; nobody reads past this. */
#define DIAG_MAX_KEPT 200

enum diag_level { DIAG_ERROR = 0, DIAG_WARNING };

struct diag {
    enum diag_level level;
    char *path; /* "" for the whole document */
    char *text;
};

struct diag_list {
    struct diag *items;
    size_t count, cap;
    size_t errors, warnings; /* all seen, kept or not */
    size_t dropped;          /* seen but not kept (over DIAG_MAX_KEPT or out of memory) */
};

void diag_init(struct diag_list *l);
void diag_free(struct diag_list *l);
void diag_add(struct diag_list *l, enum diag_level level, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* True when some kept message has `path` and contains `needle` (tests use it). */
bool diag_has(const struct diag_list *l, const char *path, const char *needle);
/* One line per message: "FILE: PATH: text" ("FILE: warning: PATH: text"). */
void diag_print(const struct diag_list *l, const char *file, FILE *out);

#endif
