#include "core/lib/mem.h"
#include "core/report/report.h"
#include "core/report/protocol_report.h"
#include "core/report/report_redact.h"
#include "core/report/report_recommend.h"
#include "core/report/report_views.h"
#include "core/report/summary_text.h"
#include "core/run/upload.h"
#include "core/run/verdict.h"

static void yes_no(struct strbuf *sb, const char *name, bool v)
{
    sb_printf(sb, " %s=%s", name, v ? "yes" : "no");
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
    summary_title(sb, r->run_id);
    if (r->sim.simulated) { /* within 80 columns, like the rest of the summary */
        uint32_t i;
        summary_simulated_head(sb, r->sim.model, r->sim.model_version, r->sim.profile,
                               r->sim.seed);
        sb_printf(sb, ", TLB %u sets x %u ways", r->sim.tlb_sets, r->sim.tlb_ways);
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
        summary_line(sb, "Machine", line);
    }
    if (r->cfg.redact)
        sb_printf(sb, "Redacted  serial number and UUID replaced by %s tokens in the JSON "
                      "(redact=on)\n", r->cfg.redact_key[0] ? "keyed" : "random");
    write_delivery(r, sb);
    fmt_into(line, sizeof(line), "%s rev 0x%x, UEFI %u.%u, Secure Boot %s", r->fw.vendor,
             r->fw.revision, r->fw.uefi_revision >> 16, (r->fw.uefi_revision & 0xffff) / 10,
             secure_boot_name(r->fw.secure_boot));
    summary_line(sb, "Firmware", line);
    fmt_into(line, sizeof(line), "%s, %s, family 0x%x model 0x%x stepping %u",
             f->brand[0] ? f->brand : "(no brand string)", f->vendor, f->family, f->model,
             f->stepping);
    summary_line(sb, "CPU", line);
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
        summary_line(sb, "Features", line);
    }
    /* a CPU of the INVLPG/global erratum: whether the tool ran with PCID, and why */
    if (r->method.pcid_erratum.listed && r->method.pcid_reason[0])
        summary_line(sb, "PCID", r->method.pcid_reason);
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
        summary_line(sb, "NOTE", line);
    }
    if (r->cfg.emulator != EMULATOR_NONE)
        sb_printf(sb, "NOTE      emulated machine (emulator=%s): every instruction ran on the\n"
                      "          emulator's CPU; timings are not hardware timings\n",
                  emulator_name(r->cfg.emulator));
    if (r->mp_note[0])
        summary_line(sb, "NOTE", r->mp_note);
    if (r->init_sipi.used) {
        fmt_into(line, sizeof(line), "%s: %u of %u APs started by the tool's own INIT-SIPI "
                 "(%s); they cannot be handed back: the machine %s after the report",
                 r->cfg.mp_mode == MP_OWN ? "mp=own" : "fallback", r->init_sipi.arrived,
                 r->init_sipi.requested, r->init_sipi.reason,
                 run_exit_mode(r) == EXIT_SHUTDOWN ? "powers off" : "resets");
        summary_line(sb, "NOTE", line);
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

void report_write_text(const struct run *r, struct strbuf *sb)
{
    const struct summary_tags tags = { r->sim.simulated, r->cfg.emulator != EMULATOR_NONE };
    struct redaction red;
    struct verdict v;
    size_t start = sb->len;
    uint32_t i;
    write_header(r, sb);
    write_cpu_problems(r, sb);
    summary_experiment_table(sb, r->experiments, r->experiment_count, &tags, r->cfg.run_budget_s);
    for (i = 0; i < r->experiment_count; i++)
        if (r->experiments[i].ran && r->experiments[i].results.count)
            report_view_experiment(r, &r->experiments[i], sb);
    report_text_recommendations(r, sb);
    /* the verdict is the summary's last line: what a technician reads first (core/run/verdict.h) */
    run_verdict(r, &v);
    summary_end(sb, &r->errors, &r->warnings, r->partial, r->duration_ms, &v);
    /* redact=on: any address, URL or host the summary quotes becomes its token (issue 35) */
    redaction_prepare(r, &red);
    redaction_scrub_buffer(&red, sb, start);
}

void report_write_verdict(const struct run *r, struct strbuf *sb)
{
    struct verdict v;
    run_verdict(r, &v);
    summary_verdict(sb, &v);
}
