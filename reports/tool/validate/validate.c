#include "reports/tool/validate/validate.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/run/redact.h"
#include "reports/tool/validate/validate_sections.h"
#include "reports/tool/model/vocab.h"

static void validate_messages(struct vctx *c, const json_t *run, const char *key, bool *nonempty)
{
    const json_t *a = vc_member(c, run, key, VT_ARRAY, 0);
    size_t i, mark;
    if (!a)
        return;
    if (nonempty)
        *nonempty = json_array_size(a) > 0;
    mark = jpath_push_key(&c->path, key);
    for (i = 0; i < json_array_size(a); i++) {
        const json_t *m = json_array_get(a, i);
        size_t m2 = jpath_push_index(&c->path, i);
        if (!json_is_object(m)) {
            vc_error(c, NULL, "expected an object {where, message}");
        } else {
            vc_string(c, m, "where", 0);
            vc_string(c, m, "message", 0);
        }
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, mark);
}

static void validate_config(struct vctx *c, const json_t *run)
{
    static const char *const emulate_words[] = { "invlpgb", "invpcid", NULL };
    static const char *const inject_words[] = { "hang", "fault", "slow", "late", "absent",
                                                "no_mp", "mp_fail", "mp_partial", NULL };
    static const char *const counts[] = { "samples", "warmup", "timeout_ms", "budget_s", NULL };
    static const char *const x86_counts[] = { "ceiling", "ipi_pairs", "initiator", NULL };
    /*
     * aarch64 reports written before its run section was x86's (core/report/run_json.c) have
     * only {profile, samples, warmup, timeout_ms, budget_s, run_budget_s, cpus, experiments,
     * exit}: the other keys are optional there, and checked when present
     */
    const unsigned since = c->aarch64 ? VF_OPTIONAL : 0;
    size_t mark, i;
    const json_t *cfg = vc_enter(c, run, "config", 0, &mark), *a;
    if (!cfg)
        return;
    vc_word(c, cfg, "exit", vocab_exit_modes, 0);
    vc_word(c, cfg, "apic", vocab_apic_requests, since);
    vc_word(c, cfg, "mp", vocab_mp_modes, VF_OPTIONAL); /* issue 25 */
    vc_word(c, cfg, "profile", vocab_profiles, 0);
    for (i = 0; counts[i]; i++)
        vc_int(c, cfg, counts[i], 0, LLONG_MAX, 0, NULL);
    for (i = 0; x86_counts[i]; i++)
        vc_int(c, cfg, x86_counts[i], 0, LLONG_MAX, since, NULL);
    vc_bool(c, cfg, "progress", since, NULL);
    vc_bool(c, cfg, "console_json", since, NULL);
    /* added while version 1 was current: absent from the earliest reports */
    vc_bool(c, cfg, "global_pages", VF_OPTIONAL, NULL);
    vc_int(c, cfg, "run_budget_s", 0, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_int(c, cfg, "contention_window_ms", 0, LLONG_MAX, VF_OPTIONAL, NULL); /* issue 20 */
    vc_bool(c, cfg, "pti", VF_OPTIONAL, NULL);
    vc_bool(c, cfg, "redact", VF_OPTIONAL, NULL);
    /* whether a key was given: the key itself is never written */
    vc_bool(c, cfg, "redact_key", VF_OPTIONAL, NULL);
    vc_word(c, cfg, "emulator", vocab_emulators, VF_OPTIONAL);
    vc_bool(c, cfg, "keep_samples", VF_OPTIONAL, NULL); /* issue 31 */
    /* issue 24: absent from earlier reports */
    vc_string(c, cfg, "upload", VF_OPTIONAL | VF_NULLABLE);
    vc_int(c, cfg, "upload_attempts", 1, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_int(c, cfg, "upload_deadline_s", 1, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_string(c, cfg, "cpus", 0);
    vc_string_array(c, cfg, "experiments", 0);
    a = vc_member(c, cfg, "emulate", VT_ARRAY, since);
    for (i = 0; a && i < json_array_size(a); i++) {
        const char *w = json_string_value(json_array_get(a, i));
        size_t m = jpath_push_key(&c->path, "emulate");
        jpath_push_index(&c->path, i);
        if (vocab_index(emulate_words, w) < 0)
            vc_error(c, NULL, "expected \"invlpgb\" or \"invpcid\"");
        jpath_pop(&c->path, m);
    }
    a = vc_member(c, cfg, "inject", VT_ARRAY, since);
    for (i = 0; a && i < json_array_size(a); i++) {
        const json_t *inj = json_array_get(a, i);
        size_t m = jpath_push_key(&c->path, "inject");
        jpath_push_index(&c->path, i);
        if (!json_is_object(inj)) {
            vc_error(c, NULL, "expected an object {kind, cpu[, vector]}");
        } else {
            vc_word(c, inj, "kind", inject_words, 0);
            vc_int(c, inj, "cpu", 0, LLONG_MAX, 0, NULL);
            vc_int(c, inj, "vector", 0, 255, VF_OPTIONAL, NULL);
            vc_int(c, inj, "count", 1, LLONG_MAX, VF_OPTIONAL, NULL); /* mp_partial */
        }
        jpath_pop(&c->path, m);
    }
    vc_leave(c, mark);
}

/* "YYYY-MM-DDTHH:MM:SS", the firmware clock at start (no time zone: UEFI RTCs rarely know it). */
static void validate_start_time(struct vctx *c, const json_t *run)
{
    const char *t = vc_string(c, run, "start_time", VF_NULLABLE);
    unsigned y, mo, d, h, mi, s;
    char tail;
    if (!t)
        return;
    if (strlen(t) != 19 || sscanf(t, "%4u-%2u-%2uT%2u:%2u:%2u%c", &y, &mo, &d, &h, &mi, &s, &tail) != 6 ||
        mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59)
        vc_error(c, "start_time", "\"%.40s\" is not a time YYYY-MM-DDTHH:MM:SS", t);
}

void validate_run(struct vctx *c, const json_t *root, struct vfacts *f)
{
    size_t mark;
    const json_t *run = vc_enter(c, root, "run", 0, &mark);
    if (!run)
        return;
    vc_string(c, run, "id", 0);
    vc_int(c, run, "counter", 0, LLONG_MAX, 0, NULL);
    validate_start_time(c, run);
    vc_bool(c, run, "rtc_plausible", 0, NULL);
    vc_int(c, run, "duration_ms", 0, LLONG_MAX, 0, NULL);
    f->run_status = vc_word(c, run, "status", vocab_run_status, 0);
    vc_string(c, run, "args", 0);
    vc_bool(c, run, "config_file", 0, NULL);
    /* one configuration on every architecture (core/report/run_json.c writes it) */
    validate_network(c, run);
    validate_config(c, run);
    validate_messages(c, run, "errors", &f->has_errors);
    validate_messages(c, run, "warnings", NULL);
    vc_leave(c, mark);
}

static void validate_smbios(struct vctx *c, const json_t *fw)
{
    static const char *const sys_keys[] = { "manufacturer", "product", "version", "serial", NULL };
    static const char *const board_keys[] = { "manufacturer", "product", "version", NULL };
    static const char *const bios_keys[] = { "vendor", "version", "date", NULL };
    size_t mark, m, i;
    const json_t *s = vc_enter(c, fw, "smbios", VF_NULLABLE, &mark), *o, *procs;
    if (!s)
        return;
    vc_string(c, s, "version", 0);
    vc_word(c, s, "entry_point", vocab_smbios_entry_points, 0);
    if ((o = vc_enter(c, s, "bios", 0, &m))) {
        for (i = 0; bios_keys[i]; i++)
            vc_string(c, o, bios_keys[i], 0);
        vc_leave(c, m);
    }
    if ((o = vc_enter(c, s, "system", 0, &m))) {
        const char *uuid;
        for (i = 0; sys_keys[i]; i++)
            vc_string(c, o, sys_keys[i], 0);
        uuid = vc_string(c, o, "uuid", VF_NULLABLE);
        /* a redaction token stands for a UUID (validate_redaction checks it is listed) */
        if (uuid && redact_token_kind(uuid) == REDACT_NOT_TOKEN &&
            (strlen(uuid) != 36 || strspn(uuid, "0123456789abcdefABCDEF-") != 36 ||
             uuid[8] != '-' || uuid[13] != '-' || uuid[18] != '-' || uuid[23] != '-'))
            vc_error(c, "uuid", "\"%.40s\" is not a UUID (8-4-4-4-12 hex digits) or a redaction "
                     "token", uuid);
        vc_leave(c, m);
    }
    if ((o = vc_enter(c, s, "board", 0, &m))) {
        for (i = 0; board_keys[i]; i++)
            vc_string(c, o, board_keys[i], 0);
        vc_leave(c, m);
    }
    procs = vc_member(c, s, "processors", VT_ARRAY, 0);
    m = jpath_push_key(&c->path, "processors");
    for (i = 0; procs && i < json_array_size(procs); i++) {
        const json_t *p = json_array_get(procs, i);
        size_t m2 = jpath_push_index(&c->path, i);
        if (!json_is_object(p)) {
            vc_error(c, NULL, "expected an object");
        } else {
            vc_string(c, p, "socket", 0);
            vc_string(c, p, "manufacturer", 0);
            vc_string(c, p, "version", 0);
            vc_int(c, p, "max_speed_mhz", 0, LLONG_MAX, 0, NULL);
            vc_int(c, p, "cores", 0, LLONG_MAX, 0, NULL);
            vc_int(c, p, "threads", 0, LLONG_MAX, 0, NULL);
        }
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
    vc_leave(c, mark);
}

static void validate_acpi(struct vctx *c, const json_t *fw)
{
    size_t mark;
    const json_t *a = vc_enter(c, fw, "acpi", VF_NULLABLE, &mark);
    if (!a)
        return;
    vc_int(c, a, "rsdp_revision", 0, 255, 0, NULL);
    vc_string(c, a, "oem_id", 0);
    vc_string(c, a, "oem_table_id", 0);
    vc_bool(c, a, "madt", 0, NULL);
    vc_bool(c, a, "srat", 0, NULL);
    vc_bool(c, a, "slit", 0, NULL);
    vc_int(c, a, "madt_cpus_enabled", 0, LLONG_MAX, 0, NULL);
    vc_int(c, a, "numa_nodes", 0, LLONG_MAX, 0, NULL);
    vc_leave(c, mark);
}

void validate_firmware(struct vctx *c, const json_t *root)
{
    size_t mark;
    const json_t *fw = vc_enter(c, root, "firmware", 0, &mark);
    if (!fw)
        return;
    vc_string(c, fw, "vendor", 0);
    vc_hex(c, fw, "revision", 0);
    vc_string(c, fw, "uefi_version", 0);
    vc_word(c, fw, "secure_boot", vocab_secure_boot, 0);
    validate_smbios(c, fw);
    validate_acpi(c, fw);
    vc_leave(c, mark);
}

static void validate_generator(struct vctx *c, const json_t *root)
{
    size_t mark;
    const json_t *g = vc_enter(c, root, "generator", 0, &mark);
    if (!g)
        return;
    vc_string(c, g, "name", 0);
    vc_string(c, g, "version", 0);
    vc_string(c, g, "commit", 0);
    vc_leave(c, mark);
}

/* The invariants of run_conclude() (core/run/run.c) between the result and its parts. */
static void cross_check_result(struct vctx *c, int result, const struct vfacts *f)
{
    if (result < 0)
        return;
    if (f->worst_status > result)
        vc_error(c, "result", "%s is less severe than experiments[%lld].status %s (the most "
                 "severe result wins)", vocab_results[result], f->worst_at,
                 vocab_results[f->worst_status]);
    if (f->has_errors && result < 2)
        vc_error(c, "result", "%s, but run.errors is not empty (errors make the run an ERROR)",
                 vocab_results[result]);
    if (f->troubled_cpu >= 0 && result < 2)
        vc_error(c, "result", "%s, but topology.cpus[%lld] dropped out of the run (ERROR)",
                 vocab_results[result], f->troubled_cpu);
    if (f->run_status == 0 && f->partial_at >= 0)
        diag_add(c->diags, DIAG_ERROR, "run.status", "\"complete\", but experiments[%lld] is partial",
                 f->partial_at);
    if (f->run_status == 0 && f->troubled_cpu >= 0)
        diag_add(c->diags, DIAG_ERROR, "run.status",
                 "\"complete\", but topology.cpus[%lld] dropped out of the run", f->troubled_cpu);
}

size_t validate_report(const json_t *root, struct diag_list *out)
{
    return validate_report_points(root, NULL, out);
}

size_t validate_report_points(const json_t *root, const struct vpoints *points,
                              struct diag_list *out)
{
    struct vctx c;
    struct vfacts f;
    size_t before = out->errors;
    int result, arch;
    memset(&c, 0, sizeof(c));
    memset(&f, 0, sizeof(f));
    c.diags = out;
    c.points = points;
    c.cpu_count = -1;
    f.worst_status = -1;
    f.partial_at = -1;
    f.troubled_cpu = -1;
    f.run_status = -1;
    jpath_init(&c.path);
    if (!json_is_object(root)) {
        vc_error(&c, NULL, "the report is not a JSON object");
        return out->errors - before;
    }
    validate_generator(&c, root);
    if (json_is_integer(json_object_get(root, "schema_version")))
        c.schema_version = json_integer_value(json_object_get(root, "schema_version"));
    /* issue 27: absent in every report written before it, which are x86_64 */
    arch = vc_word(&c, root, "architecture", vocab_architectures, VF_OPTIONAL);
    if (arch < 0 && json_object_get(root, "architecture"))
        return out->errors - before; /* its sections would be read against the wrong schema */
    c.aarch64 = arch == 1;
    result = vc_word(&c, root, "result", vocab_results, 0);
    validate_simulation(&c, root);
    validate_run(&c, root, &f);
    if (c.aarch64) {
        validate_arm64_firmware(&c, root);
        validate_redaction(&c, root);
        validate_arm64_cpu(&c, root);
        validate_arm64_topology(&c, root, &f);
        validate_arm64_method(&c, root);
    } else {
        validate_firmware(&c, root);
        validate_redaction(&c, root);
        validate_cpu(&c, root);
        validate_topology(&c, root, &f);
        validate_method(&c, root);
    }
    validate_experiments(&c, root, &f);
    validate_recommendations(&c, root);
    cross_check_result(&c, result, &f);
    validate_verdict(&c, root);
    return out->errors - before;
}
