/* The aarch64 report's own parts (JSON): see report_arm64.h; its text summary: report_text_arm64.c. */
#include "core/report/report_arm64.h"

#include "asm/cpu.h"
#include "asm/stage2.h"
#include "core/lib/json.h"
#include "core/lib/mem.h"
#include "core/report/recommend_json.h"
#include "core/report/report_doc.h"
#include "core/report/report_common.h"
#include "core/report/report_redact.h"
#include "core/report/run_json.h"
#include "core/run/config.h"

void a64_verdict(const struct arm64_run *run, struct verdict *v)
{
    uint32_t i;
    verdict_init(v);
    for (i = 0; i < run->nexp; i++) {
        if (!run->exps[i].ran) /* left out by experiments= */
            continue;
        verdict_count(v, run->exps[i].status, run->exps[i].results.count > 0, run->exps[i].id);
        v->emulated |= run->exps[i].emulated;
    }
    v->emulated |= run->hypervisor != 0;
    v->virtualised = run->platform_known && run->platform.kind == PLATFORM_VIRTUALISED;
    v->simulated = run->sim != 0; /* the model's run: the line ends [SIMULATED] */
    for (i = 0; i < run->ntopo; i++)
        if (run->topo[i].state == A64_CPU_ABSENT || run->topo[i].state == A64_CPU_HUNG ||
            run->topo[i].state == A64_CPU_FAULTED)
            v->cpus_dropped++;
    v->run_errors = run->errors.count + (run->errors.dropped ? 1 : 0);
    verdict_conclude(v, a64_run_result(run));
}

/* x86's run section (core/report/run_json.c): no network boot, nothing to redact */
/* What the report_doc callbacks get: the run, and its redaction (redact=on) */
struct a64_doc {
    const struct arm64_run *run;
    const struct redaction *red;
};

static void write_run(struct json_writer *w, const void *ctx)
{
    const struct a64_doc *d = ctx;
    const struct arm64_run *run = d->run;
    struct run_section s = {
        .id = run->id,
        .counter = run->counter,
        .start_time = run->rtc_plausible ? run->start_time : NULL,
        .rtc_plausible = run->rtc_plausible,
        .duration_ms = run->duration_ms,
        .partial = run->partial,
        .args = run->args,
        .config_file = run->config_file,
        .config_source = config_source_name(run->net.config_source),
        .cfg = &run->cfg,
        .net = &run->net,
        .upload = &run->upload,
        .red = d->red,
        .errors = &run->errors,
        .warnings = &run->warnings,
    };
    report_write_run(w, &s);
}

static void write_firmware(struct json_writer *w, const void *ctx)
{
    const struct arm64_run *run = ctx;
    jw_key(w, "firmware");
    jw_object_begin(w);
    jw_key(w, "uefi");
    jw_object_begin_inline(w);
    jw_kv_str(w, "vendor", run->uefi_vendor);
    jw_kv_str(w, "revision", run->uefi_revision);
    jw_object_end(w);
    jw_kv_str(w, "secure_boot", secure_boot_name(run->secure_boot));
    jw_key(w, "acpi");
    jw_object_begin_inline(w);
    jw_kv_str(w, "oem_id", run->acpi_oem_id);
    jw_kv_bool(w, "madt", run->madt);
    jw_kv_hex(w, "fadt_arm_boot_flags", run->fadt_arm_boot_flags);
    jw_object_end(w);
    jw_key(w, "smbios");
    if (run->smbios) {
        jw_object_begin(w);
        jw_key(w, "system");
        jw_object_begin_inline(w);
        jw_kv_str(w, "manufacturer", run->sm_manufacturer[0] ? run->sm_manufacturer : 0);
        jw_kv_str(w, "product", run->sm_product[0] ? run->sm_product : 0);
        jw_object_end(w);
        jw_object_end(w);
    } else {
        jw_null(w);
    }
    jw_object_end(w);
}

static void write_cpu(struct json_writer *w, const void *ctx)
{
    const struct arm64_run *run = ctx;
    const struct arm64_cpu_id *c = &run->cpu;
    jw_key(w, "cpu");
    jw_object_begin(w);
    jw_kv_hex(w, "midr", c->midr);
    jw_kv_hex(w, "implementer", c->implementer);
    jw_kv_str(w, "implementer_name", arm64_implementer_name(c->implementer));
    jw_kv_hex(w, "part", c->part);
    jw_kv_u64(w, "variant", c->variant);
    jw_kv_u64(w, "revision", c->revision);
    jw_key(w, "id_regs");
    jw_object_begin(w);
    jw_kv_hex(w, "ID_AA64ISAR0_EL1", c->isar0);
    jw_kv_hex(w, "ID_AA64MMFR0_EL1", c->mmfr0);
    jw_kv_hex(w, "ID_AA64MMFR1_EL1", c->mmfr1);
    jw_kv_hex(w, "ID_AA64MMFR2_EL1", c->mmfr2);
    jw_object_end(w);
    jw_key(w, "features");
    jw_object_begin_inline(w);
    jw_kv_bool(w, "tlbi_os", c->tlbi_os);
    jw_kv_bool(w, "tlbi_range", c->tlbi_range);
    /* ID_AA64MMFR2_EL1.E0PD: without it Linux (with KASLR) runs KPTI, pti_double_invalidation's path */
    jw_kv_bool(w, "e0pd", c->e0pd);
    /* the rest of what the TLB's behaviour depends on (arm64_cpu_decode), the registers above
     * their evidence: reported, never decided on */
    jw_kv_bool(w, "cnp", c->cnp);
    jw_kv_bool(w, "ttl", c->ttl);
    jw_kv_u64(w, "bbm", c->bbm);
    jw_kv_bool(w, "ntlbpa", c->ntlbpa);
    jw_kv_bool(w, "vhe", c->vhe);
    jw_object_end(w);
    jw_kv_u64(w, "exception_level", run->el);
    jw_kv_str(w, "hypervisor", run->hypervisor);
    jw_kv_str(w, "hypervisor_source", run->hypervisor_source);
    if (run->platform_known) { /* a machine, a virtual machine or an emulator, and why */
        jw_key(w, "platform");
        jw_object_begin_inline(w);
        jw_kv_str(w, "kind", platform_kind_name(run->platform.kind));
        jw_kv_str(w, "hypervisor", run->platform.hypervisor);
        jw_kv_str(w, "evidence", run->platform.evidence);
        jw_object_end(w);
    }
    jw_kv_u64(w, "counter_hz", run->counter_hz);
    jw_kv_str(w, "counter_source", "cntfrq_el0");
    jw_object_end(w);
}

/* ipi_roundtrip's topology classes (core/run/topo_arm64.h): where they come from, MPIDR_EL1.MT
 * as the BSP read it, and the ordered pairs of the table's CPUs (any state) in each class;
 * nothing before the places are known (a64_topology_places) */
static void write_classes(struct json_writer *w, const struct arm64_run *run)
{
    uint32_t per_class[A64_CLASS_COUNT] = { 0 }, i, j, c;
    if (!run->class_source)
        return;
    for (i = 0; i < run->ntopo; i++)
        for (j = 0; j < run->ntopo; j++)
            per_class[a64_place_class(&run->topo[i].place, &run->topo[j].place)]++;
    jw_kv_str(w, "class_source", run->class_source);
    jw_kv_bool(w, "mpidr_mt", (run->cpu.mpidr & MPIDR_MT_BIT) != 0);
    jw_key(w, "classes");
    jw_object_begin_inline(w);
    for (c = A64_CLASS_FIRST; c < A64_CLASS_COUNT; c++)
        jw_kv_u64(w, a64_class_name((enum a64_class)c), per_class[c]);
    jw_object_end(w);
}

static void write_topology(struct json_writer *w, const void *ctx)
{
    const struct arm64_run *run = ctx;
    uint32_t i, ok = 0;
    for (i = 0; i < run->ntopo; i++)
        ok += run->topo[i].state == A64_CPU_OK;
    jw_key(w, "topology");
    jw_object_begin(w);
    jw_kv_u64(w, "cpu_count", run->ntopo);
    jw_kv_u64(w, "cpus_ok", ok);
    jw_kv_str(w, "source", "madt_gicc");
    write_classes(w, run);
    jw_key(w, "cpus");
    jw_array_begin(w);
    for (i = 0; i < run->ntopo; i++) {
        const struct a64_topo_cpu *t = &run->topo[i];
        jw_object_begin_inline(w);
        jw_kv_u64(w, "index", i);
        jw_kv_hex(w, "mpidr", t->mpidr);
        jw_kv_u64(w, "uid", t->uid);
        jw_kv_bool(w, "bsp", i == 0);
        jw_kv_str(w, "state", a64_cpu_state_name(t->state));
        jw_kv_str(w, "bring_up", t->bring_up);
        if (t->note[0])
            jw_kv_str(w, "note", t->note);
        if (t->has_fault) {
            jw_key(w, "fault");
            jw_object_begin_inline(w);
            jw_kv_hex(w, "esr", t->esr);
            jw_kv_hex(w, "far", t->far);
            jw_kv_hex(w, "elr", t->elr);
            jw_kv_u64(w, "vector", t->vector);
            jw_object_end(w);
        }
        jw_object_end(w);
    }
    jw_array_end(w);
    jw_object_end(w);
}

/* The tool's SGI numbers (below 8: SGIs 8-15 are the secure firmware's on Arm servers) and
 * whether the GIC has one security state, with the register that says so */
static void write_gic_sgis(struct json_writer *w, const struct arm64_run *run)
{
    const struct gic_security *g = &run->gic_security;
    jw_key(w, "sgis");
    jw_object_begin_inline(w);
    jw_kv_u64(w, "cmd", SGI_CMD);
    jw_kv_u64(w, "ping", SGI_PING);
    jw_object_end(w);
    if (!g->known)
        return;
    jw_key(w, "gic_security");
    jw_object_begin_inline(w);
    jw_kv_bool(w, "disabled", g->disabled);
    jw_kv_str(w, "from", g->from);
    jw_kv_hex(w, "register", g->reg);
    jw_object_end(w);
}

/* every GICR discovery range the MADT gave, with the CPUs whose redistributor it holds */
static void write_gicr_ranges(struct json_writer *w, const struct arm64_run *run)
{
    unsigned r;
    if (!run->ngicr)
        return;
    jw_key(w, "gicr_ranges");
    jw_array_begin(w);
    for (r = 0; r < run->ngicr; r++) {
        jw_object_begin_inline(w);
        jw_kv_hex(w, "base", run->gicr[r].base);
        jw_kv_hex(w, "length", run->gicr[r].len);
        jw_kv_u64(w, "redistributors", run->gicr[r].cpus);
        jw_kv_str(w, "mapped_by", run->gicr[r].mapped_by);
        jw_object_end(w);
    }
    jw_array_end(w);
}

static void write_stage2(struct json_writer *w, const struct arm64_run *run)
{
    jw_key(w, "stage2");
    jw_object_begin(w);
    jw_kv_u64(w, "vmid", run->stage2_vmid);
    jw_kv_u64(w, "ipa_bits", STAGE2_IPA_BITS);
    jw_kv_str(w, "linux", "__kvm_tlb_flush_vmid_ipa");
    jw_kv_bool(w, "verified", false);
    jw_kv_str(w, "why", "no guest ran under this stage 2 (HCR_EL2.VM 0), so no stage-2 entries were filled and "
                        "nothing is read back: the row times the broadcast invalidation sequence");
    jw_kv_hex(w, "vttbr_el2_found", run->stage2_vttbr_found);
    jw_kv_bool(w, "restored", run->stage2_restored);
    jw_object_end(w);
}

static void write_method(struct json_writer *w, const void *ctx)
{
    const struct arm64_run *run = ctx;
    jw_key(w, "method");
    jw_object_begin(w);
    jw_kv_str(w, "ipi", run->gic_version == 2 ? "gicv2_sgi" : "gicv3_sgi");
    jw_kv_u64(w, "gic_version", run->gic_version == 2 ? 2 : 3);
    write_gic_sgis(w, run);
    write_gicr_ranges(w, run);
    jw_kv_str(w, "psci_conduit", run->psci_hvc ? "hvc" : "smc");
    jw_kv_str(w, "psci_version", run->psci_version);
    jw_kv_u64(w, "exception_level", run->el);
    jw_kv_str(w, "tlbi_el", run->el == 2 ? "el2" : "el1");
    if (run->linux_tlbi[0]) { /* Linux's unmap sequence on this CPU (broadcast_linux's) */
        jw_kv_str(w, "linux_tlbi", run->linux_tlbi);
        jw_kv_str(w, "linux_repeat_tlbi", run->linux_repeat_tlbi);
    }
    if (run->stage2_vmid) /* stage2_kvm at EL2: what it timed, and that nothing was verified */
        write_stage2(w, run);
    jw_kv_str(w, "target_wait", "wfi_irq");
    jw_kv_u64(w, "page_size", 4096);
    jw_kv_u64(w, "test_pages", run->test_pages);
    jw_kv_u64(w, "counter_hz", run->counter_hz);
    /* one tick's length, beside every latency in counter_ticks (3 decimals: 24 MHz ticks 41.667 ns) */
    jw_kv_fixed(w, "tick_ns", run->counter_hz ? (int64_t)((1000000000000ull + run->counter_hz / 2) / run->counter_hz) : 0, 3);
    /* what the app set before measuring: at EL2 CNTVOFF_EL2 cleared on every CPU (the BSP's
     * value before it; null at EL1, where it is the hypervisor's or firmware's and unreadable),
     * CnP clear in the app's TTBR0, at EL1 TTBR1_EL1's tables the firmware's */
    if (run->cntvoff_cleared)
        jw_kv_hex(w, "cntvoff_el2_found", run->cntvoff_found);
    else
        jw_kv_null(w, "cntvoff_el2_found");
    jw_kv_str(w, "ttbr0_cnp", run->ttbr0_cnp_found ? "cleared" : "clear");
    jw_kv_str(w, "ttbr1", run->el == 1 ? "firmware" : NULL);
    if (run->el == 1)
        jw_kv_bool(w, "tcr_epd1", run->tcr_epd1);
    else
        jw_kv_null(w, "tcr_epd1");
    report_write_bootstrap(w, run->order_seed, run->p50_intervals,
                           run->counter_hz ? run->p50_interval_ticks * 1000 / run->counter_hz : 0);
    a64_write_psci_and_handback(w, run);
    jw_object_end(w);
}

/* what the run suggests (core/run/recommend_arm64.c), written as x86's are */
static struct recommendations recs; /* a few KB: not on the firmware's stack */

static void write_recommendations(struct json_writer *w, const void *ctx)
{
    const struct a64_doc *d = ctx;
    a64_recommend(d->run, &recs);
    report_write_recommendations(w, &recs);
}

/* "simulated", "simulation": the model's run (tlbscope-sim --arch aarch64), else a machine's;
 * then redact=on's record, as on x86 */
static void write_head(struct json_writer *w, const void *ctx)
{
    const struct a64_doc *d = ctx;
    const struct a64_simulation *s = d->run->sim;
    jw_kv_bool(w, "simulated", s != 0);
    jw_key(w, "simulation");
    if (!s) {
        jw_null(w);
        redaction_write_record(w, d->red);
        return;
    }
    jw_object_begin(w);
    jw_kv_str(w, "model", s->model);
    jw_kv_u64(w, "model_version", s->model_version);
    jw_kv_str(w, "profile", s->profile);
    jw_kv_str(w, "profile_cpu", s->profile_cpu);
    jw_kv_u64(w, "seed", s->seed);
    jw_key(w, "errata"); /* the aarch64 model has no errata switch */
    jw_array_begin_inline(w);
    jw_array_end(w);
    jw_kv_str(w, "id_registers_source", s->id_source);
    jw_object_end(w);
    redaction_write_record(w, d->red);
}

static void write_machine(struct json_writer *w, const void *ctx)
{
    const struct a64_doc *d = ctx;
    write_firmware(w, d->run);
    write_cpu(w, d->run);
    write_topology(w, d->run);
    write_method(w, d->run);
}

/*
 * redact=on (core/report/report_redact.h), as on x86: what an aarch64 run has that identifies
 * its site is the network boot's addresses and URL and the upload's URL (no SMBIOS serial or
 * UUID is read); their tokens replace them in run.network, run.config and every free text
 * (the .txt too).
 */
void a64_prepare_redaction(const struct arm64_run *run, struct redaction *red)
{
    struct redaction_input in = {
        .cfg = &run->cfg,
        .random_key = run->redact_random_key_set ? run->redact_random_key : 0,
        .fallback_seed = &run->start_ticks,
        .fallback_seed_len = sizeof(run->start_ticks),
        .mac = run->net.mac,
        .ip = run->net.ip,
        .boot_url = run->net.boot_url,
        .upload_url = run->upload.url[0] ? run->upload.url : run->cfg.upload,
    };
    redaction_prepare_from(&in, red);
}

bool a64_report_json(const struct arm64_run *run, struct strbuf *out)
{
    static struct redaction red;
    const struct a64_doc doc = { run, &red };
    struct verdict v;
    struct report_doc d = {
        .architecture = "aarch64",
        .result = a64_run_result(run),
        .verdict = &v,
        .write_head = write_head,
        .write_run = write_run,
        .write_machine = write_machine,
        .write_recommendations = write_recommendations,
        .experiments = run->exps,
        .experiment_count = run->nexp,
        .unit = "counter_ticks", /* CNTVCT_EL0 at cpu.counter_hz */
        .show = redaction_write_text,
        .show_ctx = &red,
        .ctx = &doc,
    };
    a64_prepare_redaction(run, &red);
    a64_verdict(run, &v);
    return report_doc_write(&d, out);
}
