#include "reports/tool/fleet/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * @KEYED@ ends the tables of a report's points, a million rows for a large
 * one: SQLite stores them WITHOUT ROWID, in their primary key's b-tree alone
 * (without, each row went in twice, table and key index: a third more
 * import time and 60% more file); PostgreSQL has no such choice (fdb_ops).
 *
 * Keys: a run is the SHA-256 of its report's canonical JSON (keys sorted,
 * no whitespace), so the same report imported twice, or re-indented, is one
 * run; every row below a run carries its run_key. `run` is the short form
 * import prints ("r" + the key's first 16 hex digits), so the id a user
 * copies from import's output is one a WHERE finds. Flags are 0/1 BIGINTs
 * (SQLite has no boolean).
 */
static const char tables_sql[] =
    "CREATE TABLE IF NOT EXISTS fleet_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS machines (\n"
    "  machine_id TEXT PRIMARY KEY, identity_kind TEXT NOT NULL,\n"
    "  manufacturer TEXT, product TEXT, board TEXT, serial TEXT, uuid TEXT);\n"
    "CREATE TABLE IF NOT EXISTS cpu_models (\n"
    "  cpu_model TEXT PRIMARY KEY, vendor TEXT, brand TEXT, family BIGINT, model BIGINT,\n"
    "  stepping BIGINT, signature TEXT);\n"
    "CREATE TABLE IF NOT EXISTS runs (\n"
    "  run_key TEXT PRIMARY KEY,\n"
    "  machine_id TEXT NOT NULL REFERENCES machines (machine_id),\n"
    "  cpu_model TEXT NOT NULL REFERENCES cpu_models (cpu_model),\n"
    "  environment TEXT NOT NULL, report_run_id TEXT, start_time TEXT, result TEXT,\n"
    "  run_status TEXT, duration_ms DOUBLE PRECISION, hypervisor TEXT, emulator TEXT,\n"
    "  sim_profile TEXT, sim_model TEXT, sim_model_version BIGINT, sim_seed BIGINT,\n"
    "  microcode TEXT, bios_version TEXT, bios_date TEXT, tsc_hz DOUBLE PRECISION,\n"
    "  cpu_count BIGINT, cpus_ok BIGINT, apic_mode TEXT, page_flush TEXT, full_flush TEXT,\n"
    "  profile TEXT, samples BIGINT, flush_ceiling BIGINT, generator_version TEXT,\n"
    "  generator_commit TEXT, schema_version BIGINT, redacted BIGINT NOT NULL,\n"
    "  source_name TEXT, imported_at TEXT NOT NULL, report_json TEXT NOT NULL, run TEXT);\n"
    "CREATE TABLE IF NOT EXISTS cpus (\n"
    "  run_key TEXT NOT NULL REFERENCES runs (run_key), cpu_index BIGINT NOT NULL,\n"
    "  apic_id BIGINT, package BIGINT, core BIGINT, thread BIGINT, numa_node BIGINT,\n"
    "  bsp BIGINT, state TEXT, PRIMARY KEY (run_key, cpu_index));\n"
    "CREATE TABLE IF NOT EXISTS experiments (\n"
    "  run_key TEXT NOT NULL REFERENCES runs (run_key), exp_index BIGINT NOT NULL,\n"
    "  experiment TEXT, title TEXT, status TEXT, reason TEXT, emulated BIGINT, partial BIGINT,\n"
    "  duration_ms DOUBLE PRECISION, verification_checks BIGINT, stale_reads BIGINT,\n"
    "  PRIMARY KEY (run_key, exp_index));\n"
    "CREATE TABLE IF NOT EXISTS points (\n"
    "  run_key TEXT NOT NULL, exp_index BIGINT NOT NULL, section TEXT NOT NULL,\n"
    "  point_index BIGINT NOT NULL, params TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_key, exp_index, section, point_index))@KEYED@;\n"
    "CREATE TABLE IF NOT EXISTS point_params (\n"
    "  run_key TEXT NOT NULL, exp_index BIGINT NOT NULL, section TEXT NOT NULL,\n"
    "  point_index BIGINT NOT NULL, name TEXT NOT NULL, text_value TEXT,\n"
    "  num_value DOUBLE PRECISION,\n"
    "  PRIMARY KEY (run_key, exp_index, section, point_index, name))@KEYED@;\n"
    "CREATE TABLE IF NOT EXISTS point_metrics (\n"
    "  run_key TEXT NOT NULL, exp_index BIGINT NOT NULL, section TEXT NOT NULL,\n"
    "  point_index BIGINT NOT NULL, metric TEXT NOT NULL, n DOUBLE PRECISION,\n"
    "  min DOUBLE PRECISION, p50 DOUBLE PRECISION, p90 DOUBLE PRECISION,\n"
    "  p99 DOUBLE PRECISION, max DOUBLE PRECISION, mean DOUBLE PRECISION,\n"
    "  p50_ci95_low DOUBLE PRECISION, p50_ci95_high DOUBLE PRECISION,\n"
    "  PRIMARY KEY (run_key, exp_index, section, point_index, metric))@KEYED@;\n"
    "CREATE TABLE IF NOT EXISTS point_values (\n"
    "  run_key TEXT NOT NULL, exp_index BIGINT NOT NULL, section TEXT NOT NULL,\n"
    "  point_index BIGINT NOT NULL, name TEXT NOT NULL, value DOUBLE PRECISION,\n"
    "  PRIMARY KEY (run_key, exp_index, section, point_index, name))@KEYED@;\n"
    "CREATE TABLE IF NOT EXISTS recommendations (\n"
    "  run_key TEXT NOT NULL REFERENCES runs (run_key), rec_index BIGINT NOT NULL,\n"
    "  recommendation TEXT, status TEXT, value DOUBLE PRECISION, unit TEXT, cpus_from BIGINT,\n"
    "  confidence TEXT, environment TEXT, describes_hardware BIGINT, verdict TEXT,\n"
    "  evidence_experiment TEXT, interval_low DOUBLE PRECISION, interval_high DOUBLE PRECISION,\n"
    "  interval_of TEXT, interval_unit TEXT, PRIMARY KEY (run_key, rec_index));\n"
    "CREATE TABLE IF NOT EXISTS conditions (\n"
    "  run_key TEXT NOT NULL REFERENCES runs (run_key), exp_index BIGINT NOT NULL,\n"
    "  smi_source TEXT, smi_count DOUBLE PRECISION, effective_mhz DOUBLE PRECISION,\n"
    "  boost TEXT, smt TEXT, target_wait TEXT, conditions_json TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_key, exp_index));\n"
    "CREATE TABLE IF NOT EXISTS headlines (\n"
    "  run_key TEXT NOT NULL REFERENCES runs (run_key), figure TEXT NOT NULL,\n"
    "  class TEXT NOT NULL, environment TEXT NOT NULL, value DOUBLE PRECISION NOT NULL,\n"
    "  unit TEXT NOT NULL, value_ns DOUBLE PRECISION, detail TEXT,\n"
    "  PRIMARY KEY (run_key, figure, class));\n"
    "CREATE INDEX IF NOT EXISTS runs_by_model ON runs (cpu_model, environment);\n"
    "CREATE INDEX IF NOT EXISTS runs_by_machine ON runs (machine_id, start_time);\n"
    "CREATE UNIQUE INDEX IF NOT EXISTS runs_by_run ON runs (run);\n";

/*
 * Version 1 to 2, in place (import does it, in the schema's transaction): the
 * printed run id as a column, the p50's 95% interval on each metric (schema 3
 * reports), the unit of a recommendation's interval (the view converts it to
 * ns). An interval recorded before had the value's unit, but invlpgb_vs_ipi's
 * (of cpus_from) in CPUs (reports/SCHEMA.md).
 */
static const char upgrade_1_to_2_sql[] =
    "ALTER TABLE runs ADD COLUMN run TEXT;\n"
    "UPDATE runs SET run = 'r' || substr(run_key, 1, 16);\n"
    "ALTER TABLE point_metrics ADD COLUMN p50_ci95_low DOUBLE PRECISION;\n"
    "ALTER TABLE point_metrics ADD COLUMN p50_ci95_high DOUBLE PRECISION;\n"
    "ALTER TABLE recommendations ADD COLUMN interval_of TEXT;\n"
    "ALTER TABLE recommendations ADD COLUMN interval_unit TEXT;\n"
    "UPDATE recommendations SET interval_unit = CASE WHEN recommendation = 'invlpgb_vs_ipi'\n"
    "  THEN 'cpus' ELSE unit END\n"
    "  WHERE interval_low IS NOT NULL OR interval_high IS NOT NULL;\n";

/* The views (docs/fleet.md, "Questions as SQL views"): names start with v_. */
static const char *const view_names[] = {
    "v_microcode_history", "v_flush_points", "v_point_metrics", "v_model_headlines",
    "v_headlines", "v_recommendations", "v_runs",
};

static const char views_sql[] =
    /* every run with its machine and CPU model, the identifying values left out */
    "CREATE VIEW v_runs AS\n"
    "SELECT r.run, r.run_key, r.machine_id, r.cpu_model, r.environment, r.start_time,\n"
    "  r.result, r.microcode, r.profile, r.cpu_count, r.tsc_hz, r.hypervisor, r.emulator,\n"
    "  r.sim_profile, r.redacted, m.manufacturer, m.product, r.report_run_id, r.source_name\n"
    "FROM runs r JOIN machines m ON m.machine_id = r.machine_id;\n"
    /* times in ns at the run's TSC rate, as the other views: lazy_skip's saving in ticks,
     * pti_user_flush's difference in ticks per page, and their intervals */
    "CREATE VIEW v_recommendations AS\n"
    "SELECT r.cpu_model, r.machine_id, r.run, r.run_key, r.start_time, r.microcode,\n"
    "  c.environment, c.recommendation, c.status, c.value, c.unit,\n"
    "  CASE WHEN c.unit IN ('ticks', 'ticks/page') AND r.tsc_hz > 0\n"
    "       THEN c.value * 1000000000.0 / r.tsc_hz END AS value_ns,\n"
    "  CASE WHEN c.unit = 'ticks' THEN 'ns' WHEN c.unit = 'ticks/page' THEN 'ns/page'\n"
    "       END AS unit_ns,\n"
    "  c.cpus_from, c.confidence, c.verdict, c.interval_of, c.interval_low, c.interval_high,\n"
    "  c.interval_unit,\n"
    "  CASE WHEN c.interval_unit IN ('ticks', 'ticks/page') AND r.tsc_hz > 0\n"
    "       THEN c.interval_low * 1000000000.0 / r.tsc_hz END AS interval_low_ns,\n"
    "  CASE WHEN c.interval_unit IN ('ticks', 'ticks/page') AND r.tsc_hz > 0\n"
    "       THEN c.interval_high * 1000000000.0 / r.tsc_hz END AS interval_high_ns\n"
    "FROM recommendations c JOIN runs r ON r.run_key = c.run_key;\n"
    "CREATE VIEW v_headlines AS\n"
    "SELECT r.cpu_model, h.environment, r.machine_id, r.run, r.run_key, r.start_time,\n"
    "  r.microcode, h.figure, h.class, h.value, h.unit, h.value_ns, h.detail\n"
    "FROM headlines h JOIN runs r ON r.run_key = h.run_key;\n"
    /* the atlas in one table: the spread of each figure over runs and machines of a model */
    "CREATE VIEW v_model_headlines AS\n"
    "SELECT cpu_model, environment, figure, class, unit,\n"
    "  COUNT(DISTINCT run_key) AS runs, COUNT(DISTINCT machine_id) AS machines,\n"
    "  MIN(value) AS min_value, AVG(value) AS mean_value, MAX(value) AS max_value,\n"
    "  MIN(value_ns) AS min_ns, AVG(value_ns) AS mean_ns, MAX(value_ns) AS max_ns\n"
    "FROM v_headlines GROUP BY cpu_model, environment, figure, class, unit;\n"
    /* every measured statistic, with the parameters charts use most as columns */
    "CREATE VIEW v_point_metrics AS\n"
    "SELECT r.cpu_model, r.machine_id, r.run, r.run_key, r.start_time, r.microcode,\n"
    "  CASE WHEN e.emulated = 1 AND r.environment <> 'simulated' THEN 'emulated'\n"
    "       ELSE r.environment END AS environment,\n"
    "  e.experiment, m.section, m.point_index, p.params, m.metric, m.n, m.min, m.p50, m.p90,\n"
    "  m.p99, m.max, m.mean, m.p50_ci95_low, m.p50_ci95_high,\n"
    "  CASE WHEN r.tsc_hz > 0 THEN m.p50 * 1000000000.0 / r.tsc_hz END AS p50_ns,\n"
    "  CASE WHEN r.tsc_hz > 0 THEN m.p99 * 1000000000.0 / r.tsc_hz END AS p99_ns,\n"
    "  CASE WHEN r.tsc_hz > 0 THEN m.p50_ci95_low * 1000000000.0 / r.tsc_hz END\n"
    "    AS p50_ci95_low_ns,\n"
    "  CASE WHEN r.tsc_hz > 0 THEN m.p50_ci95_high * 1000000000.0 / r.tsc_hz END\n"
    "    AS p50_ci95_high_ns,\n"
    "  (SELECT q.num_value FROM point_params q WHERE q.run_key = m.run_key AND\n"
    "     q.exp_index = m.exp_index AND q.section = m.section AND\n"
    "     q.point_index = m.point_index AND q.name = 'pages') AS pages,\n"
    "  (SELECT q.num_value FROM point_params q WHERE q.run_key = m.run_key AND\n"
    "     q.exp_index = m.exp_index AND q.section = m.section AND\n"
    "     q.point_index = m.point_index AND q.name = 'targets') AS targets,\n"
    "  (SELECT q.text_value FROM point_params q WHERE q.run_key = m.run_key AND\n"
    "     q.exp_index = m.exp_index AND q.section = m.section AND\n"
    "     q.point_index = m.point_index AND q.name = 'mode') AS mode,\n"
    "  (SELECT q.text_value FROM point_params q WHERE q.run_key = m.run_key AND\n"
    "     q.exp_index = m.exp_index AND q.section = m.section AND\n"
    "     q.point_index = m.point_index AND q.name = 'kind') AS kind\n"
    "FROM point_metrics m\n"
    "JOIN points p ON p.run_key = m.run_key AND p.exp_index = m.exp_index AND\n"
    "  p.section = m.section AND p.point_index = m.point_index\n"
    "JOIN experiments e ON e.run_key = m.run_key AND e.exp_index = m.exp_index\n"
    "JOIN runs r ON r.run_key = m.run_key;\n"
    /* "which models flush best above N pages": one flush of N pages, by mode, per page */
    "CREATE VIEW v_flush_points AS\n"
    "SELECT cpu_model, machine_id, run, run_key, environment, experiment, kind, mode, targets,\n"
    "  pages, p50, p50_ns, p50_ns / pages AS ns_per_page\n"
    "FROM v_point_metrics\n"
    "WHERE section = 'results' AND metric = 'latency' AND pages > 0 AND\n"
    "  experiment IN ('flush_ceiling', 'shootdown_seq_vs_conc');\n"
    /* "how did this machine change between microcode updates" */
    "CREATE VIEW v_microcode_history AS\n"
    "SELECT machine_id, cpu_model, environment, microcode, figure, class, unit,\n"
    "  MIN(start_time) AS first_run, MAX(start_time) AS last_run,\n"
    "  COUNT(DISTINCT run_key) AS runs, AVG(value) AS mean_value, AVG(value_ns) AS mean_ns\n"
    "FROM v_headlines GROUP BY machine_id, cpu_model, environment, microcode, figure, class,\n"
    "  unit;\n";

struct version_read {
    char value[32];
    bool found;
};

static int read_version(void *ctx, int ncols, const char *const *names, const char *const *values)
{
    struct version_read *v = ctx;
    (void)names;
    if (ncols >= 1 && values[0]) {
        snprintf(v->value, sizeof(v->value), "%s", values[0]);
        v->found = true;
    }
    return 1;
}

static int read_schema_version(struct fdb *db, struct version_read *v)
{
    const char *params[1] = { "schema_version" };
    return fdb_query(db, "SELECT value FROM fleet_meta WHERE key = $1", 1, params, read_version,
                     v);
}

/* The tables' DDL for this engine (@KEYED@ replaced); NULL when out of memory. */
static char *tables_for(const struct fdb *db)
{
    const char *suffix = db->ops->keyed_table_suffix, *p = tables_sql, *m;
    size_t n = 0;
    char *out, *w;
    for (m = p; (m = strstr(m, "@KEYED@")); m += 7)
        n++;
    if (!(out = malloc(sizeof(tables_sql) + n * strlen(suffix))))
        return NULL;
    for (w = out; (m = strstr(p, "@KEYED@")); p = m + 7) {
        memcpy(w, p, (size_t)(m - p));
        w += m - p;
        w += sprintf(w, "%s", suffix);
    }
    strcpy(w, p);
    return out;
}

int schema_ensure(struct fdb *db, char *err, size_t errcap)
{
    struct version_read v = { "", false };
    char want[16], drop[96], *tables = tables_for(db);
    const char *params[2] = { "schema_version", want };
    size_t i;
    snprintf(want, sizeof(want), "%d", FLEET_SCHEMA_VERSION);
    if (!tables) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    if (fdb_exec(db, "BEGIN", 0, NULL) ||
        fdb_exec(db, "CREATE TABLE IF NOT EXISTS fleet_meta (key TEXT PRIMARY KEY, "
                 "value TEXT NOT NULL)", 0, NULL) ||
        read_schema_version(db, &v))
        goto fail;
    if (v.found && strcmp(v.value, "1") == 0) {
        if (fdb_exec(db, upgrade_1_to_2_sql, 0, NULL) ||
            fdb_exec(db, "UPDATE fleet_meta SET value = $2 WHERE key = $1", 2, params))
            goto fail;
    } else if (v.found && strcmp(v.value, want) != 0) {
        snprintf(err, errcap, "the database holds fleet schema version %s; this tool\n"
                 "  writes version %s (import into a new database)", v.value, want);
        fdb_exec(db, "ROLLBACK", 0, NULL);
        free(tables);
        return -1;
    }
    if (fdb_exec(db, tables, 0, NULL) ||
        (!v.found &&
         fdb_exec(db, "INSERT INTO fleet_meta (key, value) VALUES ($1, $2)", 2, params)))
        goto fail;
    for (i = 0; i < sizeof(view_names) / sizeof(view_names[0]); i++) {
        snprintf(drop, sizeof(drop), "DROP VIEW IF EXISTS %s", view_names[i]);
        if (fdb_exec(db, drop, 0, NULL))
            goto fail;
    }
    if (fdb_exec(db, views_sql, 0, NULL) || fdb_exec(db, "COMMIT", 0, NULL))
        goto fail;
    free(tables);
    return 0;
fail:
    snprintf(err, errcap, "creating the schema: %s", fdb_error(db));
    fdb_exec(db, "ROLLBACK", 0, NULL);
    free(tables);
    return -1;
}

int schema_check(struct fdb *db, const char *target, char *err, size_t errcap)
{
    struct version_read v = { "", false };
    if (read_schema_version(db, &v)) {
        snprintf(err, errcap, "not a fleet database: it has no fleet_meta table\n"
                 "  (%s; tlbscope-report import creates one)", fdb_error(db));
        return -1;
    }
    if (!v.found || atoi(v.value) > FLEET_SCHEMA_VERSION) {
        snprintf(err, errcap, "fleet schema version %s; this tool reads version %d\n"
                 "  (a newer tlbscope-report wrote it)", v.found ? v.value : "unknown",
                 FLEET_SCHEMA_VERSION);
        return -1;
    }
    if (atoi(v.value) < FLEET_SCHEMA_VERSION) {
        snprintf(err, errcap, "fleet schema version %s; this tool reads version %d:\n"
                 "  tlbscope-report import --db %s of any report (one already in\n"
                 "  it will do) upgrades it", v.value, FLEET_SCHEMA_VERSION,
                 fdb_is_postgresql_uri(target) ? "URI" : target);
        return -1;
    }
    return 0;
}
