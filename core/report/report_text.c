#include "core/lib/mem.h"
#include "core/report/plan_report.h"
#include "core/report/report.h"
#include "core/report/protocol_report.h"
#include "core/report/report_redact.h"
#include "core/report/report_recommend.h"
#include "core/report/report_views.h"
#include "core/run/upload.h"
#include "core/run/verdict.h"

static void yes_no(struct strbuf *sb, const char *name, bool v)
{
    sb_printf(sb, " %s=%s", name, v ? "yes" : "no");
}

/* Words of text after a 10-column label, wrapped to 80 columns. */
static void write_wrapped(struct strbuf *sb, const char *label, const char *text)
{
    size_t col = 0, len;
    sb_printf(sb, "%-10s", label);
    while (*text) {
        while (*text == ' ')
            text++;
        for (len = 0; text[len] && text[len] != ' '; len++)
            ;
        if (!len)
            break;
        if (col && col + 1 + len > 70) {
            sb_puts(sb, "\n          ");
            col = 0;
        } else if (col) {
            sb_putc(sb, ' ');
            col++;
        }
        sb_printf(sb, "%.*s", (int)len, text);
        col += len;
        text += len;
    }
    sb_putc(sb, '\n');
}

/* The upload's line: where, and how it went (pending in the report itself: issue 35). */
static void write_upload(const struct run *r, struct strbuf *sb)
{
    upload_status_text(&r->upload, r->cfg.upload, r->cfg.upload_attempts, sb);
}

void report_write_upload(const struct run *r, struct strbuf *sb)
{
    struct redaction red;
    size_t start = sb->len;
    write_upload(r, sb);
    redaction_prepare(r, &red); /* the URL as the report shows it */
    redaction_scrub_buffer(&red, sb, start);
}

/* How it booted, where its configuration came from, where its reports went (core/run/netinfo.h). */
static void write_delivery(const struct run *r, struct strbuf *sb)
{
    if (r->net.boot != BOOT_DISK) {
        sb_printf(sb, "Boot      %s", boot_kind_name(r->net.boot));
        if (r->net.boot_url[0])
            sb_printf(sb, " from %s", r->cfg.redact ? "(redacted)" : r->net.boot_url);
        sb_printf(sb, "; configuration from %s%s\n", config_source_name(r->net.config_source),
                  r->args_text[0] ? " and the load options" : "");
    }
    /* the boot server's file is unauthenticated unless config_sha256= pinned it (issue 35) */
    if (r->net.config_sha256[0]) {
        bool used = r->net.config_source == CFG_SRC_HTTP || r->net.config_source == CFG_SRC_TFTP;
        sb_printf(sb, "Config    boot server's file, SHA-256 %.16s..., %s\n", r->net.config_sha256,
                  !used ? "NOT used (see the errors)"
                  : r->cfg.config_sha256[0] ? "pinned" : "not pinned");
    }
    write_upload(r, sb);
}

static void write_header(const struct run *r, struct strbuf *sb)
{
    const struct cpu_features *f = &r->cpu;
    const struct smbios_info *s = &r->fw.smbios;
    char line[400];
    sb_printf(sb, "tlbscope %s (%s)  run %s\n", TLBSCOPE_VERSION, TLBSCOPE_COMMIT, r->run_id);
    if (r->sim.simulated) { /* within 80 columns, like the rest of the summary */
        uint32_t i;
        sb_printf(sb, "SIMULATED tlbscope-sim on the %s (version %u)\n", r->sim.model,
                  r->sim.model_version);
        sb_printf(sb, "          profile %s, seed %llu, TLB %u sets x %u ways", r->sim.profile,
                  (unsigned long long)r->sim.seed, r->sim.tlb_sets, r->sim.tlb_ways);
        if (r->sim.microcode_known)
            sb_printf(sb, "; microcode 0x%x", r->sim.microcode);
        for (i = 0; i < r->sim.errata_count; i++)
            sb_printf(sb, "%s%s", i ? ", " : "\n          errata on: ", r->sim.errata[i]);
        sb_puts(sb, "\n          no machine: the host's timings, the model's checks");
        if (r->sim.la57)
            sb_puts(sb, "\n          firmware with CR4.LA57 (5-level paging)");
        sb_putc(sb, '\n');
    }
    /* the UEFI console of most servers is 80x25: long lines wrap under their label */
    if (s->present) {
        fmt_into(line, sizeof(line), "%s %s, BIOS %s %s (%s)", s->sys_manufacturer,
                 s->sys_product, s->bios_vendor, s->bios_version, s->bios_date);
        write_wrapped(sb, "Machine", line);
    }
    if (r->cfg.redact)
        sb_printf(sb, "Redacted  serial number and UUID replaced by %s tokens in the JSON "
                      "(redact=on)\n", r->cfg.redact_key[0] ? "keyed" : "random");
    write_delivery(r, sb);
    fmt_into(line, sizeof(line), "%s rev 0x%x, UEFI %u.%u, Secure Boot %s", r->fw.vendor,
             r->fw.revision, r->fw.uefi_revision >> 16, (r->fw.uefi_revision & 0xffff) / 10,
             secure_boot_name(r->fw.secure_boot));
    write_wrapped(sb, "Firmware", line);
    fmt_into(line, sizeof(line), "%s, %s, family 0x%x model 0x%x stepping %u",
             f->brand[0] ? f->brand : "(no brand string)", f->vendor, f->family, f->model,
             f->stepping);
    write_wrapped(sb, "CPU", line);
    {
        struct strbuf feat;
        sb_init_fixed(&feat, line, sizeof(line));
        yes_no(&feat, "x2apic", f->x2apic);
        yes_no(&feat, "pcid", f->pcid);
        yes_no(&feat, "invpcid", f->invpcid);
        if (f->invlpgb)
            sb_printf(&feat, " invlpgb=yes(max %u pages)", f->invlpgb_max_pages);
        else
            yes_no(&feat, "invlpgb", false);
        yes_no(&feat, "la57", f->la57);
        yes_no(&feat, "invariant_tsc", f->invariant_tsc);
        write_wrapped(sb, "Features", line);
    }
    /* a CPU of the INVLPG/global erratum: whether the tool ran with PCID, and why */
    if (r->method.pcid_erratum.listed && r->method.pcid_reason[0])
        write_wrapped(sb, "PCID", r->method.pcid_reason);
    sb_printf(sb, "TSC       %llu.%03llu MHz (%s)\n", (unsigned long long)(r->tsc_hz / 1000000),
              (unsigned long long)(r->tsc_hz / 1000 % 1000), tsc_source_name(r->tsc_source));
    sb_printf(sb, "CPUs      %u reported, %u ok", r->topo.count,
              cpu_table_count_state(&r->topo, CPU_OK));
    if (r->method.apic_mode)
        sb_printf(sb, ", APIC %s", r->method.apic_mode);
    sb_putc(sb, '\n');
    protocol_report_text(sb, r);
    if (r->method.order_seed_set)
        sb_printf(sb, "Order     variants in random order per iteration, order_seed=%llu\n",
                  (unsigned long long)r->method.order_seed);
    if (f->hypervisor) {
        fmt_into(line, sizeof(line), "running under a hypervisor (%s): timings are not hardware "
                 "timings", f->hypervisor_vendor[0] ? f->hypervisor_vendor : "unnamed");
        write_wrapped(sb, "NOTE", line);
    }
    if (r->cfg.emulator != EMULATOR_NONE)
        sb_printf(sb, "NOTE      emulated machine (emulator=%s): every instruction ran on the\n"
                      "          emulator's CPU; timings are not hardware timings\n",
                  emulator_name(r->cfg.emulator));
    if (r->mp_note[0])
        write_wrapped(sb, "NOTE", r->mp_note);
    if (r->init_sipi.used) {
        fmt_into(line, sizeof(line), "%s: %u of %u APs started by the tool's own INIT-SIPI "
                 "(%s); they cannot be handed back: the machine %s after the report",
                 r->cfg.mp_mode == MP_OWN ? "mp=own" : "fallback", r->init_sipi.arrived,
                 r->init_sipi.requested, r->init_sipi.reason,
                 run_exit_mode(r) == EXIT_SHUTDOWN ? "powers off" : "resets");
        write_wrapped(sb, "NOTE", line);
    }
}

static void write_cpu_problems(const struct run *r, struct strbuf *sb)
{
    uint32_t i;
    for (i = 0; i < r->topo.count; i++) {
        const struct cpu_info *c = &r->topo.cpus[i];
        if (c->state == CPU_OK || c->state == CPU_EXCLUDED)
            continue;
        sb_printf(sb, "CPU %u (APIC ID %u) %s: %s\n", c->index, c->apic_id,
                  cpu_state_name(c->state), c->note);
        if (c->fault.valid) {
            uint32_t k;
            sb_printf(sb, "  CR2 0x%llx", (unsigned long long)c->fault.cr2);
            for (k = 0; k < CPU_FAULT_REGS; k++)
                sb_printf(sb, "%s%s 0x%llx", k % 6 == 5 ? "\n  " : " ", cpu_fault_reg_names[k],
                          (unsigned long long)c->fault.regs[k]);
            sb_putc(sb, '\n');
        }
    }
}

/* Which experiments run_budget_s made smaller, and to what (core/run/plan.h). */
static void write_plans(const struct run *r, struct strbuf *sb)
{
    uint32_t i;
    bool any = false;
    for (i = 0; i < r->experiment_count; i++)
        any |= r->experiments[i].ran && r->experiments[i].plan.applied &&
               r->experiments[i].plan.reasons;
    if (!any)
        return;
    sb_printf(sb, "\nPlanned to fit run_budget_s=%u (measuring time of the whole run):\n",
              r->cfg.run_budget_s);
    for (i = 0; i < r->experiment_count; i++)
        if (r->experiments[i].ran)
            plan_write_text(sb, r->experiments[i].id, &r->experiments[i].plan);
}

/* Under its row, a cut grid (issue 32): "    SUCCESS (reduced: 5 of 22 page counts)". */
static void write_status_detail(const struct experiment_record *e, struct strbuf *sb)
{
    char detail[160], line[200];
    if (!plan_status_detail(&e->plan, detail, sizeof(detail)))
        return;
    fmt_into(line, sizeof(line), "%s (%s)", result_name(e->status), detail);
    sb_put_wrapped(sb, "    ", "      ", line, 80);
}

static void write_experiment_table(const struct run *r, struct strbuf *sb)
{
    uint32_t i;
    sb_printf(sb, "\n%-26s %-8s %6s %8s %6s  %s\n", "Experiment", "Status", "Points", "Checks",
              "Stale", "Reason / notes");
    for (i = 0; i < r->experiment_count; i++) {
        const struct experiment_record *e = &r->experiments[i];
        if (!e->ran)
            continue;
        /* an emulated machine (emulator=) ran every instruction emulated */
        bool emulated = e->emulated || r->cfg.emulator != EMULATOR_NONE;
        const char *tags[3] = { r->sim.simulated ? "[SIMULATED]" : NULL,
                                emulated ? "[EMULATED]" : NULL, e->partial ? "[PARTIAL]" : NULL };
        const char *sep = "  ";
        uint32_t t;
        size_t row_start = sb->len;
        sb_printf(sb, "%-26s %-8s %6u %8llu %6llu", e->id, result_name(e->status),
                  e->results.count, (unsigned long long)e->verification.checks,
                  (unsigned long long)e->verification.stale_reads);
        for (t = 0; t < 3; t++) {
            if (tags[t]) {
                sb_printf(sb, "%s%s", sep, tags[t]);
                sep = " ";
            }
        }
        /* 80 columns (the UEFI console): a reason that does not fit goes below, wrapped */
        if (e->reason[0] && sb->len - row_start + str_len(sep) + str_len(e->reason) > 80) {
            sb_putc(sb, '\n');
            sb_put_wrapped(sb, "    ", "    ", e->reason, 80); /* ends the line */
        } else {
            if (e->reason[0])
                sb_printf(sb, "%s%s", sep, e->reason);
            sb_putc(sb, '\n');
        }
        write_status_detail(e, sb);
    }
    write_plans(r, sb);
}

void report_write_text(const struct run *r, struct strbuf *sb)
{
    struct redaction red;
    size_t start = sb->len;
    uint32_t i;
    write_header(r, sb);
    write_cpu_problems(r, sb);
    write_experiment_table(r, sb);
    for (i = 0; i < r->experiment_count; i++)
        if (r->experiments[i].ran && r->experiments[i].results.count)
            report_view_experiment(r, &r->experiments[i], sb);
    report_text_recommendations(r, sb);
    if (r->errors.count) {
        sb_puts(sb, "\nErrors:\n");
        for (i = 0; i < r->errors.count; i++)
            sb_printf(sb, "  %s: %s\n", r->errors.items[i].where, r->errors.items[i].text);
    }
    if (r->warnings.count) {
        sb_puts(sb, "\nWarnings:\n");
        for (i = 0; i < r->warnings.count; i++)
            sb_printf(sb, "  %s: %s\n", r->warnings.items[i].where, r->warnings.items[i].text);
    }
    /* the verdict is the summary's last line: what a technician reads first (core/run/verdict.h) */
    sb_printf(sb, "\nRun %s in %llu.%03llu s\n", r->partial ? "partial" : "complete",
              (unsigned long long)(r->duration_ms / 1000),
              (unsigned long long)(r->duration_ms % 1000));
    report_write_verdict(r, sb);
    sb_putc(sb, '\n');
    /* redact=on: any address, URL or host the summary quotes becomes its token (issue 35) */
    redaction_prepare(r, &red);
    redaction_scrub_buffer(&red, sb, start);
}

void report_write_verdict(const struct run *r, struct strbuf *sb)
{
    struct verdict v;
    char line[REPORT_VERDICT_LEN];
    run_verdict(r, &v);
    verdict_line(&v, 80, line, sizeof(line));
    sb_puts(sb, line);
}
