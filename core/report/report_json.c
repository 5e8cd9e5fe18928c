#include "asm/cpu.h"
#include "core/lib/json.h"
#include "core/report/conditions_report.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/report/plan_report.h"
#include "core/report/report.h"
#include "core/report/report_common.h"
#include "core/report/report_redact.h"
#include "core/run/verdict.h"
#include "core/report/report_recommend.h"
#include "core/run/bootstrap.h"
#include "core/lib/sha256.h"
#include "core/machine/smp.h"
#include "core/report/topo_report.h"
#include "core/report/protocol_report.h"

/* A network value: its token under redact=on, null when the firmware did not tell. */
static void kv_address(struct json_writer *w, const char *key, const char *value,
                       const char *token)
{
    jw_key(w, key);
    if (!value[0])
        jw_null(w);
    else
        jw_str(w, token[0] ? token : value);
}

/* run.network: how the machine booted and where the report was to be uploaded (SCHEMA.md). */
static void write_network(struct json_writer *w, const struct run *r, const struct redaction *red)
{
    jw_key(w, "network");
    jw_object_begin(w);
    jw_kv_str(w, "boot", boot_kind_name(r->net.boot));
    kv_address(w, "boot_url", r->net.boot_url, red->boot_url);
    kv_address(w, "mac", r->net.mac, red->mac);
    kv_address(w, "ip", r->net.ip, red->ip);
    jw_kv_str(w, "upload_url", redaction_upload_url(r, red));
    /* the boot server's tlbscope.cfg as it came (issue 35), whether it was used or not */
    jw_kv_str(w, "config_sha256", r->net.config_sha256[0] ? r->net.config_sha256 : NULL);
    jw_object_end(w);
}

/*
 * The command line as given, cut after the first name of redact_key (or of any
 * misspelling of it), which is followed by "*": the key stays on the stick (with
 * it, anyone could check a guessed serial number against its token), and a key
 * with a blank in it has a second part that no rule could tell from a key.
 */
static void write_args(struct json_writer *w, const char *args, const struct redaction *red)
{
    char out[CONFIG_MAX_LINE * 2];
    config_mask_args(args, out, sizeof(out));
    jw_key(w, "args");
    redaction_write_text(w, out, red); /* upload=URL: the URL's token (issue 35) */
}

static void write_point(struct json_writer *w, const struct result_point *p)
{
    uint8_t i;
    jw_object_begin(w);
    jw_key(w, "params");
    jw_object_begin_inline(w);
    for (i = 0; i < p->nparams; i++) {
        if (p->params[i].str)
            jw_kv_str(w, p->params[i].key, p->params[i].str);
        else
            jw_kv_i64(w, p->params[i].key, p->params[i].num);
    }
    jw_object_end(w);
    jw_key(w, "metrics");
    jw_object_begin(w);
    for (i = 0; i < p->nmetrics; i++) {
        jw_key(w, p->metrics[i].name);
        report_write_metric(w, &p->metrics[i].st);
    }
    jw_object_end(w);
    if (p->nvalues) {
        jw_key(w, "values");
        jw_object_begin_inline(w);
        for (i = 0; i < p->nvalues; i++)
            jw_kv_fixed(w, p->values[i].key, p->values[i].milli, 3);
        jw_object_end(w);
    }
    if (p->has_class_mix) { /* the classes the targets hold, nearest first */
        jw_key(w, "class_mix");
        jw_object_begin_inline(w);
        for (i = 0; i < TOPO_CLASS_COUNT; i++)
            if (p->class_mix[i])
                jw_kv_u64(w, topo_class_name((enum topo_class)i), p->class_mix[i]);
        jw_object_end(w);
    }
    jw_object_end(w);
}

static void write_points(struct json_writer *w, const char *key, const struct point_list *l)
{
    uint32_t i;
    jw_key(w, key);
    jw_array_begin(w);
    for (i = 0; i < l->count; i++)
        write_point(w, &l->items[i]);
    jw_array_end(w);
}

static void write_experiment(struct json_writer *w, const struct experiment_record *e,
                             const struct redaction *red)
{
    uint32_t i;
    jw_object_begin(w);
    jw_kv_str(w, "id", e->id);
    jw_kv_str(w, "title", e->title);
    jw_kv_str(w, "status", result_name(e->status));
    plan_write_status_detail(w, &e->plan); /* issue 32: "reduced: 5 of 22 page counts" */
    jw_key(w, "reason");
    redaction_write_text(w, e->reason[0] ? e->reason : NULL, red);
    jw_kv_bool(w, "emulated", e->emulated);
    jw_kv_bool(w, "partial", e->partial);
    jw_kv_str(w, "unit", "tsc_ticks");
    jw_kv_u64(w, "duration_ms", e->duration_ms);
    jw_key(w, "plan");
    plan_write_json(w, &e->plan);
    jw_key(w, "axes");
    jw_object_begin_inline(w);
    jw_kv_str(w, "x", e->x_axis);
    jw_kv_str(w, "series", e->series);
    jw_object_end(w);
    jw_key(w, "verification");
    jw_object_begin(w);
    jw_kv_bool(w, "applicable", e->verification.applicable);
    jw_kv_u64(w, "checks", e->verification.checks);
    if (e->verification.pilot_checks) /* of `checks`: the planning pilot's reads */
        jw_kv_u64(w, "pilot_checks", e->verification.pilot_checks);
    jw_kv_u64(w, "stale_reads", e->verification.stale_reads);
    jw_key(w, "stale");
    jw_array_begin(w);
    for (i = 0; i < e->verification.recorded; i++) {
        const struct stale_read *s = &e->verification.first[i];
        jw_object_begin_inline(w);
        jw_kv_u64(w, "cpu", s->cpu);
        jw_kv_hex(w, "va", s->va);
        jw_kv_hex(w, "expected", s->expected);
        jw_kv_hex(w, "seen", s->seen);
        jw_object_end(w);
    }
    jw_array_end(w);
    jw_object_end(w);
    jw_key(w, "notes");
    jw_array_begin(w);
    for (i = 0; i < e->nnotes; i++)
        redaction_write_text(w, e->notes[i], red);
    jw_array_end(w);
    write_points(w, "results", &e->results);
    write_points(w, "summary", &e->summary);
    jw_key(w, "conditions");
    conditions_write_json(w, &e->conditions);
    jw_object_end(w);
}

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

/* A revision or identifier in hex, or null when it was not read. */
static void kv_hex_or_null(struct json_writer *w, const char *key, bool known, uint64_t v)
{
    jw_key(w, key);
    if (known)
        jw_hex(w, v);
    else
        jw_null(w);
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
    kv_hex_or_null(w, "revision", any_ucode, ucode);
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
    kv_hex_or_null(w, "trampoline", i->trampoline != 0, i->trampoline);
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
        kv_hex_or_null(w, "microcode", c->microcode_valid, c->microcode);
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

/* The INVLPG/global erratum's verdict (core/machine/cpu_errata.h): null on a CPU it does not list. */
static void write_pcid_erratum(struct json_writer *w, const struct run *r)
{
    const struct invlpg_global_check *e = &r->method.pcid_erratum;
    jw_key(w, "pcid_erratum");
    if (!e->listed) {
        jw_null(w);
        return;
    }
    jw_object_begin(w);
    jw_kv_str(w, "id", ERRATUM_INVLPG_GLOBAL);
    jw_kv_str(w, "cpu", e->cpu);
    jw_kv_str(w, "model_name", e->model_name);
    kv_hex_or_null(w, "microcode", e->microcode_known, e->microcode);
    jw_kv_hex(w, "fixed_microcode", e->fixed_microcode);
    jw_kv_bool(w, "affected", e->affected);
    jw_kv_str(w, "source", "Intel ADL063/RPL042; Linux arch/x86/mm/init.c invlpg_miss_ids[]");
    jw_object_end(w);
}

/*
 * method.bootstrap (schema 3): how every metric's p50_ci95 was drawn, and what
 * the intervals cost the run (core/run/record_samples.h).
 */
static void write_bootstrap(struct json_writer *w, const struct run *r)
{
    const struct method_info *m = &r->method;
    jw_key(w, "bootstrap");
    jw_object_begin_inline(w);
    jw_kv_u64(w, "seed", m->order_seed);
    jw_kv_u64(w, "resamples", BOOT_REPLICATES);
    jw_kv_u64(w, "min_samples", BOOT_MEDIAN_MIN_N);
    jw_kv_u64(w, "intervals", m->p50_intervals);
    jw_kv_u64(w, "duration_ms", r->tsc_hz ? m->p50_interval_ticks * 1000 / r->tsc_hz : 0);
    jw_object_end(w);
}

/* What a setting the tool makes on every CPU was found and left: the members both share. */
static void write_per_cpu_setting(struct json_writer *w, bool found, bool used, uint64_t cpus,
                                  uint64_t cpus_found, uint64_t cpus_used)
{
    jw_kv_bool(w, "found", found);
    jw_kv_bool(w, "used", used);
    jw_kv_u64(w, "cpus", cpus);
    jw_kv_u64(w, "cpus_found", cpus_found);
    jw_kv_u64(w, "cpus_used", cpus_used);
}

/* issue 32 item 5: EFER.TCE, as found and as used (core/run/run.h struct efer_tce_info) */
static void write_efer_tce(struct json_writer *w, const struct efer_tce_info *t)
{
    jw_key(w, "efer_tce");
    jw_object_begin(w);
    jw_kv_bool(w, "supported", t->supported);
    write_per_cpu_setting(w, t->found, t->used, t->cpus, t->cpus_found, t->cpus_used);
    jw_object_end(w);
}

/* issue 32 item 8: LFENCE's dispatch serialisation (core/run/run.h struct lfence_info) */
static void write_lfence(struct json_writer *w, const struct lfence_info *l)
{
    jw_key(w, "lfence");
    jw_object_begin(w);
    jw_kv_str(w, "source", l->source);
    write_per_cpu_setting(w, l->found, l->used, l->cpus, l->cpus_found, l->cpus_used);
    jw_object_end(w);
}

/* method.lazy_idle (issue 32): the idle state shootdown_lazy's lazy CPUs slept in; once it ran. */
static void write_lazy_idle(struct json_writer *w, const struct lazy_idle_info *li)
{
    if (!li->set)
        return;
    jw_key(w, "lazy_idle");
    jw_object_begin(w);
    jw_kv_str(w, "state", li->state);
    jw_key(w, "hint");
    if (li->mwait)
        jw_u64(w, li->hint);
    else
        jw_null(w);
    jw_kv_u64(w, "settle_us", li->settle_us);
    jw_kv_str(w, "reason", li->reason);
    jw_object_end(w);
}

static void write_method(struct json_writer *w, const struct run *r)
{
    const struct method_info *m = &r->method;
    jw_key(w, "method");
    jw_object_begin(w);
    jw_kv_str(w, "apic_mode", m->apic_mode);
    jw_kv_str(w, "apic_mode_reason", m->apic_mode_reason);
    jw_kv_str(w, "firmware_apic_mode", m->firmware_apic_mode);
    topo_report_linux_ipi_mode(w, r); /* issue 21 */
    jw_kv_str(w, "icr_fence", m->icr_fence);
    jw_kv_str(w, "target_wait", m->target_wait);
    jw_kv_str(w, "page_flush", m->page_flush);
    jw_kv_str(w, "full_flush", m->full_flush);
    jw_kv_str(w, "full_flush_variant", m->full_flush_variant);
    jw_kv_bool(w, "full_flush_emulated", m->full_flush_emulated);
    /* how the shootdown experiments measure (issue 10): fixed by the code, stated for readers */
    jw_kv_str(w, "verification", "after_closing_timestamp");
    /* issue 20: shootdown_contention checks no shootdown inside any initiator's window */
    jw_kv_str(w, "contention_checks", "after_all_windows_closed");
    /* issue 20: the return to user refills a user working set (point parameter working_set) */
    jw_kv_str(w, "pti_return_to_user", "timed_user_working_set");
    jw_kv_str(w, "ipi_class_summary", "equal_share_per_pair");
    /* issue 20: Linux's paths and the refills they leave */
    jw_kv_str(w, "invlpgb_above_ceiling", "whole_pcid");
    /* issue 32: invlpgb_range's busy_ws rows, the IPI targets' and INVLPGB's bystanders' loss */
    jw_kv_str(w, "invlpgb_other_cpus", "target_and_bystander_lost");
    jw_kv_str(w, "flush_ceiling_refill", "after_ack");
    /* issue 32: shootdown curves' p* on the work summed over CPUs (critical path beside it) */
    jw_kv_str(w, "flush_ceiling_metric", "work");
    /* issue 21: lazy CPUs idle as in the idle loop; target states settle their target residency */
    jw_kv_str(w, "lazy_cpus", "idle_loop");
    write_lazy_idle(w, &m->lazy_idle);
    /*
     * issue 32 item 16: every target handler and delivery figure is of a target running
     * the tool's ring-0 code, which pays no entry work (no CR3 switch, no IBRS/IBPB/VERW,
     * no swapgs): a Linux CPU interrupted in user mode pays those on top
     */
    jw_kv_str(w, "target_context", "ring0_no_entry_mitigations");
    jw_kv_str(w, "target_state_settle", "target_residency");
    /* issue 20: each iteration runs its variants in an order drawn from this seed */
    if (m->order_seed_set) {
        jw_kv_str(w, "variant_order", "random_per_iteration");
        jw_kv_u64(w, "order_seed", m->order_seed);
    }
    write_bootstrap(w, r);
    jw_kv_u64(w, "flush_ceiling", r->cfg.ceiling);
    jw_kv_bool(w, "pcid_enabled", m->pcid_enabled);
    if (m->pcid_enabled) {
        jw_kv_hex(w, "kernel_pcid", m->kernel_pcid);
        jw_kv_hex(w, "user_pcid", m->user_pcid);
    }
    jw_kv_str(w, "pcid_reason", m->pcid_reason[0] ? m->pcid_reason : NULL);
    write_pcid_erratum(w, r);
    write_efer_tce(w, &m->efer_tce);
    write_lfence(w, &m->lfence);
    protocol_report_json(w, r); /* where the tool's own protocol spends its time */
    jw_kv_u64(w, "paging_levels", m->paging_levels);
    jw_kv_u64(w, "test_pages", m->test_pages);
    jw_kv_str(w, "test_mappings", r->cfg.global_pages ? "global" : "user");
    jw_kv_u64(w, "samples", r->cfg.samples);
    jw_kv_u64(w, "warmup", r->cfg.warmup);
    jw_kv_str(w, "profile", profile_name(r->cfg.profile));
    jw_kv_u64(w, "timer_overhead_ticks", m->timer_overhead_ticks);
    /* issue 32 item 8: opening and closing timestamps of a timed window (asm/cpu.h) */
    jw_kv_str(w, "timestamp", tsc_sequence());
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
    kv_hex_or_null(w, "microcode", s->microcode_known, s->microcode);
    jw_kv_str(w, "microcode_source", s->microcode_source);
    jw_kv_bool(w, "la57", s->la57);
    jw_object_end(w);
}

/*
 * The verdict (core/run/verdict.h) beside the result: the word a technician reads
 * (SUCCESS and SKIP are both COMPLETE), the counts it rests on and its line as
 * printed. tlbscope-report validate recomputes all of it from the experiments.
 */
static void write_verdict(struct json_writer *w, const struct run *r)
{
    struct verdict v;
    run_verdict(r, &v);
    report_json_verdict(w, &v);
}

bool report_write_json(const struct run *r, struct strbuf *out)
{
    struct json_writer w;
    struct redaction red;
    uint32_t i;
    redaction_prepare(r, &red);
    jw_init(&w, out);
    jw_object_begin(&w);
    jw_kv_str(&w, "schema", REPORT_SCHEMA);
    jw_kv_u64(&w, "schema_version", REPORT_SCHEMA_VERSION);
    /* issue 27: the aarch64 app writes "aarch64" here (core/report/arm64/); a report
     * without the key was written before it and is x86_64 (reports/SCHEMA.md) */
    jw_kv_str(&w, "architecture", "x86_64");
    jw_key(&w, "generator");
    jw_object_begin_inline(&w);
    jw_kv_str(&w, "name", "tlbscope");
    jw_kv_str(&w, "version", TLBSCOPE_VERSION);
    jw_kv_str(&w, "commit", TLBSCOPE_COMMIT);
    jw_object_end(&w);
    jw_kv_str(&w, "result", result_name(r->result));
    write_verdict(&w, r);
    write_simulation(&w, &r->sim);
    redaction_write_record(&w, &red);

    jw_key(&w, "run");
    jw_object_begin(&w);
    jw_kv_str(&w, "id", r->run_id);
    jw_kv_u64(&w, "counter", r->run_counter);
    jw_key(&w, "start_time");
    if (r->fw.start_time.valid) {
        char t[32];
        const struct rtc_time *s = &r->fw.start_time;
        fmt_into(t, sizeof(t), "%04u-%02u-%02uT%02u:%02u:%02u", s->year, s->month, s->day, s->hour,
                 s->minute, s->second);
        jw_str(&w, t);
    } else {
        jw_null(&w);
    }
    jw_kv_bool(&w, "rtc_plausible", r->fw.rtc_plausible);
    jw_kv_u64(&w, "duration_ms", r->duration_ms);
    jw_kv_str(&w, "status", r->partial ? "partial" : "complete");
    write_args(&w, r->args_text, &red);
    jw_kv_bool(&w, "config_file", r->cfg_file_found);
    jw_kv_str(&w, "config_source", config_source_name(r->net.config_source));
    jw_key(&w, "config_origins"); /* issue 35: which source set each key given */
    config_write_origins(&r->cfg, &w);
    write_network(&w, r, &red);
    jw_key(&w, "config");
    config_write_json_shown(&r->cfg, &w, red.cfg_upload[0] ? red.cfg_upload : r->cfg.upload);
    /* a message may quote a URL or an address (a failed fetch names the boot server) */
    report_write_msgs_shown(&w, "errors", &r->errors, redaction_write_text, &red);
    report_write_msgs_shown(&w, "warnings", &r->warnings, redaction_write_text, &red);
    jw_object_end(&w);

    write_firmware(&w, &r->fw, &red);
    write_cpu(&w, r);
    write_topology(&w, r);
    write_method(&w, r);

    jw_key(&w, "experiments");
    jw_array_begin(&w);
    for (i = 0; i < r->experiment_count; i++)
        if (r->experiments[i].ran)
            write_experiment(&w, &r->experiments[i], &red);
    jw_array_end(&w);
    report_json_recommendations(&w, r); /* schema version 2 */
    jw_object_end(&w);
    sb_putc(out, '\n');
    return jw_finish(&w);
}
