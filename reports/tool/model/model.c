/*
 * A report's JSON built into the C structures of model.h (model_build) and
 * freed; what asks a built model (lookups, values as text) is
 * model_query.c's.
 */
#include "reports/tool/model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/redact.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/model/json_arena.h"

static void build_stats(const json_t *o, struct m_stats *st)
{
    memset(st, 0, sizeof(*st));
    st->p50_lo = st->p50_hi = NAN;
    if (!json_is_object(o))
        return;
    st->present = true;
    st->n = jget_number(o, "n", NAN);
    st->min = jget_number(o, "min", NAN);
    st->p50 = jget_number(o, "p50", NAN);
    st->p90 = jget_number(o, "p90", NAN);
    st->p99 = jget_number(o, "p99", NAN);
    st->max = jget_number(o, "max", NAN);
    st->mean = jget_number(o, "mean", NAN);
    {
        const json_t *ci = jget_object(o, "p50_ci95");
        st->p50_lo = ci ? jget_number(ci, "low", NAN) : NAN;
        st->p50_hi = ci ? jget_number(ci, "high", NAN) : NAN;
        if (!(st->p50_lo <= st->p50_hi)) /* a broken interval is no interval */
            st->p50_lo = st->p50_hi = NAN;
    }
    /*
     * p90 from 10 samples, p99 from 100 (core/lib/stats.h): below that nearest
     * rank gives the maximum. Reports before issue 20 hold them anyway;
     * every view reads them from here, so none shows one.
     */
    if (!(st->n >= 10))
        st->p90 = NAN;
    if (!(st->n >= 100))
        st->p99 = NAN;
}

static bool build_point(const json_t *o, struct m_point *p)
{
    const json_t *params = jget_object(o, "params"), *metrics = jget_object(o, "metrics"),
                 *values = jget_object(o, "values"), *v;
    const char *key;
    size_t n;
    memset(p, 0, sizeof(*p));
    p->class_mix = jget_object(o, "class_mix");
    if ((n = json_object_size(params))) {
        if (!(p->params = calloc(n, sizeof(*p->params))))
            return false;
        json_object_foreach((json_t *)params, key, v) {
            struct m_param *mp = &p->params[p->nparams];
            if (!json_is_string(v) && !json_is_number(v))
                continue;
            mp->key = key;
            mp->str = json_is_string(v) ? json_string_value(v) : NULL;
            mp->num = json_is_number(v) ? json_number_value(v) : NAN;
            p->nparams++;
        }
    }
    if ((n = json_object_size(metrics))) {
        if (!(p->metrics = calloc(n, sizeof(*p->metrics))))
            return false;
        json_object_foreach((json_t *)metrics, key, v) {
            if (!json_is_object(v))
                continue;
            p->metrics[p->nmetrics].name = key;
            build_stats(v, &p->metrics[p->nmetrics].st);
            p->nmetrics++;
        }
    }
    if ((n = json_object_size(values))) {
        if (!(p->values = calloc(n, sizeof(*p->values))))
            return false;
        json_object_foreach((json_t *)values, key, v) {
            if (!json_is_number(v))
                continue;
            p->values[p->nvalues].key = key;
            p->values[p->nvalues].v = json_number_value(v);
            p->nvalues++;
        }
    }
    return true;
}

static void free_point(struct m_point *p)
{
    free(p->params);
    free(p->metrics);
    free(p->values);
}

static bool build_points(const json_t *a, struct m_points *out)
{
    size_t i, n = json_array_size(a);
    out->count = 0;
    out->items = NULL;
    if (!n)
        return true;
    if (!(out->items = calloc(n, sizeof(*out->items))))
        return false;
    for (i = 0; i < n; i++) {
        const json_t *o = json_array_get(a, i);
        if (!json_is_object(o))
            continue;
        if (!build_point(o, &out->items[out->count])) {
            free_point(&out->items[out->count]);
            return false;
        }
        out->count++;
    }
    return true;
}

static void free_points(struct m_points *l)
{
    size_t i;
    for (i = 0; i < l->count; i++)
        free_point(&l->items[i]);
    free(l->items);
}

static bool build_experiment(const json_t *o, struct m_experiment *e)
{
    const json_t *axes = jget_object(o, "axes"), *v = jget_object(o, "verification");
    memset(e, 0, sizeof(*e));
    e->id = jget_string(o, "id");
    e->title = jget_string(o, "title");
    e->status = jget_string(o, "status");
    e->reason = jget_string(o, "reason");
    e->x_axis = jget_string(axes, "x");
    e->series = jget_string(axes, "series");
    e->emulated = jget_bool(o, "emulated", false);
    e->partial = jget_bool(o, "partial", false);
    e->duration_ms = jget_number(o, "duration_ms", NAN);
    e->verif_applicable = jget_bool(v, "applicable", false);
    e->checks = jget_number(v, "checks", NAN);
    e->stale_reads = jget_number(v, "stale_reads", NAN);
    e->notes = jget_array(o, "notes");
    e->json = o;
    return build_points(jget_array(o, "results"), &e->results) &&
           build_points(jget_array(o, "summary"), &e->summary);
}

static bool build_cpus(struct m_report *r, const json_t *topo)
{
    const json_t *a = jget_array(topo, "cpus");
    size_t i, n = json_array_size(a);
    if (!n)
        return true;
    if (!(r->cpus = calloc(n, sizeof(*r->cpus))))
        return false;
    for (i = 0; i < n; i++) {
        const json_t *o = json_array_get(a, i);
        struct m_cpu *c = &r->cpus[r->ncpus];
        if (!json_is_object(o))
            continue;
        c->index = jget_int(o, "index", -1);
        c->apic_id = jget_int(o, "apic_id", -1);
        c->package = jget_int(o, "package", -1);
        c->core = jget_int(o, "core", -1);
        c->thread = jget_int(o, "thread", -1);
        c->numa_node = jget_int(o, "numa_node", -1);
        c->bsp = jget_bool(o, "bsp", false);
        c->state = jget_string(o, "state");
        c->note = jget_string(o, "note");
        r->ncpus++;
    }
    return true;
}

/*
 * A report is simulated when it says so, or when it carries a simulation
 * object anyway: the two disagree only in an invalid report, and then the
 * safe reading is the one that never takes the model's numbers for hardware.
 * (A simulated report has no hypervisor, so `virtualised` cannot catch it.)
 */
static void build_simulation(struct m_report *r)
{
    const json_t *s = jget_object(r->root, "simulation");
    r->simulated = jget_bool(r->root, "simulated", false) || s != NULL;
    r->sim.model = jget_string(s, "model");
    r->sim.profile = jget_string(s, "profile");
    r->sim.profile_cpu = jget_string(s, "profile_cpu");
    r->sim.model_version = jget_int(s, "model_version", -1);
    r->sim.seed = jget_int(s, "seed", -1);
    r->sim.tlb_sets = jget_int(s, "tlb_sets", -1);
    r->sim.tlb_ways = jget_int(s, "tlb_ways", -1);
    r->sim.errata = jget_array(s, "errata");
}

/*
 * An emulator that CPUID does not show (Bochs: no hypervisor bit, a real
 * brand string) is named by the harness in run.config.emulator. Every
 * instruction of such a run was emulated, so every experiment is marked as
 * one with emulated instructions is, and the views flag it, warn when it
 * meets hardware and never take it for a machine's numbers. A value other
 * than "none" (even an invalid one) counts as emulated: the safe reading.
 */
static void build_emulator(struct m_report *r)
{
    const json_t *v = jget_path(r->root, "run.config.emulator");
    size_t i;
    r->emulator_recorded = v != NULL;
    r->emulator = json_is_string(v) ? json_string_value(v) : NULL;
    r->machine_emulated = v && !(r->emulator && strcmp(r->emulator, "none") == 0);
    if (!r->machine_emulated)
        return;
    r->emulated = true;
    for (i = 0; i < r->nexperiments; i++)
        r->experiments[i].emulated = true;
}

/* The architecture and aarch64's machine fields (contract A of issue 27). */
static void build_arch(struct m_report *r, const json_t *cpu, const json_t *method)
{
    const char *arch = jget_string(r->root, "architecture");
    r->architecture = arch ? arch : "x86_64";
    r->aarch64 = strcmp(r->architecture, "aarch64") == 0;
    if (!r->aarch64)
        return;
    r->fw_vendor = jget_string(jget_path(r->root, "firmware.uefi"), "vendor");
    r->fw_revision = jget_string(jget_path(r->root, "firmware.uefi"), "revision");
    r->midr = jget_string(cpu, "midr");
    r->implementer = jget_string(cpu, "implementer");
    r->implementer_name = jget_string(cpu, "implementer_name");
    r->hypervisor_source = jget_string(cpu, "hypervisor_source");
    r->exception_level = jget_int(cpu, "exception_level", -1);
    r->psci_conduit = jget_string(method, "psci_conduit");
    r->ipi_method = jget_string(method, "ipi");
    r->tlbi_el = jget_string(method, "tlbi_el");
    r->gic_version = jget_int(method, "gic_version", -1);
    /* the experiments' counter_ticks: CNTVCT_EL0 at CNTFRQ_EL0 */
    r->tsc_hz = jget_number(cpu, "counter_hz", 0);
    if (!(r->tsc_hz > 0) || !isfinite(r->tsc_hz))
        r->tsc_hz = 0;
    r->tsc_source = jget_string(cpu, "counter_source");
    /* aarch64's method has no profile or samples: the run's configuration holds them */
    r->samples = jget_int(jget_path(r->root, "run.config"), "samples", -1);
    r->profile = jget_string(jget_path(r->root, "run.config"), "profile");
}

static void build_identity(struct m_report *r)
{
    const json_t *root = r->root, *run = jget_object(root, "run"), *gen = jget_object(root, "generator");
    const json_t *fw = jget_object(root, "firmware"), *sm = jget_object(fw, "smbios");
    const json_t *cpu = jget_object(root, "cpu"), *topo = jget_object(root, "topology");
    const json_t *method = jget_object(root, "method"), *mc = jget_object(cpu, "microcode");
    r->run_id = jget_string(run, "id");
    r->result = jget_string(root, "result");
    r->run_status = jget_string(run, "status");
    r->start_time = jget_string(run, "start_time");
    r->duration_ms = jget_number(run, "duration_ms", NAN);
    r->errors = jget_array(run, "errors");
    r->warnings = jget_array(run, "warnings");
    r->gen_version = jget_string(gen, "version");
    r->gen_commit = jget_string(gen, "commit");
    r->fw_vendor = jget_string(fw, "vendor");
    r->fw_revision = jget_string(fw, "revision");
    r->uefi_version = jget_string(fw, "uefi_version");
    r->secure_boot = jget_string(fw, "secure_boot");
    r->bios_vendor = jget_string(jget_object(sm, "bios"), "vendor");
    r->bios_version = jget_string(jget_object(sm, "bios"), "version");
    r->bios_date = jget_string(jget_object(sm, "bios"), "date");
    r->sys_manufacturer = jget_string(jget_object(sm, "system"), "manufacturer");
    r->sys_product = jget_string(jget_object(sm, "system"), "product");
    r->board_product = jget_string(jget_object(sm, "board"), "product");
    r->vendor = jget_string(cpu, "vendor");
    r->brand = jget_string(cpu, "brand");
    r->signature = jget_string(cpu, "signature");
    r->family = jget_int(cpu, "family", -1);
    r->model = jget_int(cpu, "model", -1);
    r->stepping = jget_int(cpu, "stepping", -1);
    r->microcode = jget_string(mc, "revision");
    r->microcode_uniform = jget_bool(mc, "uniform", true);
    r->features = jget_object(cpu, "features");
    r->hypervisor = jget_string(cpu, "hypervisor");
    r->virtualised = r->hypervisor != NULL;
    r->tsc_hz = jget_number(cpu, "tsc_hz", 0);
    if (!(r->tsc_hz > 0) || !isfinite(r->tsc_hz))
        r->tsc_hz = 0;
    r->tsc_source = jget_string(cpu, "tsc_source");
    r->cpu_count = jget_int(topo, "cpu_count", -1);
    r->cpus_ok = jget_int(topo, "cpus_ok", -1);
    r->mp_note = jget_string(topo, "mp_note");
    r->apic_mode = jget_string(method, "apic_mode");
    r->page_flush = jget_string(method, "page_flush");
    r->full_flush = jget_string(method, "full_flush");
    r->profile = jget_string(method, "profile");
    r->pcid_enabled = jget_bool(method, "pcid_enabled", false);
    r->flush_ceiling = jget_int(method, "flush_ceiling", -1);
    r->samples = jget_int(method, "samples", -1);
    build_arch(r, cpu, method);
}

static const char *nonempty_string(const json_t *v)
{
    return json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
}

/*
 * Two reports share a machine_key when every identifying field holds the
 * same value in both: the same serial number and UUID, or the same tokens
 * (keyed redaction with one key). Random tokens never match another file's.
 */
static bool build_identity_key(struct m_report *r)
{
    const json_t *rec = jget_object(r->root, "redaction");
    size_t i, len = 0;
    r->serial = nonempty_string(jget_path(r->root, REDACT_FIELD_SYSTEM_SERIAL));
    r->uuid = nonempty_string(jget_path(r->root, REDACT_FIELD_SYSTEM_UUID));
    r->redacted = rec != NULL && jget_bool(rec, "redacted", true);
    r->redaction_keyed = jget_bool(rec, "keyed", false);
    r->redaction_by = jget_string(rec, "by");
    for (i = 0; redact_fields[i]; i++) {
        const char *v = redact_field_is_address(redact_fields[i])
                            ? NULL /* a lease, not the machine */
                            : nonempty_string(jget_path(r->root, redact_fields[i]));
        if (v)
            len += strlen(redact_fields[i]) + strlen(v) + 2;
    }
    if (!len || r->simulated) /* whatever a model's firmware says, no machine stands behind it */
        return true;
    if (!(r->machine_key = malloc(len + 1)))
        return false;
    r->machine_key[0] = '\0';
    for (i = 0; redact_fields[i]; i++) {
        const char *v = redact_field_is_address(redact_fields[i])
                            ? NULL
                            : nonempty_string(jget_path(r->root, redact_fields[i]));
        if (v)
            snprintf(r->machine_key + strlen(r->machine_key), len + 1 - strlen(r->machine_key),
                     "%s=%s\n", redact_fields[i], v);
    }
    return true;
}

static int cmp_by_id(const void *a, const void *b)
{
    const struct m_experiment *x = *(const struct m_experiment *const *)a;
    const struct m_experiment *y = *(const struct m_experiment *const *)b;
    int c = strcmp(x->id, y->id);
    return c ? c : x < y ? -1 : x > y; /* one array: report order */
}

/*
 * compare and html look each experiment up in every report: a linear search
 * made that quadratic in the number of experiments (issue 13, finding 5).
 */
static bool index_experiments(struct m_report *r)
{
    size_t i;
    if (!(r->by_id = malloc((r->nexperiments ? r->nexperiments : 1) * sizeof(*r->by_id))))
        return false;
    for (i = 0; i < r->nexperiments; i++)
        if (r->experiments[i].id)
            r->by_id[r->nby_id++] = &r->experiments[i];
    qsort(r->by_id, r->nby_id, sizeof(*r->by_id), cmp_by_id);
    return true;
}

struct m_report *model_build(json_t *root, const char *path)
{
    struct m_report *r = calloc(1, sizeof(*r));
    const json_t *list;
    size_t i, n;
    if (!r) {
        json_decref(root);
        return NULL;
    }
    r->root = root;
    r->path = strdup(path ? path : "-");
    if (!r->path)
        goto oom;
    build_identity(r);
    build_simulation(r);
    if (!build_identity_key(r))
        goto oom;
    if (!build_cpus(r, jget_object(root, "topology")))
        goto oom;
    list = jget_array(root, "experiments");
    if ((n = json_array_size(list))) {
        if (!(r->experiments = calloc(n, sizeof(*r->experiments))))
            goto oom;
        for (i = 0; i < n; i++) {
            const json_t *o = json_array_get(list, i);
            struct m_experiment *e = &r->experiments[r->nexperiments];
            if (!json_is_object(o))
                continue;
            r->nexperiments++; /* counted first so that model_free releases a half-built one */
            if (!build_experiment(o, e))
                goto oom;
            r->emulated |= e->emulated;
        }
    }
    build_emulator(r);
    if (!index_experiments(r))
        goto oom;
    return r;
oom:
    model_free(r);
    return NULL;
}

void model_free(struct m_report *r)
{
    size_t i;
    if (!r)
        return;
    for (i = 0; i < r->nexperiments; i++) {
        free_points(&r->experiments[i].results);
        free_points(&r->experiments[i].summary);
    }
    free(r->experiments);
    free(r->by_id);
    free(r->cpus);
    free(r->path);
    free(r->machine_key);
    if (!json_arena_installed()) /* else the arena's: walking 4 M values to free none is 0.1 s */
        json_decref(r->root);
    free(r);
}
