/*
 * fdb_pg_open in a build without libpq (the release's static binary: a
 * static libpq pulls in OpenSSL, Kerberos and LDAP): a postgresql:// database
 * is refused with what to do instead. Linked in place of fdb_pg.c.
 */
#include "reports/tool/fleet/fdb.h"

#include <stdio.h>

struct fdb *fdb_pg_open(const char *uri, enum fdb_mode mode, char *err, size_t errcap)
{
    (void)uri;
    (void)mode;
    snprintf(err, errcap, "this build has no PostgreSQL, only SQLite files:\n"
             "  build host-tool/ with libpq-dev installed (make PG=1),\n"
             "  or import into a SQLite file (--db FILE)");
    return NULL;
}
