/*
 * `tlbscope-report import`: reports into the fleet database (schema.h). One
 * transaction per report, so a report is in the database whole or not at
 * all; a report that does not validate is refused with the validator's first
 * complaint and the others go on.
 */
#ifndef TLBSCOPE_FLEET_IMPORT_H
#define TLBSCOPE_FLEET_IMPORT_H

#include <stddef.h>
#include <stdio.h>

#include "reports/tool/fleet/fdb.h"

struct import_counts {
    size_t imported, already, refused;
};

/* One report file; progress on `out` ("imported", "already imported"), refusals on `err`. */
void import_file(struct fdb *db, const char *path, struct import_counts *counts, FILE *out,
                 FILE *err);

/* "r" + the first 16 hex digits of the run key, as the CLI and the atlas print a run. */
void import_short_run(const char *run_key, char out[18]);

#endif
