/*
 * The commands behind the CLI (main.c parses the arguments). They
 * write results to `out` and problems to `err` (every line prefixed
 * "tlbscope-report:"), and return the exit status: 0 success, 1 an input
 * is not a valid report (or cannot be read or written), 2 bad usage.
 */
#ifndef TLBSCOPE_REPORT_COMMANDS_H
#define TLBSCOPE_REPORT_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/tool/model/exit_status.h"
#include "reports/tool/model/model.h"
#include "reports/tool/views/table.h"

int cmd_validate(char *const *args, size_t nargs, FILE *out, FILE *err);
int cmd_show(const char *path, FILE *out, FILE *err);
/* show --json: the summary as JSON (report_json.h). */
int cmd_show_json(const char *path, FILE *out, FILE *err);
int cmd_compare(char *const *args, size_t nargs, enum table_format fmt, FILE *out, FILE *err);

/* Exit status of compare --fail-if-slower when a point is slower beyond the limit. */
enum { EXIT_SLOWER = 3 };
/*
 * Exit status of compare --strict when two sides share an experiment but no
 * point of it, and of a gate (--fail-if-slower) that compared nothing (no
 * shared experiment or point): a gate never passes on nothing.
 */
enum { EXIT_DISJOINT = 4 };

/* compare's options (main.c parses them; docs/report-tool.md, "Comparing machines"). */
struct compare_cli {
    enum table_format fmt;
    bool tidy_csv;            /* --csv: the tidy table (compare_csv.h) */
    const char *baseline;     /* --baseline FILE, or NULL: the first operand */
    bool group;               /* --group: pool reports of one machine and configuration */
    const char *experiments[32];
    size_t nexperiments;
    bool sort_ratio, only_differences;
    bool strict;              /* --strict: a pair with nothing in common is exit 4 */
    double threshold;         /* --threshold PCT: the dead band of the verdicts (3) */
    const char *where[16];    /* --where KEY=VALUE */
    size_t nwhere;
    double fail_if_slower;    /* percent; NaN: off */
    bool wide;                /* --wide: sides side by side past 80 columns */
    bool json;                /* --json: compare_json.h */
};
int cmd_compare_cli(char *const *args, size_t nargs, const struct compare_cli *cli, FILE *out,
                    FILE *err);
/* out_path "-" writes the page to `out`. */
int cmd_html(char *const *args, size_t nargs, const char *out_path, FILE *out, FILE *err);

/*
 * A copy of `in_path` with its identifying fields replaced by tokens
 * (redact.h), written to `out_path` (NULL: IN.redacted.json next to the
 * input; "-": `out`), which must not exist. The key is `key_text`, or the
 * contents of `key_file`, or random when both are NULL.
 */
int cmd_redact(const char *in_path, const char *out_path, const char *key_text,
               const char *key_file, FILE *out, FILE *err);
/* IN.json -> IN.redacted.json (any other name gets ".redacted.json" appended); malloc'd. */
char *commands_redacted_name(const char *in_path);

#endif
