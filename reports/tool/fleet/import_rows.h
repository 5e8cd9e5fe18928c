/*
 * One validated report into the fleet database, in one transaction (import.c
 * decides whether it goes in; this writes it): the machine and CPU model
 * when new, the run, then its CPUs, experiments, points, recommendations,
 * conditions and headline figures.
 */
#ifndef TLBSCOPE_FLEET_IMPORT_ROWS_H
#define TLBSCOPE_FLEET_IMPORT_ROWS_H

#include <stddef.h>

#include "reports/tool/fleet/fdb.h"
#include "reports/tool/model/model.h"
#include "reports/tool/validate/validate.h"

struct import_report {
    const struct m_report *r;
    const struct vpoints *points; /* where r's points are (split.h), NULL: in its document */
    const char *run_key;          /* run_key.h */
    const char *json_text;        /* the file, verbatim (runs.report_json) */
    const char *source_name;      /* the file's name */
};

/* 0, or -1 with the engine's reason in db->error (rolled back); the machine's ID and the CPU
 * model's name as stored. */
int import_store(struct fdb *db, const struct import_report *in, char machine_id[14],
                 char *cpu_model, size_t model_cap);
/* "r" + the first 16 hex digits of the run key: runs.run, the id import prints. */
void import_short_run(const char *run_key, char out[18]);

#endif
