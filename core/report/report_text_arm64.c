/*
 * The aarch64 text summary (the console's and the report's .txt), in x86's
 * layout and with x86's code where the content is the same
 * (summary_text.h, point_views.h, the recommendations' list): the title,
 * labelled header lines, the experiment table, each experiment's points,
 * what the machine suggests, and the verdict line last. What aarch64 knows
 * instead of x86's fills the header: SMBIOS, UEFI and ACPI; MIDR and EL;
 * the TLBI features of ID_AA64ISAR0_EL1 and the MMFR fields of cpu.features; the generic
 * counter (CNTFRQ_EL0) and its tick where x86 has the TSC; GIC and PSCI.
 */
#include "core/report/report_arm64.h"

#include "asm/cpu.h"
#include "core/lib/mem.h"
#include "core/report/conditions_report.h"
#include "core/report/point_views.h"
#include "core/report/recommend_json.h"
#include "core/report/report_redact.h"
#include "core/report/summary_text.h"
#include "core/run/upload.h"

/* what the run suggests (core/run/recommend_arm64.c): a few KB, not on the firmware's stack */
static struct recommendations text_recs;

static void yes_no(struct strbuf *sb, const char *name, bool v)
{
    sb_printf(sb, "%s%s=%s", sb->len ? " " : "", name, v ? "yes" : "no");
}

/* "Arm Neoverse N1 r3p1 (MIDR 0x413fd0c1), EL1"; unknown codes as numbers */
static void cpu_line(const struct arm64_run *run, char *line, size_t cap)
{
    const struct arm64_cpu_id *c = &run->cpu;
    const char *impl = arm64_implementer_name(c->implementer);
    const char *part = arm64_part_name(c->implementer, c->part);
    struct strbuf sb;
    sb_init_fixed(&sb, line, cap);
    if (impl)
        sb_printf(&sb, "%s ", impl);
    else
        sb_printf(&sb, "implementer 0x%02x ", c->implementer);
    if (part)
        sb_printf(&sb, "%s ", part);
    else
        sb_printf(&sb, "part 0x%03x ", c->part);
    sb_printf(&sb, "r%up%u (MIDR 0x%llx), EL%u", c->variant, c->revision,
              (unsigned long long)c->midr, run->el);
}

static void write_header(const struct arm64_run *run, struct strbuf *sb)
{
    char line[320], gic[16];
    uint32_t i, ok = 0;
    summary_title(sb, run->id);
    if (run->sim) {
        summary_simulated_head(sb, run->sim->model, run->sim->model_version, run->sim->profile,
                               run->sim->seed);
        sb_puts(sb, "\n          no machine: the host's timings, the model's checks\n");
    }
    if (run->smbios) {
        fmt_into(line, sizeof(line), "%s %s", run->sm_manufacturer, run->sm_product);
        summary_line(sb, "Machine", line);
    }
    /* upload=: where this copy goes and how it went, as x86's header says it */
    upload_status_text(&run->upload, run->cfg.upload, run->cfg.upload_attempts, sb);
    /* x86's Firmware line says Secure Boot too (firmware.secure_boot) */
    fmt_into(line, sizeof(line), "%s rev %s, ACPI OEM %s%s, Secure Boot %s",
             run->uefi_vendor[0] ? run->uefi_vendor : "(no vendor)", run->uefi_revision,
             run->acpi_oem_id[0] ? run->acpi_oem_id : "(none)", run->madt ? "" : ", no MADT",
             secure_boot_name(run->secure_boot));
    summary_line(sb, "Firmware", line);
    cpu_line(run, line, sizeof(line));
    summary_line(sb, "CPU", line);
    {
        /* the names of the report's cpu.features */
        struct strbuf feat;
        sb_init_fixed(&feat, line, sizeof(line));
        yes_no(&feat, "tlbi_os", run->cpu.tlbi_os);
        yes_no(&feat, "tlbi_range", run->cpu.tlbi_range);
        yes_no(&feat, "e0pd", run->cpu.e0pd);
        yes_no(&feat, "cnp", run->cpu.cnp);
        yes_no(&feat, "ttl", run->cpu.ttl);
        sb_printf(&feat, " bbm=%u", run->cpu.bbm);
        yes_no(&feat, "ntlbpa", run->cpu.ntlbpa);
        yes_no(&feat, "vhe", run->cpu.vhe);
        summary_line(sb, "Features", line);
    }
    {
        /* the tick's length beside the rate: every latency below is in these ticks */
        uint64_t ps = run->counter_hz ? (1000000000000ull + run->counter_hz / 2) / run->counter_hz : 0;
        fmt_into(line, sizeof(line), "%llu.%03llu MHz (cntfrq_el0), one tick %llu.%03llu ns",
                 (unsigned long long)(run->counter_hz / 1000000),
                 (unsigned long long)(run->counter_hz / 1000 % 1000), (unsigned long long)(ps / 1000),
                 (unsigned long long)(ps % 1000));
    }
    summary_line(sb, "Counter", line);
    for (i = 0; i < run->ntopo; i++)
        ok += run->topo[i].state == A64_CPU_OK;
    fmt_into(gic, sizeof(gic), run->gic_version ? "GICv%u" : "no GIC", run->gic_version);
    fmt_into(line, sizeof(line), "%u reported, %u ok, %s, PSCI %s via %s", run->ntopo, ok, gic,
             run->psci_version, run->psci_hvc ? "HVC" : "SMC");
    if (run->handback.ran) /* what the end of the run gave back (method.handback) */
        fmt_into(line + str_len(line), sizeof(line) - str_len(line), "; at the end %u turned off%s",
                 run->handback.cpus_off, run->handback.cpus_not_off ? ", some left on (run errors)" : "");
    summary_line(sb, "CPUs", line);
    /* no variant order is drawn on aarch64: the seed is the p50 intervals' (core/run/bootstrap.h) */
    fmt_into(line, sizeof(line), "each point's samples in one block, variants one after "
             "another; order_seed=%u seeds the p50 intervals", run->order_seed);
    summary_line(sb, "Order", line);
    if (run->hypervisor) {
        fmt_into(line, sizeof(line), "emulator or hypervisor named by the firmware (%s, from %s): "
                 "timings are not hardware timings", run->hypervisor, run->hypervisor_source);
        summary_line(sb, "NOTE", line);
    } else if (run->platform_known && run->platform.kind == PLATFORM_VIRTUALISED) {
        fmt_into(line, sizeof(line), "a virtual machine (%s: %s): the CPUs' own timings, with the hypervisor's "
                 "traps and its stage 2 in them", run->platform.hypervisor, run->platform.evidence);
        summary_line(sb, "NOTE", line);
    }
}

/* As x86's: each CPU that is not ok, with what it left (ESR, FAR, ELR of a fault). */
static void write_cpu_problems(const struct arm64_run *run, struct strbuf *sb)
{
    uint32_t i;
    for (i = 0; i < run->ntopo; i++) {
        const struct a64_topo_cpu *t = &run->topo[i];
        if (t->state == A64_CPU_OK)
            continue;
        sb_printf(sb, "CPU %u (MPIDR 0x%llx) %s: %s\n", i, (unsigned long long)t->mpidr,
                  a64_cpu_state_name(t->state), t->note);
        if (t->has_fault)
            sb_printf(sb, "  ESR 0x%llx FAR 0x%llx ELR 0x%llx vector %llu\n",
                      (unsigned long long)t->esr, (unsigned long long)t->far,
                      (unsigned long long)t->elr, (unsigned long long)t->vector);
    }
}

/* Whether the points have more than one initiator: a matrix, not a row of it and dashes. */
static bool several_initiators(const struct point_list *l)
{
    const struct point_param *first = l->count ? point_find_param(&l->items[0], "initiator") : 0;
    uint32_t i;
    for (i = 1; first && i < l->count; i++) {
        const struct point_param *p = point_find_param(&l->items[i], "initiator");
        if (p && p->num != first->num)
            return true;
    }
    return false;
}

/*
 * ipi_roundtrip's points from several initiators fill x86's initiator x
 * target matrix; every other experiment's points (and the BSP's round trips
 * alone) go one a line with every metric (flush_ceiling's refills too), then
 * its summary points (flush_ceiling's p*).
 */
static void write_experiment(const struct arm64_run *run, const struct experiment_record *e,
                             const struct summary_tags *tags, struct strbuf *sb)
{
    summary_experiment_head(sb, e, tags);
    if (!str_eq(e->id, "ipi_roundtrip") || !several_initiators(&e->results) ||
        !view_ipi_matrix(sb, e, run->ntopo, run->counter_hz)) {
        view_points(sb, &e->results, run->counter_hz, 32, true);
        view_points(sb, &e->summary, run->counter_hz, 8, true);
    }
    if (e->conditions.recorded) /* not yet on aarch64: no "not recorded" line per experiment */
        conditions_write_text(&e->conditions, run->counter_hz, sb);
}

void a64_report_text(const struct arm64_run *run, struct strbuf *sb)
{
    const struct summary_tags tags = { run->sim != 0, false }; /* records say emulated */
    static struct redaction red; /* a few KB: not on the firmware's stack */
    size_t start = sb->len;
    struct verdict v;
    uint32_t i;
    write_header(run, sb);
    write_cpu_problems(run, sb);
    summary_experiment_table(sb, run->exps, run->nexp, &tags, run->run_budget_s);
    for (i = 0; i < run->nexp; i++)
        if (run->exps[i].ran && run->exps[i].results.count)
            write_experiment(run, &run->exps[i], &tags, sb);
    a64_recommend(run, &text_recs);
    report_text_recommendation_list(&text_recs, run->counter_hz, sb);
    a64_verdict(run, &v);
    summary_end(sb, &run->errors, &run->warnings, run->partial, run->duration_ms, &v);
    /* redact=on: the upload URL as its token, as in the JSON (and x86's summary) */
    a64_prepare_redaction(run, &red);
    redaction_scrub_buffer(&red, sb, start);
}

void a64_report_verdict(const struct arm64_run *run, struct strbuf *sb)
{
    struct verdict v;
    a64_verdict(run, &v);
    summary_verdict(sb, &v);
}
