/*
 * Command-line inputs: FILE or DIR arguments become a list of report files.
 * A directory stands for the *.json files directly in it, sorted by name
 * (the report names start with the date, so that is the run order).
 */
#ifndef TLBSCOPE_REPORT_INPUTS_H
#define TLBSCOPE_REPORT_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct input_list {
    char **paths;
    size_t n, cap;
};

/*
 * skip_latest leaves latest.json out of directories: qemu-run.sh keeps it as
 * a copy of the newest report, which would otherwise be compared with itself.
 * Problems (an unreadable directory, one without reports) are written to
 * `err`; returns false after any.
 */
bool inputs_expand(char *const *args, size_t nargs, bool skip_latest, struct input_list *out,
                   FILE *err);
void inputs_free(struct input_list *l);

#endif
