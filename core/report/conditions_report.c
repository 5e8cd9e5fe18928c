#include "core/report/conditions_report.h"

static const char *method_name(enum smi_method m)
{
    return m == SMI_METHOD_MSR34 ? "msr_0x34" : m == SMI_METHOD_PMC ? "pmc_ls_smi_rx" : NULL;
}

static void write_smi_counts(struct json_writer *w, const struct exp_conditions *c)
{
    uint32_t i;
    if (!c->smi_counter) {
        jw_kv_null(w, "count");
        jw_kv_null(w, "cpus");
        jw_kv_null(w, "per_cpu");
        return;
    }
    jw_kv_u64(w, "count", c->smi_total);
    jw_kv_u64(w, "cpus", c->smi_cpus);
    jw_key(w, "per_cpu");
    jw_array_begin_inline(w);
    for (i = 0; i < c->smi_ncpu; i++) {
        if (c->smi_per_cpu[i] == SMI_NOT_COUNTED)
            jw_null(w);
        else
            jw_u64(w, c->smi_per_cpu[i]);
    }
    jw_array_end(w);
}

static void write_smi(struct json_writer *w, const struct exp_conditions *c)
{
    jw_key(w, "smi");
    jw_object_begin(w);
    jw_kv_str(w, "source", c->smi_counter ? method_name(c->smi_method)
                           : c->hiccup_ran ? "hiccup_detector" : "none");
    jw_kv_str(w, "method", method_name(c->smi_method));
    write_smi_counts(w, c);
    jw_key(w, "pmc");
    if (c->smi_method == SMI_METHOD_PMC && c->pmc_ctl) {
        jw_object_begin_inline(w);
        jw_kv_hex(w, "select_msr", c->pmc_ctl);
        jw_kv_hex(w, "counter_msr", c->pmc_ctr);
        jw_kv_hex(w, "event", c->pmc_event);
        jw_object_end(w);
    } else {
        jw_null(w);
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

static void write_role(struct json_writer *w, const char *name, const struct exp_conditions *c,
                       enum cond_role r)
{
    const struct cond_role_clock *rc = &c->role[r];
    jw_key(w, name);
    jw_object_begin_inline(w);
    jw_kv_u64(w, "cpus", rc->cpus);
    if (r == COND_ROLE_INITIATOR)
        jw_kv_u64(w, "cpu", c->initiator);
    jw_kv_u64(w, "aperf_delta", rc->aperf);
    jw_kv_u64(w, "mperf_delta", rc->mperf);
    if (rc->mperf)
        jw_kv_u64(w, "effective_mhz", c->tsc_mhz * cond_permille(rc->aperf, rc->mperf) / 1000);
    else
        jw_kv_null(w, "effective_mhz");
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
        jw_kv_u64(w, "weighted", c->eff_permille_all);
        jw_kv_u64(w, "max", c->eff_permille_max);
        jw_object_end(w);
        jw_kv_u64(w, "effective_mhz", c->tsc_mhz * c->eff_permille_all / 1000);
        jw_key(w, "roles");
        jw_object_begin(w);
        write_role(w, "initiator", c, COND_ROLE_INITIATOR);
        write_role(w, "targets", c, COND_ROLE_TARGETS);
        jw_object_end(w);
    } else {
        jw_kv_null(w, "effective_over_tsc_permille");
        jw_kv_null(w, "effective_mhz");
        jw_kv_null(w, "roles");
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

/* "2900 MHz" of a role, or "-" when none of its CPUs was awake. */
static void role_mhz(const struct exp_conditions *c, enum cond_role r, char *buf, size_t cap)
{
    const struct cond_role_clock *rc = &c->role[r];
    if (rc->mperf)
        fmt_into(buf, cap, "%llu MHz",
                 (unsigned long long)(c->tsc_mhz * cond_permille(rc->aperf, rc->mperf) / 1000));
    else
        fmt_into(buf, cap, "-");
}

static void smi_text(const struct exp_conditions *c, char *buf, size_t cap)
{
    if (c->smi_counter)
        fmt_into(buf, cap, "SMIs %llu (%s on %u CPUs, during the experiment)",
                 (unsigned long long)c->smi_total,
                 c->smi_method == SMI_METHOD_PMC ? "PMC LsSmiRx" : "MSR 0x34", c->smi_cpus);
    else if (c->hiccup_ran)
        fmt_into(buf, cap, "SMIs not countable (%s); hiccup detector only, on CPU %u after "
                           "the experiment: %llu gaps > %u us in %llu us (max %llu us)",
                 c->smi_absent, c->hiccup_cpu, (unsigned long long)c->hiccups,
                 HICCUP_THRESHOLD_NS / 1000, (unsigned long long)c->hiccup_window_us,
                 (unsigned long long)(c->hiccup_max_ns / 1000));
    else
        fmt_into(buf, cap, "SMIs not measured (%s)", c->smi_absent);
}

void conditions_write_text(const struct exp_conditions *c, uint64_t tsc_hz, struct strbuf *sb)
{
    char line[512], init[24], targets[24];
    (void)tsc_hz;
    if (!c->recorded) {
        sb_puts(sb, "  Conditions: not recorded\n");
        return;
    }
    smi_text(c, line, sizeof(line));
    sb_put_wrapped(sb, "  Conditions: ", "              ", line, 80);
    if (c->aperfmperf) {
        role_mhz(c, COND_ROLE_INITIATOR, init, sizeof(init));
        role_mhz(c, COND_ROLE_TARGETS, targets, sizeof(targets));
        fmt_into(line, sizeof(line), "clock %llu MHz effective (APERF/MPERF summed, weighted by "
                                     "time awake): initiator (CPU %u) %s, targets %s; per CPU "
                                     "%llu.%01llu-%llu.%01llu x TSC",
                 (unsigned long long)(c->tsc_mhz * c->eff_permille_all / 1000), c->initiator,
                 init, targets, (unsigned long long)(c->eff_permille_min / 1000),
                 (unsigned long long)(c->eff_permille_min % 1000 / 100),
                 (unsigned long long)(c->eff_permille_max / 1000),
                 (unsigned long long)(c->eff_permille_max % 1000 / 100));
    } else if (c->aperf_fault) {
        fmt_into(line, sizeof(line), "no APERF/MPERF (exception %u)", c->aperf_fault - 1);
    } else {
        fmt_into(line, sizeof(line), "no APERF/MPERF (CPUID 6 ECX = 0x%x)", c->leaf6_ecx);
    }
    sb_put_wrapped(sb, "              ", "              ", line, 80);
    fmt_into(line, sizeof(line), "boost %s; SMT %s; targets %s", c->boost ? c->boost : "unknown",
             c->smt ? c->smt : "?", c->target_wait ? c->target_wait : "?");
    sb_put_wrapped(sb, "              ", "              ", line, 80);
}
