#include "asm/cpu.h"
#include "core/lib/json.h"
#include "core/report/report_doc.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/report/method_report.h"
#include "core/report/plan_report.h"
#include "core/report/report.h"
#include "core/report/report_common.h"
#include "core/report/report_redact.h"
#include "core/report/run_json.h"
#include "core/run/verdict.h"
#include "core/report/report_recommend.h"
#include "core/run/bootstrap.h"
#include "core/lib/sha256.h"
#include "core/machine/smp.h"
#include "core/report/topo_report.h"
#include "core/report/protocol_report.h"

static void write_firmware(struct json_writer *w, const struct firmware_info *fw,
                           const struct redaction *red)
{
    const struct smbios_info *s = &fw->smbios;
    const struct acpi_info *a = &fw->acpi;
    uint32_t i;
    char uefi[16];
    jw_key(w, "firmware");
    jw_object_begin(w);
    jw_kv_str(w, "vendor", fw->vendor);
    jw_kv_hex(w, "revision", fw->revision);
    fmt_into(uefi, sizeof(uefi), "%u.%u", fw->uefi_revision >> 16, (fw->uefi_revision & 0xffff) / 10);
    jw_kv_str(w, "uefi_version", uefi);
    jw_kv_str(w, "secure_boot", secure_boot_name(fw->secure_boot));
    jw_key(w, "smbios");
    if (!s->present) {
        jw_null(w);
    } else {
        char ver[16];
        jw_object_begin(w);
        fmt_into(ver, sizeof(ver), "%u.%u", s->major, s->minor);
        jw_kv_str(w, "version", ver);
        jw_kv_str(w, "entry_point", s->entry_point_64 ? "smbios3" : "smbios2");
        jw_key(w, "bios");
        jw_object_begin_inline(w);
        jw_kv_str(w, "vendor", s->bios_vendor);
        jw_kv_str(w, "version", s->bios_version);
        jw_kv_str(w, "date", s->bios_date);
        jw_object_end(w);
        jw_key(w, "system");
        jw_object_begin_inline(w);
        jw_kv_str(w, "manufacturer", s->sys_manufacturer);
        jw_kv_str(w, "product", s->sys_product);
        jw_kv_str(w, "version", s->sys_version);
        jw_kv_str(w, "serial", red->serial[0] ? red->serial : s->sys_serial);
        jw_key(w, "uuid");
        if (red->uuid[0]) {
            jw_str(w, red->uuid);
        } else if (s->has_uuid) {
            char u[40];
            redaction_format_uuid(s->uuid, u);
            jw_str(w, u);
        } else {
            jw_null(w);
        }
        jw_object_end(w);
        jw_key(w, "board");
        jw_object_begin_inline(w);
        jw_kv_str(w, "manufacturer", s->board_manufacturer);
        jw_kv_str(w, "product", s->board_product);
        jw_kv_str(w, "version", s->board_version);
        jw_object_end(w);
        jw_key(w, "processors");
        jw_array_begin(w);
        for (i = 0; i < s->socket_count && i < FW_MAX_SOCKETS; i++) {
            const struct smbios_processor *p = &s->sockets[i];
            jw_object_begin_inline(w);
            jw_kv_str(w, "socket", p->socket);
            jw_kv_str(w, "manufacturer", p->manufacturer);
            jw_kv_str(w, "version", p->version);
            jw_kv_u64(w, "max_speed_mhz", p->max_speed_mhz);
            jw_kv_u64(w, "cores", p->core_count);
            jw_kv_u64(w, "threads", p->thread_count);
            jw_object_end(w);
        }
        jw_array_end(w);
        jw_object_end(w);
    }
    jw_key(w, "acpi");
    if (!a->present) {
        jw_null(w);
    } else {
        jw_object_begin_inline(w);
        jw_kv_u64(w, "rsdp_revision", a->revision);
        jw_kv_str(w, "oem_id", a->oem_id);
        jw_kv_str(w, "oem_table_id", a->oem_table_id);
        jw_kv_bool(w, "madt", a->has_madt);
        jw_kv_bool(w, "srat", a->has_srat);
        jw_kv_bool(w, "slit", a->has_slit);
        jw_kv_u64(w, "madt_cpus_enabled", a->madt_cpus_enabled);
        jw_kv_u64(w, "numa_nodes", a->numa_nodes);
        jw_object_end(w);
    }
    jw_object_end(w);
}

static void write_features(struct json_writer *w, const struct run *r)
{
    const struct cpu_features *f = &r->cpu;
    const struct cpuid_evidence *ev = &f->evidence;
    jw_key(w, "features");
    jw_object_begin(w);
    jw_kv_bool(w, "x2apic", f->x2apic);
    jw_kv_bool(w, "x2apic_enabled_by_firmware", r->firmware_x2apic);
    jw_kv_bool(w, "pcid", f->pcid);
    jw_kv_bool(w, "invpcid", f->invpcid);
    jw_kv_bool(w, "invlpgb", f->invlpgb);
    jw_kv_u64(w, "invlpgb_max_pages", f->invlpgb_max_pages);
    jw_kv_bool(w, "la57", f->la57);
    jw_kv_bool(w, "invariant_tsc", f->invariant_tsc);
    jw_kv_bool(w, "pge", f->pge);
    jw_kv_bool(w, "pdpe1gb", f->pdpe1gb);
    jw_kv_bool(w, "hybrid", f->hybrid);
    jw_object_end(w);
    jw_key(w, "cpuid");
    jw_object_begin(w);
    jw_kv_hex(w, "max_basic_leaf", f->max_basic_leaf);
    jw_kv_hex(w, "max_extended_leaf", f->max_ext_leaf);
    jw_kv_hex(w, "1.eax", ev->leaf1_eax);
    jw_kv_hex(w, "1.ecx", ev->leaf1_ecx);
    jw_kv_hex(w, "1.edx", ev->leaf1_edx);
    jw_kv_hex(w, "7.0.ebx", ev->leaf7_ebx);
    jw_kv_hex(w, "7.0.ecx", ev->leaf7_ecx);
    jw_kv_hex(w, "7.0.edx", ev->leaf7_edx);
    jw_kv_hex(w, "80000007.edx", ev->ext7_edx);
    jw_kv_hex(w, "80000008.ebx", ev->ext8_ebx);
    jw_kv_hex(w, "80000008.edx", ev->ext8_edx);
    jw_object_end(w);
    /* the second-level TLB (arch/x86/include/asm/tlb_info.h): a working set of flush_ceiling */
    jw_key(w, "l2_tlb");
    jw_object_begin_inline(w);
    jw_kv_u64(w, "entries_4k", f->l2_tlb.entries_4k);
    jw_kv_str(w, "source", f->l2_tlb.source ? f->l2_tlb.source : "none");
    jw_kv_hex(w, "evidence", f->l2_tlb.evidence[0]);
    jw_object_end(w);
}

static void write_cpu(struct json_writer *w, const struct run *r)
{
    const struct cpu_features *f = &r->cpu;
    uint32_t i;
    bool any_ucode = false;
    uint32_t ucode = 0;
    jw_key(w, "cpu");
    jw_object_begin(w);
    jw_kv_str(w, "vendor", f->vendor);
    jw_kv_str(w, "brand", f->brand[0] ? f->brand : NULL);
    jw_kv_u64(w, "family", f->family);
    jw_kv_u64(w, "model", f->model);
    jw_kv_u64(w, "stepping", f->stepping);
    jw_kv_hex(w, "signature", f->signature);
    for (i = 0; i < r->topo.count; i++) {
        if (r->topo.cpus[i].bsp && r->topo.cpus[i].microcode_valid) {
            any_ucode = true;
            ucode = r->topo.cpus[i].microcode;
        }
    }
    jw_key(w, "microcode");
    jw_object_begin_inline(w);
    report_kv_hex_or_null(w, "revision", any_ucode, ucode);
    jw_kv_bool(w, "uniform", r->microcode_uniform);
    jw_object_end(w);
    write_features(w, r);
    jw_kv_str(w, "hypervisor", f->hypervisor ? f->hypervisor_vendor : NULL);
    jw_kv_u64(w, "tsc_hz", r->tsc_hz);
    jw_kv_str(w, "tsc_source", tsc_source_name(r->tsc_source));
    jw_kv_u64(w, "phys_addr_bits", f->phys_addr_bits);
    jw_object_end(w);
}

/* topology.init_sipi: null unless the tool's own bring-up ran (issue 25) */
static void write_init_sipi(struct json_writer *w, const struct run *r)
{
    const struct init_sipi_info *i = &r->init_sipi;
    jw_key(w, "init_sipi");
    if (!i->used) {
        jw_null(w);
        return;
    }
    jw_object_begin_inline(w);
    jw_kv_str(w, "reason", i->reason);
    report_kv_hex_or_null(w, "trampoline", i->trampoline != 0, i->trampoline);
    jw_kv_u64(w, "requested", i->requested);
    jw_kv_u64(w, "reached_64bit", i->reached_64bit);
    jw_kv_u64(w, "arrived", i->arrived);
    jw_kv_str(w, "exit", run_exit_mode(r) == EXIT_SHUTDOWN ? "shutdown" : "reset");
    jw_object_end(w);
}

static void write_topology(struct json_writer *w, const struct run *r)
{
    uint32_t i;
    jw_key(w, "topology");
    jw_object_begin(w);
    jw_kv_u64(w, "cpu_count", r->topo.count);
    jw_kv_u64(w, "cpus_ok", cpu_table_count_state(&r->topo, CPU_OK));
    jw_kv_bool(w, "mp_services", r->mp_available);
    jw_kv_str(w, "source", r->topology_source);
    jw_kv_str(w, "mp_note", r->mp_note[0] ? r->mp_note : NULL);
    jw_kv_str(w, "mp_mode", mp_mode_name(r->cfg.mp_mode));
    write_init_sipi(w, r);
    jw_key(w, "cpus");
    jw_array_begin(w);
    for (i = 0; i < r->topo.count; i++) {
        const struct cpu_info *c = &r->topo.cpus[i];
        jw_object_begin_inline(w);
        jw_kv_u64(w, "index", c->index);
        jw_kv_u64(w, "apic_id", c->apic_id);
        jw_kv_u64(w, "package", c->package);
        jw_kv_u64(w, "core", c->core);
        jw_kv_u64(w, "thread", c->thread);
        jw_key(w, "numa_node");
        if (c->numa_node >= 0)
            jw_u64(w, (uint64_t)c->numa_node);
        else
            jw_null(w);
        topo_report_cpu_l3(w, c);
        jw_kv_bool(w, "bsp", c->bsp);
        jw_kv_str(w, "state", cpu_state_name(c->state));
        jw_kv_str(w, "bring_up", c->bsp ? "bsp" : cpu_bring_up_name(c->bring_up));
        report_kv_hex_or_null(w, "microcode", c->microcode_valid, c->microcode);
        if (c->state != CPU_OK)
            jw_kv_str(w, "note", c->note);
        if (c->late_answers) { /* under a hypervisor only: core/machine/smp.h, smp_wait_answer() */
            jw_kv_u64(w, "late_answers", c->late_answers);
            jw_kv_u64(w, "late_max_ms", c->late_max_ms);
        }
        if (c->fault.valid) {
            jw_key(w, "fault");
            jw_object_begin_inline(w);
            jw_kv_u64(w, "vector", c->fault.vector);
            jw_kv_hex(w, "error_code", c->fault.error_code);
            jw_kv_hex(w, "rip", c->fault.rip);
            jw_kv_hex(w, "cr2", c->fault.cr2);
            jw_kv_str(w, "last_command", command_name(c->fault.last_command));
            jw_key(w, "registers");
            jw_object_begin_inline(w);
            for (uint32_t k = 0; k < CPU_FAULT_REGS; k++)
                jw_kv_hex(w, cpu_fault_reg_names[k], c->fault.regs[k]);
            jw_object_end(w);
            jw_object_end(w);
        }
        jw_object_end(w);
    }
    jw_array_end(w);
    topo_report_classes(w, r);
    jw_object_end(w);
}

/* Whether the run happened on the TLB model (tlbscope-sim) rather than a machine. */
static void write_simulation(struct json_writer *w, const struct simulation_info *s)
{
    uint32_t i;
    jw_kv_bool(w, "simulated", s->simulated);
    jw_key(w, "simulation");
    if (!s->simulated) {
        jw_null(w);
        return;
    }
    jw_object_begin(w);
    jw_kv_str(w, "model", s->model);
    jw_kv_u64(w, "model_version", s->model_version);
    jw_kv_str(w, "profile", s->profile);
    jw_kv_str(w, "profile_cpu", s->profile_cpu);
    jw_kv_u64(w, "seed", s->seed);
    jw_kv_u64(w, "tlb_sets", s->tlb_sets);
    jw_kv_u64(w, "tlb_ways", s->tlb_ways);
    jw_kv_str(w, "tlb_source", s->tlb_source);
    jw_key(w, "errata");
    jw_array_begin(w);
    for (i = 0; i < s->errata_count; i++)
        jw_str(w, s->errata[i]);
    jw_array_end(w);
    jw_kv_str(w, "cpuid_override", s->cpuid_override);
    report_kv_hex_or_null(w, "microcode", s->microcode_known, s->microcode);
    jw_kv_str(w, "microcode_source", s->microcode_source);
    jw_kv_bool(w, "la57", s->la57);
    jw_object_end(w);
}

/* What the x86 parts of the report read: the run, and the tokens of its redaction. */
struct x86_doc {
    const struct run *r;
    const struct redaction *red;
};

static void write_head(struct json_writer *w, const void *ctx)
{
    const struct x86_doc *d = ctx;
    write_simulation(w, &d->r->sim);
    redaction_write_record(w, d->red);
}

static void write_run(struct json_writer *w, const void *ctx)
{
    const struct x86_doc *d = ctx;
    const struct run *r = d->r;
    const struct rtc_time *t = &r->fw.start_time;
    char start[32];
    struct run_section s = {
        .id = r->run_id,
        .counter = r->run_counter,
        .start_time = t->valid ? start : NULL,
        .rtc_plausible = r->fw.rtc_plausible,
        .duration_ms = r->duration_ms,
        .partial = r->partial,
        .args = r->args_text,
        .config_file = r->cfg_file_found,
        .config_source = config_source_name(r->net.config_source),
        .cfg = &r->cfg,
        .net = &r->net,
        .upload = &r->upload,
        .red = d->red,
        .errors = &r->errors,
        .warnings = &r->warnings,
    };
    fmt_into(start, sizeof(start), "%04u-%02u-%02uT%02u:%02u:%02u", t->year, t->month, t->day,
             t->hour, t->minute, t->second);
    report_write_run(w, &s);
}

static void write_machine(struct json_writer *w, const void *ctx)
{
    const struct x86_doc *d = ctx;
    write_firmware(w, &d->r->fw, d->red);
    write_cpu(w, d->r);
    write_topology(w, d->r);
    method_report_write(w, d->r);
}

static void write_recommendations(struct json_writer *w, const void *ctx)
{
    const struct x86_doc *d = ctx;
    report_json_recommendations(w, d->r); /* schema version 2 */
}

bool report_write_json(const struct run *r, struct strbuf *out)
{
    struct redaction red;
    struct verdict v;
    struct x86_doc x = { r, &red };
    struct report_doc d = {
        .architecture = "x86_64",
        .result = r->result,
        .verdict = &v,
        .write_head = write_head,
        .write_run = write_run,
        .write_machine = write_machine,
        .write_recommendations = write_recommendations,
        .experiments = r->experiments,
        .experiment_count = r->experiment_count,
        .unit = "tsc_ticks",
        .show = redaction_write_text,
        .show_ctx = &red,
        .ctx = &x,
    };
    redaction_prepare(r, &red);
    run_verdict(r, &v);
    return report_doc_write(&d, out);
}
