/*
 * The report's `method` object (reports/SCHEMA.md): how this run measured,
 * per CPU settings it made (EFER.TCE, LFENCE serialising, the lazy CPUs'
 * idle), the PCID erratum's verdict, the bootstrap, the profile, the timer's
 * overhead and the timestamp sequence. core/report/report_json.c writes the
 * rest of the report around it.
 */
#include "core/report/method_report.h"

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
    report_kv_hex_or_null(w, "microcode", e->microcode_known, e->microcode);
    jw_kv_hex(w, "fixed_microcode", e->fixed_microcode);
    jw_kv_bool(w, "affected", e->affected);
    jw_kv_str(w, "source", "Intel ADL063/RPL042; Linux arch/x86/mm/init.c invlpg_miss_ids[]");
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

void method_report_write(struct json_writer *w, const struct run *r)
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
    report_write_bootstrap(w, m->order_seed, m->p50_intervals,
                           r->tsc_hz ? m->p50_interval_ticks * 1000 / r->tsc_hz : 0);
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
