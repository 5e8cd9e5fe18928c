#include "core/conditions_report.h"
#include "arch/x86/probe.h"

static void write_smi(struct json_writer *w, const struct exp_conditions *c)
{
    jw_key(w, "smi");
    jw_object_begin(w);
    jw_kv_str(w, "source", c->smi_counter ? "msr_0x34" : c->hiccup_ran ? "hiccup_detector" : "none");
    if (c->smi_counter) {
        jw_kv_u64(w, "before", c->smi_before);
        jw_kv_u64(w, "after", c->smi_after);
        jw_kv_u64(w, "count", c->smi_after - c->smi_before);
    } else {
        jw_kv_null(w, "count");
    }
    jw_kv_str(w, "absent_reason", c->smi_counter ? NULL : c->smi_absent);
    if (c->smi_fault)
        jw_kv_u64(w, "probe_exception", c->smi_fault - 1);
    else
        jw_kv_null(w, "probe_exception");
    jw_key(w, "hiccup");
    if (c->hiccup_ran) {
        jw_object_begin_inline(w);
        jw_kv_u64(w, "cpu", c->hiccup_cpu);
        jw_kv_u64(w, "window_us", c->hiccup_window_us);
        jw_kv_u64(w, "threshold_ns", HICCUP_THRESHOLD_NS);
        jw_kv_u64(w, "gaps", c->hiccups);
        jw_kv_u64(w, "max_gap_ns", c->hiccup_max_ns);
        jw_object_end(w);
    } else {
        jw_null(w);
    }
    jw_object_end(w);
}

static void write_clock(struct json_writer *w, const struct exp_conditions *c)
{
    jw_key(w, "clock");
    jw_object_begin(w);
    jw_kv_bool(w, "aperf_mperf", c->aperfmperf);
    jw_kv_hex(w, "cpuid6_eax", c->leaf6_eax);
    jw_kv_hex(w, "cpuid6_ecx", c->leaf6_ecx);
    if (c->aperf_fault)
        jw_kv_u64(w, "probe_exception", c->aperf_fault - 1);
    else
        jw_kv_null(w, "probe_exception");
    jw_kv_u64(w, "cpus", c->ncpus);
    jw_kv_u64(w, "tsc_mhz", c->tsc_mhz);
    if (c->aperfmperf) {
        jw_key(w, "effective_over_tsc_permille");
        jw_object_begin_inline(w);
        jw_kv_u64(w, "min", c->eff_permille_min);
        jw_kv_u64(w, "mean", c->eff_permille_mean);
        jw_kv_u64(w, "max", c->eff_permille_max);
        jw_object_end(w);
        jw_kv_u64(w, "effective_mhz", c->tsc_mhz * c->eff_permille_mean / 1000);
    } else {
        jw_kv_null(w, "effective_over_tsc_permille");
        jw_kv_null(w, "effective_mhz");
    }
    jw_kv_str(w, "boost", c->boost);
    jw_kv_str(w, "boost_evidence", c->boost_evidence);
    jw_object_end(w);
}

void conditions_write_json(struct json_writer *w, const struct exp_conditions *c)
{
    if (!c->recorded) {
        jw_null(w);
        return;
    }
    jw_object_begin(w);
    write_smi(w, c);
    write_clock(w, c);
    jw_kv_str(w, "smt", c->smt);
    jw_kv_u64(w, "smt_cores", c->smt_cores);
    jw_kv_str(w, "target_wait", c->target_wait);
    jw_object_end(w);
}

void conditions_write_text(const struct exp_conditions *c, uint64_t tsc_hz, struct strbuf *sb)
{
    (void)tsc_hz;
    if (!c->recorded) {
        sb_puts(sb, "  Conditions: not recorded\n");
        return;
    }
    sb_puts(sb, "  Conditions: SMIs ");
    if (c->smi_counter)
        sb_printf(sb, "%llu (MSR 0x34)", (unsigned long long)(c->smi_after - c->smi_before));
    else if (c->hiccup_ran)
        sb_printf(sb, "no counter; %llu hiccups > %u us in %llu us (max %llu us)",
                  (unsigned long long)c->hiccups, HICCUP_THRESHOLD_NS / 1000,
                  (unsigned long long)c->hiccup_window_us,
                  (unsigned long long)(c->hiccup_max_ns / 1000));
    else
        sb_puts(sb, "not measured");
    if (c->aperfmperf)
        sb_printf(sb, "; clock %llu MHz effective (%llu.%01llu-%llu.%01llu x TSC)",
                  (unsigned long long)(c->tsc_mhz * c->eff_permille_mean / 1000),
                  (unsigned long long)(c->eff_permille_min / 1000),
                  (unsigned long long)(c->eff_permille_min % 1000 / 100),
                  (unsigned long long)(c->eff_permille_max / 1000),
                  (unsigned long long)(c->eff_permille_max % 1000 / 100));
    else if (c->aperf_fault)
        sb_printf(sb, "; no APERF/MPERF (exception %u)", c->aperf_fault - 1);
    else
        sb_printf(sb, "; no APERF/MPERF (CPUID 6 ECX = 0x%x)", c->leaf6_ecx);
    sb_printf(sb, "; boost %s; SMT %s; targets %s\n", c->boost ? c->boost : "unknown",
              c->smt ? c->smt : "?", c->target_wait ? c->target_wait : "?");
}
