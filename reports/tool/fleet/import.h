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

/*
 * One report file; a line on `out` ("imported", "already imported"), refusals on `err`, and
 * when `err` is a terminal, how far a large report has got (progress.h). The points stay in
 * the file's bytes and are read one at a time (split.h): memory about twice the file's size.
 */
void import_file(struct fdb *db, const char *path, struct import_counts *counts, FILE *out,
                 FILE *err);

#endif
