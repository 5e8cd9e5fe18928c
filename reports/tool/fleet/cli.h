/*
 * The fleet database's commands, dispatched from main.c (built with
 * TLBSCOPE_FLEETDB: tool.mk links SQLite and libpq for them).
 */
#ifndef TLBSCOPE_FLEET_CLI_H
#define TLBSCOPE_FLEET_CLI_H

extern const char fleet_import_help[], fleet_atlas_help[], fleet_query_help[];
int fleet_run_import(int argc, char **argv);
int fleet_run_atlas(int argc, char **argv);
int fleet_run_query(int argc, char **argv);

#endif
