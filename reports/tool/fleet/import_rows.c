/*
 * One report's rows in the fleet database (import.h), sent as they are made:
 * the points of a large report are read one at a time (split.h) and their
 * rows go out in batches of FDB_BATCH_ROWS, so memory does not grow with the
 * report.
 */
#include "reports/tool/fleet/import_rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/mutant.h"
#include "core/lib/sha256.h"
#include "reports/tool/fleet/cells.h"
#include "reports/tool/fleet/headline.h"
#include "reports/tool/fleet/run_key.h"
#include "reports/tool/model/jget.h"

#define KEY_COLS "run_key, exp_index, section, point_index"

void import_short_run(const char *run_key, char out[18])
{
    snprintf(out, 18, "r%.16s", run_key);
}

/*
 * A machine's ID: "M" + 12 hex digits of SHA-256 over what identifies it.
 * The serial number and UUID when the report has them (tokens in a redacted
 * report: a keyed redaction keeps one machine one ID, and nothing identifying
 * is added); otherwise the machine's kind (QEMU's SMBIOS has no serial
 * number: every QEMU run of one product is one "machine"); a simulated run's
 * machine is the model's profile.
 */
static const char *machine_of(const struct m_report *r, char id[14], char *basis, size_t cap)
{
    uint8_t d[SHA256_DIGEST_LEN];
    const char *kind;
    if (r->simulated) {
        kind = "simulated";
        snprintf(basis, cap, "sim\n%s\n%s", r->sim.profile ? r->sim.profile : "",
                 r->sim.model ? r->sim.model : "");
    } else if (r->machine_key) {
        kind = !r->redacted ? "serial_uuid" : r->redaction_keyed ? "redacted_keyed"
                                                                 : "redacted_random";
        snprintf(basis, cap, "id\n%s", r->machine_key);
    } else {
        kind = "kind_only";
        snprintf(basis, cap, "kind\n%s\n%s\n%s\n%s", r->sys_manufacturer ? r->sys_manufacturer : "",
                 r->sys_product ? r->sys_product : "", r->board_product ? r->board_product : "",
                 r->brand ? r->brand : "");
    }
    sha256(basis, strlen(basis), d);
    id[0] = 'M';
    run_key_hex(d, 6, id + 1);
    return kind;
}

/* The atlas's column: the CPUID brand string, trimmed; vendor and signature without one. */
static void cpu_model_of(const struct m_report *r, char *out, size_t cap)
{
    const char *b = r->brand ? r->brand : "";
    size_t n;
    while (*b == ' ')
        b++;
    n = strlen(b);
    while (n && b[n - 1] == ' ')
        n--;
    if (n)
        snprintf(out, cap, "%.*s", (int)n, b);
    else
        snprintf(out, cap, "%s family %lld model %lld", r->vendor ? r->vendor : "unknown CPU",
                 r->family, r->model);
}

struct import_ctx {
    struct fdb *db;
    const struct m_report *r;
    const struct vpoints *points;
    const char *run_key;
    struct headline_scan heads_seen;
    struct fdb_batch cpus, experiments, points_rows, params, metrics, values, recs, conds, heads;
};

static void add_point(struct import_ctx *x, long long exp_index, const char *section,
                      long long index, const json_t *point)
{
    const json_t *params = json_object_get(point, "params");
    const json_t *metrics = json_object_get(point, "metrics");
    const json_t *values = json_object_get(point, "values");
    const char *k;
    const json_t *v;
    struct cells c;
    char *ptext = json_dumps(params ? params : json_object(), JSON_COMPACT | JSON_SORT_KEYS);
    cells_reset(&c);
    cells_text(&c, x->run_key);
    cells_int(&c, exp_index);
    cells_text(&c, section);
    cells_int(&c, index);
    cells_text(&c, ptext ? ptext : "{}");
    fdb_batch_row(&x->points_rows, c.v);
    free(ptext);
    json_object_foreach((json_t *)params, k, v) {
        c.n = 4;
        cells_text(&c, k);
        cells_text(&c, json_is_string(v) ? json_string_value(v) : NULL);
        cells_num(&c, json_is_number(v) ? json_number_value(v) : NAN);
        fdb_batch_row(&x->params, c.v);
    }
    if (MUTANT(fleet_points_dropped))
        metrics = NULL;
    json_object_foreach((json_t *)metrics, k, v) {
        double n = jget_number(v, "n", NAN);
        const json_t *ci = jget_object(v, "p50_ci95");
        c.n = 4;
        cells_text(&c, k);
        cells_num(&c, n);
        cells_num(&c, jget_number(v, "min", NAN));
        cells_num(&c, jget_number(v, "p50", NAN));
        /* SCHEMA.md: no p90 below 10 samples, no p99 below 100, whatever an old file holds */
        cells_num(&c, n >= 10 ? jget_number(v, "p90", NAN) : NAN);
        cells_num(&c, n >= 100 ? jget_number(v, "p99", NAN) : NAN);
        cells_num(&c, jget_number(v, "max", NAN));
        cells_num(&c, jget_number(v, "mean", NAN));
        /* schema 3: the p50's 95% interval; absent before */
        cells_num(&c, jget_number(ci, "low", NAN));
        cells_num(&c, jget_number(ci, "high", NAN));
        fdb_batch_row(&x->metrics, c.v);
    }
    json_object_foreach((json_t *)values, k, v) {
        c.n = 4;
        cells_text(&c, k);
        cells_num(&c, json_is_number(v) ? json_number_value(v) : NAN);
        fdb_batch_row(&x->values, c.v);
    }
}

static void add_conditions(struct import_ctx *x, long long exp_index, const json_t *cond)
{
    struct cells c;
    char *text;
    if (!json_is_object(cond))
        return;
    text = json_dumps(cond, JSON_COMPACT | JSON_SORT_KEYS);
    cells_reset(&c);
    cells_text(&c, x->run_key);
    cells_int(&c, exp_index);
    cells_text(&c, jget_string(jget_object(cond, "smi"), "source"));
    cells_num(&c, jget_number(jget_object(cond, "smi"), "count", NAN));
    cells_num(&c, jget_number(jget_object(cond, "clock"), "effective_mhz", NAN));
    cells_text(&c, jget_string(jget_object(cond, "clock"), "boost"));
    cells_text(&c, jget_string(cond, "smt"));
    cells_text(&c, jget_string(cond, "target_wait"));
    cells_text(&c, text ? text : "{}");
    fdb_batch_row(&x->conds, c.v);
    free(text);
}

/* An experiment's points, read one at a time where the file still holds them. */
static void add_points(struct import_ctx *x, size_t exp_index, const json_t *e, const char *section)
{
    const json_t *a = json_object_get(e, section), *pt;
    size_t k;
    for (k = 0; k < json_array_size(a); k++) {
        pt = x->points ? x->points->at(x->points->ctx, exp_index, section, k) : NULL;
        pt = pt ? pt : json_array_get(a, k);
        add_point(x, (long long)exp_index, section, (long long)k, pt);
        headline_scan_point(&x->heads_seen, exp_index, section, pt);
    }
}

static void add_experiments(struct import_ctx *x)
{
    const json_t *exps = json_object_get(x->r->root, "experiments"), *e;
    size_t i;
    json_array_foreach(exps, i, e) {
        const json_t *ver = jget_object(e, "verification");
        struct cells c;
        cells_reset(&c);
        cells_text(&c, x->run_key);
        cells_int(&c, (long long)i);
        cells_text(&c, jget_string(e, "id"));
        cells_text(&c, jget_string(e, "title"));
        cells_text(&c, jget_string(e, "status"));
        cells_text(&c, jget_string(e, "reason"));
        cells_bool(&c, jget_bool(e, "emulated", false) || x->r->machine_emulated);
        cells_bool(&c, jget_bool(e, "partial", false));
        cells_num(&c, jget_number(e, "duration_ms", NAN));
        cells_num(&c, jget_number(ver, "checks", NAN));
        cells_num(&c, jget_number(ver, "stale_reads", NAN));
        fdb_batch_row(&x->experiments, c.v);
        add_points(x, i, e, "results");
        add_points(x, i, e, "summary");
        add_conditions(x, (long long)i, json_object_get(e, "conditions"));
    }
}

static void add_recommendations(struct import_ctx *x)
{
    const json_t *recs = json_object_get(x->r->root, "recommendations");
    const json_t *e;
    size_t i;
    json_array_foreach(json_object_get(recs, "entries"), i, e) {
        const json_t *iv = jget_object(e, "interval");
        struct cells c;
        cells_reset(&c);
        cells_text(&c, x->run_key);
        cells_int(&c, (long long)i);
        cells_text(&c, jget_string(e, "id"));
        cells_text(&c, jget_string(e, "status"));
        cells_num(&c, jget_number(e, "value", NAN));
        cells_text(&c, jget_string(e, "unit"));
        cells_num(&c, jget_number(e, "cpus_from", NAN));
        cells_text(&c, jget_string(e, "confidence"));
        cells_text(&c, jget_string(e, "environment"));
        cells_bool(&c, jget_bool(e, "describes_hardware", false));
        cells_text(&c, jget_string(e, "verdict"));
        cells_text(&c, jget_string(jget_object(e, "evidence"), "experiment"));
        cells_num(&c, jget_number(iv, "low", NAN));
        cells_num(&c, jget_number(iv, "high", NAN));
        cells_text(&c, jget_string(iv, "of"));
        cells_text(&c, jget_string(iv, "unit"));
        fdb_batch_row(&x->recs, c.v);
    }
}

static void add_cpus(struct import_ctx *x)
{
    size_t i;
    for (i = 0; i < x->r->ncpus; i++) {
        const struct m_cpu *p = &x->r->cpus[i];
        struct cells c;
        if (p->index < 0)
            continue;
        cells_reset(&c);
        cells_text(&c, x->run_key);
        cells_int(&c, p->index);
        cells_opt_int(&c, p->apic_id);
        cells_opt_int(&c, p->package);
        cells_opt_int(&c, p->core);
        cells_opt_int(&c, p->thread);
        cells_opt_int(&c, p->numa_node);
        cells_bool(&c, p->bsp);
        cells_text(&c, p->state);
        fdb_batch_row(&x->cpus, c.v);
    }
}

static void add_headline(void *ctx, const struct headline *h)
{
    struct import_ctx *x = ctx;
    struct cells c;
    cells_reset(&c);
    cells_text(&c, x->run_key);
    cells_text(&c, h->figure);
    cells_text(&c, h->cls);
    cells_text(&c, h->environment);
    cells_num(&c, h->value);
    cells_text(&c, h->unit);
    cells_num(&c, h->value_ns);
    cells_text(&c, h->detail);
    fdb_batch_row(&x->heads, c.v);
}

static void batches_init(struct import_ctx *x)
{
    struct fdb *db = x->db;
    fdb_batch_init(&x->cpus, db, "cpus", "run_key, cpu_index, apic_id, package, core, thread, "
                   "numa_node, bsp, state", 9);
    fdb_batch_init(&x->experiments, db, "experiments", "run_key, exp_index, experiment, title, "
                   "status, reason, emulated, partial, duration_ms, verification_checks, "
                   "stale_reads", 11);
    fdb_batch_init(&x->points_rows, db, "points", KEY_COLS ", params", 5);
    fdb_batch_init(&x->params, db, "point_params", KEY_COLS ", name, text_value, num_value", 7);
    fdb_batch_init(&x->metrics, db, "point_metrics", KEY_COLS ", metric, n, min, p50, p90, "
                   "p99, max, mean, p50_ci95_low, p50_ci95_high", 14);
    fdb_batch_init(&x->values, db, "point_values", KEY_COLS ", name, value", 6);
    fdb_batch_init(&x->recs, db, "recommendations", "run_key, rec_index, recommendation, "
                   "status, value, unit, cpus_from, confidence, environment, "
                   "describes_hardware, verdict, evidence_experiment, interval_low, "
                   "interval_high, interval_of, interval_unit", 16);
    fdb_batch_init(&x->conds, db, "conditions", "run_key, exp_index, smi_source, smi_count, "
                   "effective_mhz, boost, smt, target_wait, conditions_json", 9);
    fdb_batch_init(&x->heads, db, "headlines", "run_key, figure, class, environment, value, "
                   "unit, value_ns, detail", 8);
}

static struct fdb_batch *batch_at(struct import_ctx *x, size_t i)
{
    struct fdb_batch *all[] = { &x->cpus, &x->experiments, &x->points_rows, &x->params,
                                &x->metrics, &x->values, &x->recs, &x->conds, &x->heads };
    return i < sizeof(all) / sizeof(all[0]) ? all[i] : NULL;
}

static void now_utc(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int insert_run(struct import_ctx *x, const char *machine_id, const char *identity_kind,
                      const char *cpu_model, const char *env, const char *json_text,
                      const char *source_name)
{
    const struct m_report *r = x->r;
    struct cells c;
    char when[32], run[18];
    cells_reset(&c);
    cells_text(&c, machine_id);
    cells_text(&c, identity_kind);
    cells_text(&c, r->sys_manufacturer);
    cells_text(&c, r->sys_product);
    cells_text(&c, r->board_product);
    cells_text(&c, r->serial); /* a redacted report's tokens: it stays redacted */
    cells_text(&c, r->uuid);
    if (fdb_exec(x->db, "INSERT INTO machines (machine_id, identity_kind, manufacturer, product, "
                 "board, serial, uuid) VALUES ($1, $2, $3, $4, $5, $6, $7) "
                 "ON CONFLICT (machine_id) DO NOTHING", c.n, c.v))
        return -1;
    cells_reset(&c);
    cells_text(&c, cpu_model);
    cells_text(&c, r->vendor);
    cells_text(&c, r->brand);
    cells_opt_int(&c, r->family);
    cells_opt_int(&c, r->model);
    cells_opt_int(&c, r->stepping);
    cells_text(&c, r->signature);
    if (fdb_exec(x->db, "INSERT INTO cpu_models (cpu_model, vendor, brand, family, model, "
                 "stepping, signature) VALUES ($1, $2, $3, $4, $5, $6, $7) "
                 "ON CONFLICT (cpu_model) DO NOTHING", c.n, c.v))
        return -1;
    now_utc(when);
    cells_reset(&c);
    cells_text(&c, x->run_key);
    cells_text(&c, machine_id);
    cells_text(&c, cpu_model);
    cells_text(&c, env);
    cells_text(&c, r->run_id);
    cells_text(&c, r->start_time);
    cells_text(&c, r->result);
    cells_text(&c, r->run_status);
    cells_num(&c, r->duration_ms);
    cells_text(&c, r->hypervisor);
    cells_text(&c, r->emulator);
    cells_text(&c, r->simulated ? r->sim.profile : NULL);
    cells_text(&c, r->simulated ? r->sim.model : NULL);
    cells_opt_int(&c, r->simulated ? r->sim.model_version : -1);
    cells_opt_int(&c, r->simulated ? r->sim.seed : -1);
    cells_text(&c, r->microcode);
    cells_text(&c, r->bios_version);
    cells_text(&c, r->bios_date);
    cells_num(&c, r->tsc_hz > 0 ? r->tsc_hz : NAN);
    cells_opt_int(&c, r->cpu_count);
    cells_opt_int(&c, r->cpus_ok);
    cells_text(&c, r->apic_mode);
    cells_text(&c, r->page_flush);
    cells_text(&c, r->full_flush);
    cells_text(&c, r->profile);
    cells_opt_int(&c, r->samples);
    cells_opt_int(&c, r->flush_ceiling);
    cells_text(&c, r->gen_version);
    cells_text(&c, r->gen_commit);
    cells_int(&c, jget_int(r->root, "schema_version", -1));
    cells_bool(&c, r->redacted);
    cells_text(&c, source_name);
    cells_text(&c, when);
    cells_text(&c, json_text);
    import_short_run(x->run_key, run);
    cells_text(&c, MUTANT(fleet_run_id_unstored) ? x->run_key : run);
    return fdb_exec(x->db, "INSERT INTO runs (run_key, machine_id, cpu_model, environment, "
                    "report_run_id, start_time, result, run_status, duration_ms, hypervisor, "
                    "emulator, sim_profile, sim_model, sim_model_version, sim_seed, microcode, "
                    "bios_version, bios_date, tsc_hz, cpu_count, cpus_ok, apic_mode, page_flush, "
                    "full_flush, profile, samples, flush_ceiling, generator_version, "
                    "generator_commit, schema_version, redacted, source_name, imported_at, "
                    "report_json, run) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
                    "$13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, "
                    "$28, $29, $30, $31, $32, $33, $34, $35)", c.n, c.v);
}

int import_store(struct fdb *db, const struct import_report *in, char machine_id[14],
                 char *cpu_model, size_t model_cap)
{
    struct import_ctx x;
    char basis[1024];
    const struct m_report *r = in->r;
    const char *identity_kind = machine_of(r, machine_id, basis, sizeof(basis));
    const char *env = headline_run_environment(r);
    struct fdb_batch *b;
    size_t i;
    int rc;
    memset(&x, 0, sizeof(x));
    x.db = db;
    x.r = r;
    x.points = in->points;
    x.run_key = in->run_key;
    cpu_model_of(r, cpu_model, model_cap);
    fdb_batches_begin(db);
    batches_init(&x);
    /* the run first (its rows refer to it), then every row, sent as the batches fill */
    rc = fdb_exec(db, "BEGIN", 0, NULL) ||
         insert_run(&x, machine_id, identity_kind, cpu_model, env, in->json_text,
                    in->source_name);
    headline_scan_init(&x.heads_seen, r);
    if (!rc) {
        add_cpus(&x);
        add_experiments(&x);
        add_recommendations(&x);
        headline_scan_emit(&x.heads_seen, env, add_headline, &x);
    }
    headline_scan_free(&x.heads_seen);
    for (i = 0; (b = batch_at(&x, i)); i++) {
        if (!rc && fdb_batch_flush(b))
            rc = -1;
        fdb_batch_free(b);
    }
    if (!rc)
        rc = fdb_exec(db, "COMMIT", 0, NULL);
    if (rc) {
        char keep[sizeof(db->error)];
        memcpy(keep, db->error, sizeof(keep));
        fdb_exec(db, "ROLLBACK", 0, NULL);
        memcpy(db->error, keep, sizeof(keep));
    }
    return rc;
}
