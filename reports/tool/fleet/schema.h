/*
 * The fleet database's schema (docs/fleet.md): tables, then the
 * views engineers query. Written in the SQL that SQLite and PostgreSQL both
 * accept (TEXT, BIGINT, DOUBLE PRECISION; no engine's own types), so both
 * engines hold the same schema.
 */
#ifndef TLBSCOPE_FLEET_SCHEMA_H
#define TLBSCOPE_FLEET_SCHEMA_H

#include "reports/tool/fleet/fdb.h"

/* Bumped when a table changes; a database of another version is refused, not altered. */
#define FLEET_SCHEMA_VERSION 1

/*
 * Creates what is missing (tables, then the views, recreated each time so
 * a newer tool's views replace an older one's), and checks the version: 0,
 * or -1 with the reason in `err`.
 */
int schema_ensure(struct fdb *db, char *err, size_t errcap);

#endif
