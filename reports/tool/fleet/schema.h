/*
 * The fleet database's schema (docs/fleet.md): tables, then the
 * views engineers query. Written in the SQL that SQLite and PostgreSQL both
 * accept (TEXT, BIGINT, DOUBLE PRECISION; no engine's own types), so both
 * engines hold the same schema.
 */
#ifndef TLBSCOPE_FLEET_SCHEMA_H
#define TLBSCOPE_FLEET_SCHEMA_H

#include "reports/tool/fleet/fdb.h"

/*
 * Bumped when a table changes. import upgrades a database of version 1 in
 * place; any other version is refused, not altered. 2: runs.run (the id
 * import prints), point_metrics.p50_ci95_low/high, recommendations.interval_of
 * and interval_unit.
 */
#define FLEET_SCHEMA_VERSION 2

/*
 * import: creates what is missing (tables, then the views, recreated each
 * time so a newer tool's views replace an older one's), upgrading version 1,
 * in one transaction: 0, or -1 with the reason in `err`.
 */
int schema_ensure(struct fdb *db, char *err, size_t errcap);
/* atlas, query (read-only): a fleet database of this version, or -1 with what to do in `err`
 * (`target` is --db, named in it unless a PostgreSQL URI, which may hold a password). */
int schema_check(struct fdb *db, const char *target, char *err, size_t errcap);

#endif
