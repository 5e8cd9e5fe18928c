#include "reports/tool/show/show.h"
#include "reports/tool/show/conditions_view.h"
#include "reports/tool/show/show_arm64.h"
#include "reports/tool/views/recommend_view.h"

#include <math.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/views/table.h"
#include "reports/tool/show/unrecorded.h"
#include "reports/tool/model/units.h"
#include "reports/tool/views/verdict_view.h"
#include "core/mutant.h"

bool show_wide;

#define S(x) ((x) ? (x) : "?")

static void show_features(const struct m_report *r, FILE *out)
{
    static const char *const shown[] = { "x2apic", "pcid", "invpcid", "invlpgb", "la57",
                                         "invariant_tsc", "pge", "pdpe1gb", "hybrid", NULL };
    size_t i, col = 9;
    char item[64];
    fputs("Features ", out);
    for (i = 0; shown[i]; i++) {
        const json_t *v = json_object_get(r->features, shown[i]);
        if (!json_is_boolean(v))
            continue;
        if (strcmp(shown[i], "invlpgb") == 0 && json_is_true(v))
            snprintf(item, sizeof(item), " %s=yes(max %lld pages)", shown[i],
                     jget_int(r->features, "invlpgb_max_pages", 0));
        else
            snprintf(item, sizeof(item), " %s=%s", shown[i], json_is_true(v) ? "yes" : "no");
        if (col + strlen(item) > (size_t)SHOW_WIDTH - 4) { /* stay within the width */
            fputs("\n         ", out);
            col = 9;
        }
        fputs(item, out);
        col += strlen(item);
    }
    fputc('\n', out);
}

/*
 * Whether the tool ran with PCID, and why (method.pcid_reason: an erratum
 * can turn it off on a CPU that has it). Older reports say only on or off.
 */
static void show_pcid(const struct m_report *r, FILE *out)
{
    const json_t *method = jget_object(r->root, "method");
    const char *why = jget_string(method, "pcid_reason");
    char line[400];
    if (!json_is_boolean(json_object_get(method, "pcid_enabled")))
        return;
    if (why)
        snprintf(line, sizeof(line), "%s", why);
    else
        snprintf(line, sizeof(line), "%s (why: not recorded; the report predates "
                 "method.pcid_reason)", r->pcid_enabled ? "on" : "off");
    units_print_wrapped(out, "PCID      ", "          ", line, SHOW_WIDTH);
}

/* topology.init_sipi (issue 25): the APs the tool started itself, and why */
static void show_init_sipi(const struct m_report *r, FILE *out)
{
    const json_t *o = jget_object(jget_object(r->root, "topology"), "init_sipi");
    const char *why = jget_string(o, "reason"), *exit_to = jget_string(o, "exit");
    char line[400];
    if (!o || !why)
        return;
    snprintf(line, sizeof(line), "%lld of %lld APs started by the tool's own INIT-SIPI (%s); "
             "the machine %s after the run",
             jget_int(o, "arrived", 0), jget_int(o, "requested", 0), why,
             exit_to && strcmp(exit_to, "reset") == 0 ? "was reset" : "powered off");
    units_print_wrapped(out, "NOTE      ", "          ", line, SHOW_WIDTH);
}

/* A simulated report has no hypervisor: only this line tells its numbers are the model's. */
static void show_simulation(const struct m_report *r, FILE *out)
{
    char line[400], what[240], errata[200];
    const json_t *sim = jget_object(r->root, "simulation");
    const char *ucode = jget_string(sim, "microcode");
    if (!r->simulated)
        return;
    fputs("WARNING   simulated by tlbscope-sim: timings are the model's, not hardware's\n", out);
    model_simulation_text(r, what, sizeof(what));
    units_print_wrapped(out, "          ", "          ", what, SHOW_WIDTH);
    if (ucode) {
        snprintf(line, sizeof(line), "modelled microcode %s, from %s", ucode,
                 S(jget_string(sim, "microcode_source")));
        units_print_wrapped(out, "          ", "          ", line, SHOW_WIDTH);
    }
    if (model_errata_text(r, errata, sizeof(errata))[0]) {
        /* with a microcode, an erratum may be the modelled CPU's own at that revision */
        snprintf(line, sizeof(line), "errata modelled: %s (the model misbehaves on purpose%s)",
                 errata, ucode ? ", or as the CPU does with this microcode" : "");
        units_print_wrapped(out, "          ", "          ", line, SHOW_WIDTH);
    }
}

/*
 * The serial number and UUID: on a local terminal they help tell machines
 * apart; compare and html never print them. A hint says how to share the
 * report without them.
 */
static void show_identity(const struct m_report *r, FILE *out)
{
    char line[400];
    if (!r->serial && !r->uuid && !r->redacted)
        return;
    snprintf(line, sizeof(line), "%s%s%s%s%s%s", r->redacted ? "redacted: " : "",
             r->serial ? "serial " : "", r->serial ? r->serial : "",
             r->serial && r->uuid ? ", " : "", r->uuid ? "UUID " : "", r->uuid ? r->uuid : "");
    if (r->redacted)
        snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s(%s tokens, by %s)",
                 r->serial || r->uuid ? " " : "no identifier recorded ",
                 r->redaction_keyed ? "keyed" : "random", S(r->redaction_by));
    else
        snprintf(line + strlen(line), sizeof(line) - strlen(line), " (they identify this "
                 "machine: `tlbscope-report redact` writes a copy without them, to share)");
    units_print_wrapped(out, "Identity  ", "          ", line, SHOW_WIDTH);
}

/*
 * An emulator without a hypervisor bit (Bochs) looks like hardware: only
 * run.config.emulator says otherwise. A report from before that key says
 * nothing either way, and the line says so rather than guess.
 */
static void show_emulator(const struct m_report *r, FILE *out)
{
    char line[300];
    if (r->machine_emulated) {
        snprintf(line, sizeof(line), "emulated machine: emulator %s (run.config.emulator); every "
                 "instruction ran on the emulator's CPU, these are not hardware timings",
                 S(r->emulator));
        units_print_wrapped(out, "WARNING   ", "          ", line, SHOW_WIDTH);
    } else if (!r->emulator_recorded && !r->simulated) {
        units_print_wrapped(out, "Emulator  ", "          ", "not recorded (run.config.emulator "
                            "is absent: written before the key existed)", SHOW_WIDTH);
    }
}

static void show_x86_machine(const struct m_report *r, FILE *out);
static void show_cpus_run(const struct m_report *r, FILE *out);

static void show_header(const struct m_report *r, FILE *out)
{
    char a[160];
    size_t i;
    snprintf(a, sizeof(a), "%s (tlbscope %s, commit %s)", S(r->run_id), S(r->gen_version),
             S(r->gen_commit));
    units_print_wrapped(out, "tlbscope report ", "          ", a, SHOW_WIDTH);
    units_print_wrapped(out, "File      ", "          ", r->path, SHOW_WIDTH);
    units_print_wrapped(out, "Machine   ", "          ", model_machine_name(r, a, sizeof(a)),
                        SHOW_WIDTH);
    show_identity(r, out);
    if (r->aarch64)
        show_arm64_machine(r, out);
    else
        show_x86_machine(r, out);
    show_cpus_run(r, out);
    if (r->virtualised)
        fprintf(out, "WARNING   virtualised: hypervisor \"%s\"; these are not hardware timings\n",
                r->hypervisor);
    show_simulation(r, out);
    if (!r->aarch64) /* run.config.emulator: the x86 harness's key */
        show_emulator(r, out);
    for (i = 0; i < r->nexperiments && !r->machine_emulated; i++) {
        if (!r->experiments[i].emulated)
            continue;
        snprintf(a, sizeof(a), "emulated: %s ran emulated instructions; not a hardware cost",
                 S(r->experiments[i].id));
        units_print_wrapped(out, "WARNING   ", "          ", a, SHOW_WIDTH);
    }
}

/* Firmware, CPUID, microcode, features, PCID and the TSC of an x86 report. */
static void show_x86_machine(const struct m_report *r, FILE *out)
{
    char b[160];
    snprintf(b, sizeof(b), "%s rev %s, UEFI %s, Secure Boot %s", S(r->fw_vendor),
             S(r->fw_revision), S(r->uefi_version), S(r->secure_boot));
    units_print_wrapped(out, "Firmware  ", "          ", b, SHOW_WIDTH);
    if (r->bios_version)
        units_print_wrapped(out, "BIOS      ", "          ", model_bios_text(r, b, sizeof(b)),
                            SHOW_WIDTH);
    snprintf(b, sizeof(b), "%s, %s family 0x%llx model 0x%llx stepping %lld",
             r->brand ? r->brand : "(no brand string)", S(r->vendor), r->family, r->model,
             r->stepping);
    units_print_wrapped(out, "CPU       ", "          ", b, SHOW_WIDTH);
    fprintf(out, "Microcode %s%s\n", r->microcode ? r->microcode : "unknown",
            r->microcode_uniform ? "" : " (NOT uniform across CPUs)");
    show_features(r, out);
    show_pcid(r, out);
    if (r->tsc_hz > 0)
        fprintf(out, "TSC       %.3f MHz (%s)\n", r->tsc_hz / 1e6, S(r->tsc_source));
    if (r->tsc_hz > 0 && (r->tsc_hz < TSC_HZ_PLAUSIBLE_MIN || r->tsc_hz > TSC_HZ_PLAUSIBLE_MAX))
    {
        snprintf(b, sizeof(b), "a TSC rate of %.0f Hz is not plausible (100 MHz to 10 GHz): the "
                 "times below are wrong by the same factor; the ticks (show --wide, in "
                 "parentheses) are as measured", r->tsc_hz);
        units_print_wrapped(out, "WARNING: ", "         ", b, SHOW_WIDTH);
    }
    else if (!(r->tsc_hz > 0) || MUTANT(show_tsc_else))
        fprintf(out, "TSC       frequency unknown: times are in TSC ticks only\n");
}

/* The CPUs, the run and its order: both architectures. */
static void show_cpus_run(const struct m_report *r, FILE *out)
{
    char a[160], b[160];
    {
        size_t len;
        snprintf(b, sizeof(b), "%lld reported, %lld ok", r->cpu_count, r->cpus_ok);
        len = strlen(b);
        if (r->apic_mode)
            snprintf(b + len, sizeof(b) - len, ", APIC %s", r->apic_mode);
        len = strlen(b);
        if (r->profile)
            snprintf(b + len, sizeof(b) - len, "; profile %s, %lld samples per point", r->profile,
                     r->samples);
        units_print_wrapped(out, "CPUs      ", "          ", b, SHOW_WIDTH);
    }
    if (r->start_time || isfinite(r->duration_ms))
        fprintf(out, "Run       started %s, took %s ms, %s\n", S(r->start_time),
                units_number(r->duration_ms, a, sizeof(a)), S(r->run_status));
    if (!r->aarch64) {
        /* issue 20: the order of each iteration's variants; an older report does not say */
        const char *order = jget_string(jget_object(r->root, "method"), "variant_order");
        double seed = jget_number(jget_object(r->root, "method"), "order_seed", NAN);
        if (order && isfinite(seed))
            fprintf(out, "Order     variants %s, order_seed=%.0f\n",
                    strcmp(order, "random_per_iteration") == 0 ? "in random order per iteration"
                                                               : order, seed);
        else
            units_print_wrapped(out, "Order     ", "          ", "variant order and its seed "
                                "not recorded (report written before they were)", SHOW_WIDTH);
    }
    if (r->mp_note)
        units_print_wrapped(out, "NOTE      ", "          ", r->mp_note, SHOW_WIDTH);
    show_init_sipi(r, out);
}

static void show_cpu_problems(const struct m_report *r, FILE *out)
{
    char line[512];
    size_t i, shown = 0;
    for (i = 0; i < r->ncpus; i++) {
        const struct m_cpu *c = &r->cpus[i];
        if (c->state && (strcmp(c->state, "ok") == 0 || strcmp(c->state, "excluded") == 0))
            continue;
        if (!shown++)
            fputs("\nCPU problems:\n", out);
        snprintf(line, sizeof(line), "CPU %lld (APIC ID %lld, package %lld core %lld thread %lld) "
                 "%s: %s", c->index, c->apic_id, c->package, c->core, c->thread, S(c->state),
                 S(c->note));
        units_print_wrapped(out, "  ", "    ", line, SHOW_WIDTH);
    }
}

static void show_experiment_table(const struct m_report *r, FILE *out)
{
    struct table *t = table_new(6);
    char a[32], b[32], reason[4096];
    size_t i, row, len, room;
    fputc('\n', out);
    if (!r->nexperiments) {
        fputs("No experiments in this report.\n", out);
        table_free(t);
        return;
    }
    table_header(t, 0, "Experiment", false);
    table_header(t, 1, "Status", false);
    table_header(t, 2, "Points", true);
    table_header(t, 3, "Checks", true);
    table_header(t, 4, "Stale", true);
    table_header(t, 5, "Reason / notes", false);
    for (i = 0; i < r->nexperiments; i++) {
        const struct m_experiment *e = &r->experiments[i];
        row = table_add_row(t);
        table_set(t, row, 0, "%s", S(e->id));
        table_set(t, row, 1, "%s", S(e->status));
        table_set(t, row, 2, "%zu", e->results.count);
        table_set(t, row, 3, "%s", units_number(e->checks, a, sizeof(a)));
        table_set(t, row, 4, "%s", units_number(e->stale_reads, b, sizeof(b)));
    }
    /* the whole reason, wrapped in its column so that the table fits the width */
    room = table_text_width(t) - strlen("Reason / notes");
    room = room + 20 < (size_t)SHOW_WIDTH ? (size_t)SHOW_WIDTH - room : 20;
    for (i = 0; i < r->nexperiments; i++) {
        const struct m_experiment *e = &r->experiments[i];
        row = i;
        snprintf(reason, sizeof(reason), "%s%s%s%s", r->simulated ? "[SIMULATED] " : "",
                 e->emulated ? "[EMULATED] " : "", e->partial ? "[PARTIAL] " : "",
                 e->reason ? e->reason : "");
        for (len = strlen(reason); len && reason[len - 1] == ' '; len--) /* a tag and no reason */
            reason[len - 1] = '\0';
        table_set(t, row, 5, "%s", reason);
    }
    table_wrap(t, 5, room); /* a long reason wraps in its column, never cut */
    table_print(t, out, TABLE_TEXT, "");
    table_free(t);
    /* issue 32: an experiment its plan measured on a cut grid says so beside its status */
    for (i = 0; i < r->nexperiments; i++) {
        const struct m_experiment *e = &r->experiments[i];
        const char *d = e->json ? json_string_value(json_object_get(e->json, "status_detail"))
                                : NULL;
        if (d) {
            snprintf(reason, sizeof(reason), "%s: %s (%s)", S(e->id), S(e->status), d);
            units_print_wrapped(out, "  ", "    ", reason, SHOW_WIDTH);
        }
    }
}

static void show_messages(const json_t *list, const char *title, FILE *out)
{
    size_t i;
    if (!json_array_size(list))
        return;
    fprintf(out, "\n%s:\n", title);
    for (i = 0; i < json_array_size(list); i++) {
        const json_t *m = json_array_get(list, i);
        char line[600];
        snprintf(line, sizeof(line), "%s: %s", S(jget_string(m, "where")),
                 S(jget_string(m, "message")));
        units_print_wrapped(out, "  ", "    ", line, SHOW_WIDTH);
    }
}

void show_report(const struct m_report *r, FILE *out)
{
    size_t i;
    show_header(r, out);
    show_cpu_problems(r, out);
    show_experiment_table(r, out);
    for (i = 0; i < r->nexperiments; i++) {
        show_experiment(r, &r->experiments[i], out);
        /* the fields added later are x86's: an aarch64 experiment of the same id never had them */
        if (strcmp(r->architecture, "aarch64") != 0)
            unrecorded_show(&r->experiments[i], out);
        conditions_show(r, &r->experiments[i], out);
    }
    recommend_view_show(r, out);
    show_messages(r->errors, "Errors", out);
    show_messages(r->warnings, "Warnings", out);
    verdict_view_show(r->root, out); /* the last line: COMPLETE, ERROR or FAILURE */
}
