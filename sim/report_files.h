/* tlbscope-sim's report files (sim/report_files.c), for sim/session.c. */
#ifndef TLBSCOPE_SIM_REPORT_FILES_H
#define TLBSCOPE_SIM_REPORT_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lib/strbuf.h"
#include "core/run/run.h"

/* The next run counter in `dir`: one more than the reports (.json) already there. */
uint32_t sim_report_next_counter(const char *dir);
/* mkdir -p: false when a folder cannot be made. */
bool sim_report_make_dirs(const char *path);
/*
 * Writes the JSON and text report into `dir` under the run's name (a "-N"
 * suffix where one exists); the JSON's path in json_path. False, with the
 * reason on stderr, when either cannot be written.
 */
bool sim_report_save(const struct run *r, const char *dir, const struct strbuf *json,
                     const struct strbuf *text, char *json_path, size_t cap);

#endif
